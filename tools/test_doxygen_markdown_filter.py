#!/usr/bin/env python3
"""Self-test of tools/doxygen_markdown_filter.py: links into the tree become
paths, section links become references to the labels the headings get,
and everything else, line numbers included, is left as it was."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doxygen_markdown_filter as f  # noqa: E402

ROOT = "/repo"
GUIDE = "/repo/docs/guide.md"


def run(text, path=GUIDE):
    out = f.filter_text(text, path, ROOT)
    assert out.count("\n") == text.count("\n"), "the filter must keep the line count"
    return out


class MarkdownFilterTest(unittest.TestCase):
    def test_a_link_into_the_tree_shows_its_path_as_code(self):
        self.assertEqual(run("See [src/core/dtype.h](../src/core/dtype.h).\n"), "See `src/core/dtype.h`.\n")
        self.assertEqual(run("In [`tools/a.py`](../tools/a.py)\n"), "In `tools/a.py`\n")
        self.assertEqual(run("the [dtype table](../src/core/dtype.h)\n"), "the dtype table (`src/core/dtype.h`)\n")
        self.assertEqual(run("[x.py](x.py)\n", "/repo/bindings/python/README.md"), "x.py (`bindings/python/x.py`)\n")

    def test_a_section_link_refers_to_the_label_of_the_heading(self):
        self.assertEqual(run("[Limits](performance.md#what-limits-a-case)\n"),
                         "[Limits](@ref md_docs_performance-what-limits-a-case)\n")
        self.assertEqual(run("[Up](#the-rules)\n"), "[Up](@ref md_docs_guide-the-rules)\n")
        self.assertEqual(run("[Go](../bindings/go/README.md#tests)\n"), "[Go](@ref md_bindings_go_README-tests)\n")

    def test_a_link_broken_over_lines_keeps_the_line_count(self):
        self.assertEqual(run("rule. [What limits a\ncase](performance.md#what-limits-a-case) gives\n"),
                         "rule. [What limits a case](@ref md_docs_performance-what-limits-a-case)\n gives\n")
        self.assertEqual(run("the [dtype\ntable](../src/core/dtype.h) x\n"),
                         "the dtype table (`src/core/dtype.h`)\n x\n")

    def test_pages_images_urls_and_escaped_brackets_pass_unchanged(self):
        text = ("[Errors](errors.md), [README](../bindings/go/README.md), ![chart](chart.svg),\n"
                "[site](https://example.org/a#b), [mail](mailto:a@b.c), \\[not](a link), [abs](/x/y)\n")
        self.assertEqual(run(text), text)

    def test_headings_but_the_title_get_labels_as_a_git_host_anchors_them(self):
        text = ("# Guide\n\n## The rules\n### `st_copy()` and st_to(): a → b\n## The rules\n"
                "## Tests ##\n## Kept {#kept}\n# Second part\n")
        self.assertEqual(run(text), (
            "# Guide\n\n## The rules {#md_docs_guide-the-rules}\n"
            "### `st_copy()` and st_to(): a → b {#md_docs_guide-st_copy-and-st_to-a--b}\n"
            "## The rules {#md_docs_guide-the-rules-1}\n## Tests {#md_docs_guide-tests}\n## Kept {#kept}\n"
            "# Second part {#md_docs_guide-second-part}\n"))

    def test_fenced_code_is_left_alone(self):
        text = "```sh\n# a comment\n[x](../src/a.h)\n```\n~~~\n## not a heading\n~~~\n[src/b.h](../src/b.h)\n"
        self.assertEqual(run(text), text.replace("[src/b.h](../src/b.h)", "`src/b.h`"))

    def test_the_page_name_is_doxygens(self):
        self.assertEqual(f.page_name("/repo/docs/abi-policy.md", ROOT), "md_docs_abi_policy")
        self.assertEqual(f.page_name("/repo/bindings/python/README.md", ROOT), "md_bindings_python_README")


if __name__ == "__main__":
    unittest.main()
