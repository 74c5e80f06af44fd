#!/usr/bin/env python3
"""Self-test of tools/check_html_links.py: a manual whose links, images and
anchors all resolve passes, and each kind of dead link is reported."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_html_links  # noqa: E402
from test_check_layers import TempTree, write  # noqa: E402


def page(body):
    return f"<html><head><link href='doxygen.css' rel='stylesheet'></head><body>{body}</body></html>\n"


class CheckHtmlLinksTest(TempTree):
    def manual(self, pages, folder=""):
        """Writes the pages {name: body}, each with its style sheet, into
        folder; the checker's answer on that folder."""
        base = os.path.join(self.root, folder)
        for name, body in pages.items():
            write(base, os.path.join(os.path.dirname(name), "doxygen.css"), "")
            write(base, name, page(body))
        return check_html_links.check(base)

    def test_links_images_and_anchors_that_resolve_pass(self):
        write(self.root, "chart.svg", "<svg/>")
        write(self.root, "search/all.js", "")
        count, followed, problems = self.manual({
            "index.html": '<a href="guide.html">guide</a> <a href="guide.html#section">section</a> '
                          '<a href="#top">top</a><a id="top"></a> <img src="chart.svg"> '
                          '<object type="image/svg+xml" data="chart.svg"></object> '
                          '<script src="search/all.js"></script>',
            "guide.html": '<h2><a class="anchor" id="section"></a>Section</h2><a name="old"></a>'
                          '<a href="index.html#top">back</a> <a href="guide.html#old">old</a> '
                          '<a href="chart%2Esvg">c</a>'})
        self.assertEqual(problems, [])
        self.assertEqual(count, 2)
        self.assertEqual(followed, 11)  # a style sheet and six links in index, a style sheet and three in guide

    def test_urls_and_mail_are_not_followed(self):
        _, followed, problems = self.manual({
            "index.html": '<a href="https://example.org/x.html">x</a> <a href="mailto:a@b.c">mail</a> '
                          '<a href="javascript:void(0)">js</a> <img src="//cdn.example.org/i.png">'})
        self.assertEqual(problems, [])
        self.assertEqual(followed, 1)  # the style sheet

    def test_a_missing_file_is_reported_with_its_page(self):
        _, _, problems = self.manual({"index.html": '<img src="chart.svg"> <a href="performance.md#a">p</a>'})
        self.assertEqual(problems, [
            "index.html: chart.svg (no file chart.svg)",
            "index.html: performance.md#a (no file performance.md)",
        ])

    def test_a_link_out_of_the_manual_is_dead_even_where_the_file_exists(self):
        write(self.root, "src/x.cpp", "")
        _, _, problems = self.manual({"index.html": '<a href="../src/x.cpp">x</a>'}, "html")
        self.assertEqual(problems, ["index.html: ../src/x.cpp (leaves the manual's folder)"])

    def test_a_missing_anchor_is_reported_in_another_page_and_in_the_same(self):
        _, _, problems = self.manual({"index.html": '<a href="sub/guide.html#gone">g</a> <a href="#nowhere">n</a>',
                                      "sub/guide.html": '<a id="here"></a>'})
        self.assertEqual(problems, [
            "index.html: sub/guide.html#gone (sub/guide.html has no anchor gone)",
            "index.html: #nowhere (index.html has no anchor nowhere)",
        ])

    def test_the_command_fails_on_a_dead_link_and_on_a_missing_or_empty_folder(self):
        write(self.root, "index.html", page(""))
        self.assertEqual(check_html_links.main(["check", self.root]), 1)  # doxygen.css is missing
        write(self.root, "doxygen.css", "")
        self.assertEqual(check_html_links.main(["check", self.root]), 0)
        self.assertEqual(check_html_links.main(["check", os.path.join(self.root, "none")]), 1)
        os.makedirs(os.path.join(self.root, "empty"))
        self.assertEqual(check_html_links.main(["check", os.path.join(self.root, "empty")]), 1)

    def test_skip_answers_ctests_skipped(self):
        self.assertEqual(check_html_links.main(["check", "--skip", "no doxygen"]), 77)


    def test_the_sidebar_follows_the_input_order(self):
        docs = os.path.join(check_html_links.page_name.__globals__["ROOT"], "docs")
        write(self.root, "Doxyfile", f"INPUT = /x/stride.h \\\n  {docs}/index.md \\\n  {docs}/guide.md \\\n"
                                     f"  {docs}/contributing.md\nUSE_MDFILE_AS_MAINPAGE = {docs}/index.md\n")
        tree = '    [ "Guide", "md_docs_guide.html", [\n      [ "A", "md_docs_guide.html#a", null ] ] ],\n'
        other = '    [ "Contributing", "md_docs_contributing.html", null ],\n'
        write(self.root, "html/navtreedata.js", "var NAVTREE = [\n  [ \"stride\", \"index.html\", [\n" + tree + other)
        doxyfile, html = os.path.join(self.root, "Doxyfile"), os.path.join(self.root, "html")
        self.assertEqual(check_html_links.check_order(html, doxyfile), [])
        write(self.root, "html/navtreedata.js", "var NAVTREE = [\n  [ \"stride\", \"index.html\", [\n" + other + tree)
        self.assertEqual(len(check_html_links.check_order(html, doxyfile)), 1)

if __name__ == "__main__":
    unittest.main()
