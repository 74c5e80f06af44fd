#!/usr/bin/env python3
"""Checks that every relative link of the HTML manual leads somewhere.

Reads every .html file under HTML_DIR and resolves each relative href, src
and data (links, images, style sheets, scripts) against the page's folder:
the file must exist under HTML_DIR, and an anchor `page.html#name` (or
`#name` within a page) must be an id or name that the target page defines.
Links with a scheme (http:, https:, mailto:, javascript:) are not followed.
Doxygen reports no such dead link: a Markdown link to a file it does not
publish (../src/x.cpp, an image outside IMAGE_PATH, page.md#section) is
written into the HTML as it stands.

    tools/check_html_links.py HTML_DIR
    tools/check_html_links.py --doxygen DOXYGEN --doxyfile DOXYFILE
    tools/check_html_links.py --skip REASON

The second form builds the manual afresh into a temporary folder (the
Doxyfile with its OUTPUT_DIRECTORY replaced) and checks that: what the
sources produce now, whether or not the docs target was built, and without
a second build tool running in the build tree. A Doxygen failure (any
warning, docs/Doxyfile.in) fails the check; so does a sidebar whose pages
are not in the order of the Doxyfile's INPUT (the order docs/CMakeLists.txt
chooses: getting started first, contributor pages last). The third form prints why the
check cannot run and exits 77, ctest's "skipped".

Prints each dead link as PAGE: LINK (why) and exits 1 when there is one;
exits 0, printing how many links it followed, otherwise.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from urllib.parse import unquote

from doxygen_markdown_filter import page_name

SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
SKIPPED = 77
# href: links and style sheets; src: images and scripts; data: the <object>
# Doxygen shows an SVG image in.
LINK_ATTRIBUTES = ("href", "src", "data")


class Page(HTMLParser):
    """The anchors a page defines and the relative links it holds."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.anchors = set()
        self.links = []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (name == "name" and tag == "a"):
                self.anchors.add(value)
            elif name in LINK_ATTRIBUTES and value and not SCHEME.match(value) and not value.startswith("//"):
                self.links.append(value)


def read_pages(html_dir):
    """{path relative to html_dir: Page} for every .html file under it."""
    pages = {}
    for folder, _, files in os.walk(html_dir):
        for name in sorted(files):
            if name.endswith(".html"):
                path = os.path.join(folder, name)
                page = Page()
                with open(path, encoding="utf-8", errors="replace") as f:
                    page.feed(f.read())
                pages[os.path.relpath(path, html_dir)] = page
    return pages


def check(html_dir):
    """(links followed, problems [str])."""
    html_dir = os.path.abspath(html_dir)
    pages = read_pages(html_dir)
    followed, problems = 0, []
    for rel, page in sorted(pages.items()):
        for link in page.links:
            followed += 1
            path, _, anchor = link.partition("#")
            path = unquote(path.partition("?")[0])
            target = os.path.normpath(os.path.join(os.path.dirname(rel), path)) if path else rel
            if target.startswith(os.pardir + os.sep) or target == os.pardir:
                problems.append(f"{rel}: {link} (leaves the manual's folder)")
            elif not os.path.isfile(os.path.join(html_dir, target)):
                problems.append(f"{rel}: {link} (no file {target})")
            elif anchor and target in pages and unquote(anchor) not in pages[target].anchors:
                problems.append(f"{rel}: {link} ({target} has no anchor {anchor})")
    return len(pages), followed, problems


def build(doxygen, doxyfile, out_dir):
    """Runs Doxygen on DOXYFILE with its output in out_dir; (ok, output)."""
    with open(doxyfile, encoding="utf-8") as f:
        config = f.read() + f"\nOUTPUT_DIRECTORY = \"{out_dir}\"\n"
    run = subprocess.run([doxygen, "-"], input=config, text=True, capture_output=True,
                         cwd=os.path.dirname(os.path.abspath(doxyfile)))
    return run.returncode == 0, run.stdout + run.stderr


def input_pages(doxyfile):
    """The pages of the Doxyfile's INPUT in its order, by Doxygen's names (md_docs_getting_started);
    the main page (USE_MDFILE_AS_MAINPAGE) left out: it is index.html."""
    with open(doxyfile, encoding="utf-8") as f:
        text = f.read().replace("\\\n", " ")
    values = dict(re.findall(r"^([A-Z_]+)\s*=[ \t]*(.*)$", text, re.M))
    main_page = values.get("USE_MDFILE_AS_MAINPAGE", "").strip()
    return [page_name(p) for p in values.get("INPUT", "").split() if p.endswith(".md") and p != main_page]


def sidebar_pages(html_dir):
    """The pages at the top level of the sidebar (navtreedata.js), in its order."""
    with open(os.path.join(html_dir, "navtreedata.js"), encoding="utf-8") as f:
        return re.findall(r'^    \[ "[^"]*", "(md_[^".#]*)\.html"', f.read(), re.M)


def check_order(html_dir, doxyfile):
    """Problems [str]: the sidebar's pages against the INPUT's order."""
    want, got = input_pages(doxyfile), sidebar_pages(html_dir)
    if got != want:
        return [f"navtreedata.js: the sidebar's pages are {got}, the INPUT's order is {want}"]
    return []


def report(html_dir, extra_problems=()):
    if not os.path.isdir(html_dir):
        print(f"check_html_links: {html_dir} is not a folder; build the docs target first")
        return 1
    count, followed, problems = check(html_dir)
    problems += list(extra_problems)
    for p in problems:
        print(p)
    if not count:
        print(f"check_html_links: no .html file under {html_dir}")
        return 1
    if problems:
        print(f"check_html_links: {len(problems)} problem(s) in {count} pages under {html_dir}")
        return 1
    print(f"check_html_links: {followed} relative links in {count} pages, each leads to a file and anchor")
    return 0


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("html_dir", nargs="?")
    parser.add_argument("--doxygen")
    parser.add_argument("--doxyfile")
    parser.add_argument("--skip", metavar="REASON")
    args = parser.parse_args(argv[1:])
    if args.skip:
        print(f"check_html_links: skipped: {args.skip}")
        return SKIPPED
    if args.html_dir:
        return report(args.html_dir)
    if not (args.doxygen and args.doxyfile):
        parser.error("give HTML_DIR, or --doxygen and --doxyfile")
    with tempfile.TemporaryDirectory(prefix="stride-docs-") as out_dir:
        ok, output = build(args.doxygen, args.doxyfile, out_dir)
        if not ok:
            print(output, end="")
            print(f"check_html_links: {args.doxygen} failed on {args.doxyfile}")
            return 1
        html_dir = os.path.join(out_dir, "html")
        return report(html_dir, check_order(html_dir, args.doxyfile))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
