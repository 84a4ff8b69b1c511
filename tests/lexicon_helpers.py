"""Small lexicons built from word lists for the tests: `WORDS` (the served lexicons of tests/conftest.py's
`lexicon_dir`), `write_lexicon` (lexicon-build in a child process), `polish_lexicon`, and
`build_word_list_lexicon` (in-process, for the tests of loading and of the format), `write_ab_lexicon`."""

import subprocess
import sys
from pathlib import Path

from build_tools.cli import main as build_main
from lexicon_service import rulesets


def build_word_list_lexicon(directory: Path, words: str, name: str = "small") -> Path:
    """``directory/NAME.lex`` built for pl-scrabble from ``words`` (one a line) in ``directory/w.txt``."""
    source = directory / "w.txt"
    source.write_text(words, encoding="utf-8")
    out = directory / f"{name}.lex"
    assert build_main(["--rules", "pl-scrabble", "--quiet", "--words", str(source), "-o", str(out)]) == 0
    return out


WORDS = {
    "pl-scrabble": ["kot", "koty", "kota", "kto", "tok", "pies", "psy", "żółw", "żółwie", "dar", "ud", "ja", "er",
                    "próbuje", "spróbujemy", "prymas", "spróbuje", "ok", "to", "ty", "kit", "kity"],
    "cs-kriskros": ["chata", "chaty", "kočka", "kočky", "ach", "cha", "pes", "psi"],
}


BUILD = str(Path(sys.executable).parent / "lexicon-build")


def write_lexicon(directory: Path, name: str, rule_set: str, words) -> Path:
    """Build a lexicon <name>.lex in `directory` from `words` with lexicon-build (which writes a
    temporary directory and renames it into place, replacing an older build)."""
    target = directory / f"{name}.lex"
    src = directory.parent / f"{name}.words.txt"
    src.write_text("\n".join(words) + "\n", encoding="utf-8")
    subprocess.run([BUILD, "--rules", rule_set, "--words", str(src), "-o", str(target), "--name", name, "--quiet"],
                   check=True, capture_output=True)
    return target


def polish_lexicon(tmp_path: Path) -> Path:
    """`tmp_path/lex/pl-scrabble.lex`, built from WORDS, alone in its directory; its path."""
    directory = tmp_path / "lex"
    directory.mkdir()
    return write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS["pl-scrabble"])


def write_ab_lexicon(directory: Path, words) -> Path:
    """`pl-tiny.lex` in `directory` from `words`: Polish Scrabble with 14 tiles, seven A and seven B (its rule
    set `pl-tiny.rules` written beside `directory`), so that a game is short and both racks may be full with
    the bag empty from the start."""
    polish = (Path(rulesets.__file__).parent / "pl-scrabble.rules").read_text(encoding="utf-8")
    tiles = polish.index("[tiles]\n")
    tiny = directory.parent / "pl-tiny.rules"
    tiny.write_text(polish[:tiles].replace("id = pl-scrabble", "id = pl-tiny") + "[tiles]\nA 1 7\nB 3 7\n\n"
                    + polish[polish.index("[blank]"):], encoding="utf-8")
    return write_lexicon(directory, "pl-tiny", str(tiny), words)
