"""The README is a front page and the docs behind it are reachable: README.md stays within one screen
(at most 80 lines), and every relative link of README.md and docs/*.md names a file or directory of
the checkout, and an #anchor into a Markdown page names one of its headings (GitHub's slugs)."""

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


def relative_links_of(text: str) -> list[str]:
    return relative_links(text) + ["#" + a for a in re.findall(r"\]\(#([^)\s]+)\)", CODE.sub("", text))]


def heading_slugs(text: str) -> set[str]:
    """GitHub's anchors: a heading lowercased, punctuation but '-' dropped, spaces as '-'."""
    headings = re.findall(r"^#+\s+(.+?)\s*$", re.sub(r"```.*?```", "", text, flags=re.S), re.M)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}


def unresolved(page: Path) -> list[str]:
    missing = []
    for link in relative_links_of(page.read_text(encoding="utf-8")):
        path, _, anchor = link.partition("#")
        target = page.parent / path if path else page
        if not target.exists():
            missing.append(link)
        elif anchor and target.suffix == ".md" and anchor not in heading_slugs(target.read_text(encoding="utf-8")):
            missing.append(link)
    return missing


def test_readme_fits_one_screen():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= 80, f"README.md has {lines} lines; move the detail into docs/ and link it"


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_relative_links_resolve(page):
    missing = unresolved(page)
    assert not missing, f"{page.relative_to(ROOT)}: links to nothing: {missing}"


def test_the_front_page_links_every_docs_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = {Path(link.split("#", 1)[0]).name for link in relative_links(readme)}
    unlinked = [p.name for p in PAGES[1:] if p.name not in linked]
    assert not unlinked, f"docs pages the README does not link: {unlinked}"


def test_the_link_finder_sees_broken_links(tmp_path):
    assert relative_links("see [a](docs/none.md) and [b](https://x.org) `[c](not/a/link.md)` [d](#top)") \
        == ["docs/none.md"]
    (tmp_path / "b.md").write_text("# The `moves` tool's page\n", encoding="utf-8")
    page = tmp_path / "a.md"
    page.write_text("## Here\n[1](b.md) [2](b.md#the-moves-tools-page) [3](b.md#gone) [4](#here) [5](#nowhere)"
                    " [6](c.md)\n", encoding="utf-8")
    assert unresolved(page) == ["b.md#gone", "c.md", "#nowhere"]


# a page named in the code's comments and docstrings: docs/NAME.md, or a package README
NAMED_PAGE = re.compile(r"\b(docs/[A-Za-z0-9_.-]+\.md|lexicon_service/[a-z_/]+/README\.md)")
CODE_DIRS = ("lexicon_service", "build_tools", "bench", "tools", "tests", "deploy")


def pages_named_in_the_code() -> dict[str, list[str]]:
    """Every docs page a Python file or package README names, with the files that name it. The
    profiles and protos are left out: their text is embedded in each lexicon's manifest and in the
    generated descriptors, so a comment there changes build output."""
    named: dict[str, list[str]] = {}
    for top in CODE_DIRS:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in (".py", ".md") or "grpc_gen" in path.parts or path == Path(__file__):
                continue
            for page in NAMED_PAGE.findall(path.read_text(encoding="utf-8", errors="replace")):
                named.setdefault(page, []).append(str(path.relative_to(ROOT)))
    return named


def test_the_docs_pages_the_code_names_exist():
    missing = {page: files for page, files in pages_named_in_the_code().items() if not (ROOT / page).exists()}
    assert not missing, f"pages named in the code that do not exist (moved? name the new page): {missing}"
