"""A small Polish lexicon built from a word list, for the tests of loading and of the format."""

from pathlib import Path

from build_tools.cli import main as build_main


def build_word_list_lexicon(directory: Path, words: str, name: str = "small") -> Path:
    """``directory/NAME.lex`` built for pl-scrabble from ``words`` (one a line) in ``directory/w.txt``."""
    source = directory / "w.txt"
    source.write_text(words, encoding="utf-8")
    out = directory / f"{name}.lex"
    assert build_main(["--rules", "pl-scrabble", "--quiet", "--words", str(source), "-o", str(out)]) == 0
    return out
