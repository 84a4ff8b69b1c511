"""The README is a front page and the docs behind it are reachable: README.md stays within one screen
(at most 80 lines), and every relative link of README.md and docs/*.md names a file or directory of
the checkout (an #anchor is not checked, only the path before it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# [text](target) outside code spans; a target is relative when it has no scheme and is not an anchor
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)


def relative_links(text: str) -> list[str]:
    links = LINK.findall(CODE.sub("", text))
    return [link for link in links if not re.match(r"^[a-z][a-z0-9+.-]*:", link) and not link.startswith("#")]


def test_readme_fits_one_screen():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 80, f"README.md has {lines} lines; move the detail into docs/ and link it"


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_relative_links_resolve(page):
    missing = [link for link in relative_links(page.read_text(encoding="utf-8"))
               if not (page.parent / link.split("#", 1)[0]).exists()]
    assert not missing, f"{page.relative_to(ROOT)}: links to nothing: {missing}"


def test_the_front_page_links_every_docs_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {Path(link.split("#", 1)[0]).name for link in relative_links(readme)}
    unlinked = [p.name for p in PAGES[1:] if p.name not in linked]
    assert not unlinked, f"docs pages the README does not link: {unlinked}"


def test_the_link_finder_sees_broken_links(tmp_path):
    assert relative_links("see [a](docs/none.md) and [b](https://x.org) `[c](not/a/link.md)` [d](#top)") \
        == ["docs/none.md"]
