#!/usr/bin/env python3
"""Doxygen's input filter for the guides (FILTER_PATTERNS, docs/Doxyfile.in).

The guides are written for two readers: a Git host, which shows docs/*.md
with their relative links as they stand, and the HTML manual Doxygen builds
from them. Doxygen 1.9 resolves a link to another published page
(`errors.md`) but writes every other relative link into the HTML as it
stands, where it leads nowhere. This filter rewrites the Markdown Doxygen
reads, and only that; the files keep the links a Git host follows:

- a link to any other file (`[src/core/numeric/dtype.h](../src/core/numeric/dtype.h)`):
  the manual publishes the header and the guides, not the sources, so it
  shows the file's path, as code, unlinked;
- a link to a section (`[text](performance.md#what-limits-a-case)`,
  `[text](#a-heading)`): a reference to the label this filter gives the
  heading, the page's name then the heading's anchor on a Git host;
- every heading but the page's title gets that label, `{#label}`.

Links to published pages, images (IMAGE_PATH) and URLs pass unchanged, as
does everything inside fenced code. Each output line is its input line, so
Doxygen's warnings keep their line numbers.

    tools/doxygen_markdown_filter.py FILE.md    (Doxygen appends FILE)
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"(?<![!\\])\[([^\]]+)\]\(([^)\s]+)\)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def page_name(path, root=ROOT):
    """The name Doxygen gives the page of a Markdown file: md_docs_abi_policy."""
    rel = os.path.splitext(os.path.relpath(path, root))[0]
    return "md_" + re.sub(r"[^A-Za-z0-9]", "_", rel)


def anchor(title):
    """A heading's anchor as Git hosts make it: lower case, inline markup and
    punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[`*]", "", title).lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def label_headings(lines, page):
    """Adds {#page-anchor} to each heading after the title, outside fences;
    a repeated anchor gets -1, -2... as on a Git host."""
    seen, fenced, first = {}, False, True
    for i, line in enumerate(lines):
        if FENCE.match(line):
            fenced = not fenced
        if fenced or not line.strip():
            continue
        m = HEADING.match(line)
        title_line, first = first, False
        if not m or "{#" in line or (title_line and m.group(1) == "#"):
            continue
        base = anchor(m.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        name = base if count == 0 else f"{base}-{count}"
        end = "\n" if line.endswith("\n") else ""
        lines[i] = f"{m.group(1)} {m.group(2)} {{#{page}-{name}}}{end}"
    return lines


def rewrite_link(match, path, root):
    text, target = match.group(1), match.group(2)
    if SCHEME.match(target) or target.startswith("/"):
        return match.group(0)
    file_part, _, section = target.partition("#")
    resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
    one_line = " ".join(text.split())
    moved = "\n" * text.count("\n")  # the link's line breaks, kept after it
    if section and resolved.endswith(".md"):
        return f"[{one_line}](@ref {page_name(resolved, root)}-{section}){moved}"
    if resolved.endswith(".md"):
        return match.group(0)  # a published page: Doxygen resolves it
    shown = os.path.relpath(resolved, root)
    if one_line.strip("`") == shown:
        return f"`{shown}`{moved}"
    return f"{one_line} (`{shown}`){moved}"


def filter_text(text, path, root=ROOT):
    """The Markdown Doxygen reads for the file at path."""
    path = os.path.abspath(path)
    lines = label_headings(text.splitlines(keepends=True), page_name(path, root))
    out, prose, fenced = [], [], False

    def flush():
        out.append(LINK.sub(lambda m: rewrite_link(m, path, root), "".join(prose)))
        prose.clear()

    for line in lines:
        if FENCE.match(line):
            if not fenced:
                flush()
            fenced = not fenced
            out.append(line)
        elif fenced:
            out.append(line)
        else:
            prose.append(line)
    flush()
    return "".join(out)


def main(argv):
    with open(argv[1], encoding="utf-8") as f:
        sys.stdout.write(filter_text(f.read(), argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
