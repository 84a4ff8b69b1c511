"""Fuzz every command line and file reader: `lexicon-build` (every source option, rules, profiles, -o) for
Polish and Czech, and every `lexicon-service` subcommand (check, explain, dump, diff, validate, replay, moves,
serve, client), with hostile files and arguments.

    python bench/fuzz_cli.py [--cases 600] [--seed 1] [--timeout 60] [--memory-mb 3000] [--show 20]

Each case is one command run on one hostile input: a valid file of the right format mutated (random bytes,
truncated, not UTF-8, a byte-order mark, CRLF, NUL bytes, a huge line, empty, lines of the format with bad
counts, flags, conditions, coordinates, tiles, scores, manifests with wrong hashes), or a path that is not a
readable file (a directory, missing, a symlink loop, a dangling symlink, /proc/self/mem, which even root
cannot read). A case runs in a forked child of this process (modules imported once), in its own process
group, with standard input from a file, a CPU-time and address-space limit, and a wall-clock timeout.

What counts as a failure, per case:
- traceback: "Traceback" on stderr, or the command died of a signal (a crash, MemoryError, RecursionError);
- timeout: not finished in --timeout seconds (`serve` cases are stopped with SIGTERM once they listen,
  and must then exit cleanly);
- wrong exit: an exit status the command does not document (build 0/2, check 0/1/2, ...), or status 2 whose
  stderr is not one line `PROG: error: ...` (argparse's usage errors excepted), or that does not name the
  hostile file (its name, or the option holding it);
- deleted: a file the case did not create is gone or changed (every input, and what -o pointed at unless
  that was a lexicon and the build succeeded);
- partial output: a failed build left something at -o that was not there before, or a NAME.tmp-PID beside it.

Exit status 1 when any count other than cases is non-zero. Every case is reproducible from --seed and its
number (--only N runs one case and prints its command line, stdout and stderr).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import random
import resource
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from build_tools.cli import main as build_main  # noqa: E402
from lexicon_service.cli import build_parser as service_parser  # noqa: E402
from lexicon_service.cli import main as service_main  # noqa: E402
from lexicon_service.lexicon_format import file_entry  # noqa: E402

service_parser()   # imports every subcommand's module here, not in each forked case

PL_AFF = ROOT / "data/pl/pl_PL.aff"
PL_DIC = ROOT / "data/pl/pl_PL.dic"
CS_AFF = ROOT / "build_tools/czech/hunspell/cs_CZ.aff"
CS_DIC = ROOT / "build_tools/czech/hunspell/cs_CZ.dic"
RULESETS = ROOT / "lexicon_service/rulesets"
PROFILES = ROOT / "build_tools/profiles"
GCG_DIR = ROOT / "tests/data/gcg"

PL_WORDS = "kot\npies\nżółw\nKOT\nzrobiłbym\ndom\ndomy\nabc\n"
CS_WORDS = "kočka\npes\nchata\nCHATA\ndělat\nřeka\n"
PL_HEADWORDS = "kot\npies\tsubst\nrobić\nżółw\nstreamować\n"
CS_HEADWORDS = "kočka\npes\ndělat\nhrad\tN\n"
PL_TAGGED = "kota\tkot\tsubst:sg:gen:m2\nkoty\tkot\tN;NOM;PL\nżółwia\tżółw\tsubst:sg:gen:m2\n"
CS_TAGGED = "kočky\tkočka\tN;GEN;SG\npsa\tpes\tN;GEN;SG\n"
BOARD = "\n".join(["." * 15] * 7 + ["...KOT........."[:15]] + ["." * 15] * 7) + "\n"

# Lines of each format, some valid, most hostile: spliced into valid files.
AFF_LINES = [
    "SET UTF-8", "SET ISO8859-2", "SET KLINGON-1", "SET", "SET utf-8 extra", "FLAG long", "FLAG num", "FLAG UTF-8",
    "FLAG", "FLAG bogus", "NEEDAFFIX", "NEEDAFFIX X", "FORBIDDENWORD !", "SFX", "SFX A", "SFX A Y", "SFX A Y 1",
    "SFX A Y 999999999", "SFX A Y -5", "SFX A Y x", "SFX A 0 y .", "SFX A 0 y", "SFX A a b [", "SFX A a b [^]",
    "SFX A 0 x (a*)*$", "SFX A 0 x (a|aa)*b", "SFX A 0 x (?P<x>a)(?P=x)", "SFX A 0 x \\", "SFX A 0 x [a-", "SFX A 0 x {",
    "SFX A 0 x a{1000000}", "SFX A 0 x ((((((((((a*)*)*)*)*)*)*)*)*)*)", "SFX A 0 x ^", "SFX A 0 x $", "SFX A 0 x *",
    "PFX B Y 2", "PFX B 0 nie .", "PFX B 0 nie/AB .", "PFX B 0 x/B .", "SFX C Y 1", "SFX C 0 a/C .", "SFX C 0 b/CD .",
    "SFX D N 1", "SFX D 0 ś/C .", "PFX\tB\tY\t1", "SFX A 0 " + "x" * 5000 + " .", "SFX " + "Q" * 300 + " Y 1",
    "SFX 12345 Y 1", "SFX 1,2 0 a .", "SFX Ą Y 1", "SFX Ą 0 ą [ąę]", "COMPOUNDFLAG Z", "REP 3", "REP a",
    "KEY qwertyuiop|asdfghjkl", "TRY aąbcćdeęfghijklłmnńoóprsśtuwyzźż", "ICONV 1", "IGNORE \u0301", "AF 2", "AF AB",
]
DIC_LINES = ["kot/A", "kot", "kot/", "/A", "/", "\\/", "kot/AB/CD", "kot/\u0000", "kot\tpo:noun", "kot st:kot",
             "x" * 3000 + "/A", "kot/" + "A" * 3000, "99999999", "-1", "kot/12,34", "kot/ABCD", "kot/ĄĘ", "  ",
             "#comment", "Kot/A", "KOT", "kot/C", "kot/D", "kot/B", "pies/AB", "ąęść/ĄB", "a/" + "AB" * 500]
WORD_LINES = ["kot", "KOT", "Kot", "kot pies", "kot\tpies", "\x01kot", "k\u0301ot", "ſ", "\ufeffkot", "\u200b",
              "x" * 100000, "ą" * 40, "#", "# comment", "k-o-t", "ko't", "[CH]ATA", "chata", "🐈", "\u2028", ""]
TAGGED_LINES = ["kot\tkot\tN;NOM;SG", "kot\tkot", "kot\tkot\t", "\tkot\tN", "kot\tkot\tsubst:sg", "kot\tkot\t:::",
                "kot\tkot\tN;;;", "kot\tkot\tXYZ;ABC", "kot\tkot\tsubst:sg:nom:m1.m2.m3.f.n:pos:aff:perf:imperf",
                "kot\tkot\t" + ";".join(["N"] * 5000), "kot\tkot\t" + ":".join(["sg"] * 5000),
                "a\tb\tc\td", "kot\tkot\tsubst:pl:nom.acc.voc:m2", "kot\tkot\tV;IND;PRS;3;SG", "kot\tkot\tppron12:x"]
HEADWORD_LINES = ["kot", "kot\tsubst", "kot\t", "\tsubst", "kot\tsubst\tx", "robić\tverb", "kot\tN", "kot\tZZZ",
                  "x" * 50000, "ą" * 60, "aaa", "streamować", "kot pies", "\x7fkot", "🐈\tN"]
PROFILE_LINES = ["language = pl", "language = xx", "allow", "deny", "allow N", "deny PROPN", "allow * ", "deny ;;;",
                 "allow rule", "allow rule N;;", "min-length = 0", "min-length = -5", "max-length = 999999999999",
                 "min-length = x", "[section]", "max-length = 1", "allow " + "N;" * 5000, "letters = ",
                 "= =", "name = x", "include ../../../etc/passwd", "allow FUSED FUSED FUSED"]
RULES_LINES = ["[game]", "[tiles]", "[layout]", "[nonsense]", "id = x", "id =", "language = xx", "language = cs",
               "profile = nonexistent", "profile = ../../etc/passwd", "players = 9-1", "players = a-b",
               "? 0 99999999999", "A -1 1", "A 1 -1", "A x y", "ĄĄ 1 1", "[CH] 1 1", "A 1 1 1", "rack = 0",
               "rack = 999999999", "rack-size = -1", "size = 9999", "board-size = 0", "= x", "x", "TW . . . DW",
               "bingo = 1e309", "min-word-length = -3", "centre = Z99", "A " * 5000]
GCG_LINES = ["#player1 Ala Ala", "#player2 Bob Bob", "#player1", "#player3 C C", "#rules pl-scrabble",
             "#rules cs-kriskros", "#rules nonsense", "#rules ../../etc/passwd", "#character-encoding UTF-8",
             "#character-encoding ISO-8859-2", "#character-encoding KLINGON", "#character-encoding",
             ">Ala: ABCDEFG 8D KOT +10 10", ">Ala: ABCDEFG 99Z KOT +10 10", ">Ala: ABCDEFG 0A KOT +10 10",
             ">Ala: ABCDEFG Z0 KOT +10 10", ">Ala: ABCDEFG 8P KOT +10 10", ">Ala: ABCDEFG 8O KOTY +10 10",
             ">Ala: ABCDEFG 8D K[OT +10 10", ">Ala: ABCDEFG 8D K(O +10 10", ">Ala: ABCDEFG 8D ))) +10 10",
             ">Ala: ABCDEFG 8D [] +10 10", ">Ala: ABCDEFG 8D [XYZ] +10 10", ">Ala: ABCDEFG 8D ĆĆĆĆĆĆĆĆĆĆĆĆ +10 10",
             ">Ala: ABCDEFG 8D KOT +999999 999999", ">Ala: ABCDEFG 8D KOT +1e9 1", ">Ala: ABCDEFG 8D KOT 10 10",
             ">Ala: ABCDEFG 8D KOT +10", ">Ala: ABCDEFG 8D KOT", ">Ala:", ">:", ">Nobody: ABC 8D KOT +1 1",
             ">Ala: ABC -ABC +0 10", ">Ala: ABC -99 +0 10", ">Ala: ABC -999999999 +0 0", ">Ala: - +0 5",
             ">Ala: ABC -- -10 0", ">Ala: (challenge) +5 10", ">Ala: (time) -10 -10", ">Ala: (ABC) +7 17",
             ">Ala: ??????????????????????? 8D KOT +1 1", ">Ala: " + "A" * 5000 + " 8D KOT +1 1",
             ">Ala: ABCDEFG 8D " + "A" * 5000 + " +1 1", "#note " + "x" * 10000, ">Ala: ABC H8 PSY +9 9",
             "#rack1 ABC", "#rack1 " + "Z" * 300, "#lexicon pl-scrabble", "free text", "#tile-distribution x"]
BOARD_LINES = ["." * 15, "." * 14, "." * 16, "KOT", "...KOT.........", "ąęść...........", "???????????????",
               "[CH]...........", "...............#comment", "X" * 1000, "\t" * 15, "1234567890ABCDE"]

SPECIAL_PATHS = ["directory", "missing", "symlink-loop", "dangling-symlink", "proc-mem", "dev-null", "dev-zero"]


# --- mutation of file contents ---------------------------------------------------------------------------------
def mutate(rnd: random.Random, data: bytes, lines: list[str], encoding: str = "utf-8") -> tuple[str, bytes]:
    """(what was done, new bytes) from a valid file and the format's pool of lines."""
    if rnd.random() < 0.5:      # lines of the format: where the readers' own checks are
        kind = "format-lines" if rnd.random() < 0.8 else "only-format-lines"
    else:
        kind = rnd.choice(["random-bytes", "truncate", "non-utf8", "bom", "crlf", "nul", "huge-line", "empty",
                           "bit-flips", "cr-only", "duplicate", "bom-only", "no-final-newline", "utf16"])
    if kind == "random-bytes":
        return kind, bytes(rnd.randrange(256) for _ in range(rnd.choice([1, 16, 300, 4096])))
    if kind == "truncate":
        return kind, data[:rnd.randrange(len(data) + 1)]
    if kind == "non-utf8":
        pos = rnd.randrange(len(data) + 1)
        return kind, data[:pos] + rnd.choice([b"\xff", b"\xc5", b"\xed\xa0\x80", b"\xe9\xe8", b"\x80\x80"]) + data[pos:]
    if kind == "bom":
        return kind, b"\xef\xbb\xbf" + data
    if kind == "bom-only":
        return kind, b"\xef\xbb\xbf"
    if kind == "crlf":
        return kind, data.replace(b"\n", b"\r\n")
    if kind == "cr-only":
        return kind, data.replace(b"\n", b"\r")
    if kind == "nul":
        pos = rnd.randrange(len(data) + 1)
        return kind, data[:pos] + b"\0" * rnd.choice([1, 3, 100]) + data[pos:]
    if kind == "huge-line":
        pos = data.rfind(b"\n", 0, rnd.randrange(len(data) + 1)) + 1
        return kind, data[:pos] + rnd.choice([b"a", b"\xc4\x85", b"A/", b"#", b" ", b"\t"]) * rnd.choice(
            [100_000, 2_000_000]) + b"\n" + data[pos:]
    if kind == "empty":
        return kind, b""
    if kind == "bit-flips":
        b = bytearray(data)
        for _ in range(rnd.choice([1, 5, 50])):
            if b:
                i = rnd.randrange(len(b))
                b[i] ^= 1 << rnd.randrange(8)
        return kind, bytes(b)
    if kind == "duplicate":
        return kind, data * rnd.choice([2, 50])
    if kind == "no-final-newline":
        return kind, data.rstrip(b"\n")
    if kind == "utf16":
        return kind, data.decode(encoding, "replace").encode("utf-16")
    text_lines = data.decode(encoding, "replace").split("\n")
    picked = [rnd.choice(lines) for _ in range(rnd.choice([1, 2, 5, 20]))]
    if kind == "only-format-lines":
        return kind, ("\n".join(picked) + "\n").encode(encoding, "replace")
    for line in picked:
        text_lines.insert(rnd.randrange(len(text_lines) + 1), line)
    return kind, "\n".join(text_lines).encode(encoding, "replace")


# --- the cases -------------------------------------------------------------------------------------------------
@dataclass
class Case:
    number: int
    target: str
    what: str                     # how the input was made
    argv: list[str]
    prog: str                     # lexicon-build, lexicon-service
    statuses: tuple[int, ...]     # documented exit statuses
    hostile: list[str] = field(default_factory=list)   # names one of which an error must mention
    stdin: bytes = b""
    output: str | None = None     # -o of a build
    serve: bool = False


class World:
    """The valid inputs every case starts from, and the place cases write to."""

    def __init__(self, base: Path, rnd: random.Random) -> None:
        self.base = base
        self.rnd = rnd
        good = base / "good"
        good.mkdir()
        self.good = good
        (good / "pl-words.txt").write_text(PL_WORDS, encoding="utf-8")
        (good / "cs-words.txt").write_text(CS_WORDS, encoding="utf-8")
        self.lexicons = base / "lexicons"
        self.lexicons.mkdir()
        for rules, words in (("pl-scrabble", "pl-words.txt"), ("cs-scrabble", "cs-words.txt"),
                             ("cs-kriskros", "cs-words.txt")):
            with contextlib.redirect_stdout(io.StringIO()):
                rc = build_main(["--rules", rules, "--words", str(good / words), "--quiet", "--workers", "1",
                                 "-o", str(self.lexicons / f"{rules}.lex")])
            assert rc == 0, rules
        # small Hunspell pairs: the real .aff, the first lines of the real .dic
        for lang, dic, aff, enc in (("pl", PL_DIC, PL_AFF, "iso-8859-2"), ("cs", CS_DIC, CS_AFF, "utf-8")):
            with open(dic, "rb") as fh:
                head = [fh.readline() for _ in range(400)]
            body = b"".join(head[1:])
            (good / f"{lang}.dic").write_bytes(str(len(head) - 1).encode() + b"\n" + body)
            shutil.copy(aff, good / f"{lang}.aff")
        self.gcgs = sorted(GCG_DIR.glob("*.gcg")) + sorted((GCG_DIR / "real").glob("*.gcg"))
        self.counter = 0
        self.made: list[Path] = []     # the directories of the current case

    def fresh(self, name: str) -> Path:
        self.counter += 1
        d = self.base / "cases" / f"{self.counter:06d}"
        d.mkdir(parents=True)
        self.made.append(d)
        return d / name

    def lexicon(self, lang: str = "pl") -> Path:
        return self.lexicons / ("pl-scrabble.lex" if lang == "pl" else "cs-scrabble.lex")

    # a hostile file of one format, or a special path, at a fresh place
    def hostile(self, name: str, valid: bytes, lines: list[str], encoding: str = "utf-8",
                special_share: float = 0.15, companion: tuple[str, bytes] | None = None) -> tuple[Path, str]:
        path = self.fresh(name)
        if companion is not None:
            path.with_name(companion[0]).write_bytes(companion[1])
        if self.rnd.random() < special_share:
            kind = self.rnd.choice(SPECIAL_PATHS)
            make_special(path, kind)
            return path, kind
        kind, data = mutate(self.rnd, valid, lines, encoding)
        path.write_bytes(data)
        return path, kind


def make_special(path: Path, kind: str) -> None:
    if kind == "directory":
        path.mkdir()
        (path / "inside.txt").write_text("kot\n", encoding="utf-8")
    elif kind == "symlink-loop":
        os.symlink(path.name, path)
    elif kind == "dangling-symlink":
        os.symlink(path.name + ".nowhere", path)
    elif kind == "proc-mem":   # a regular file that cannot be read (EIO), even by root
        os.symlink("/proc/self/mem", path)
    elif kind == "dev-null":
        os.symlink("/dev/null", path)
    elif kind == "dev-zero":   # endless: a reader must stop at a bound
        os.symlink("/dev/zero", path)
    # "missing": nothing


def corrupt_lexicon(world: World, rnd: random.Random, lang: str) -> tuple[Path, str]:
    """A copy of a good lexicon with its manifest or one of its files damaged."""
    src = world.lexicon(lang)
    dst = world.fresh(src.name)
    shutil.copytree(src, dst)
    manifest_path = dst / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    files = sorted(manifest.get("files", {}))
    kind = rnd.choice(["wrong-hash", "wrong-bytes", "missing-file", "file-garbage", "file-truncated",
                       "manifest-garbage", "manifest-truncated", "manifest-field", "manifest-version",
                       "manifest-not-object", "file-is-dir", "file-symlink-loop", "consistent-garbage",
                       "manifest-huge-number", "manifest-rules", "extra-file", "manifest-missing"])
    name = rnd.choice(files) if files else "forms.marisa"
    if kind == "wrong-hash":
        manifest["files"][name]["sha256"] = "0" * 64
    elif kind == "wrong-bytes":
        manifest["files"][name]["bytes"] = rnd.choice([0, -1, 10 ** 30, "x", None])
    elif kind == "missing-file":
        (dst / name).unlink()
    elif kind in ("file-garbage", "consistent-garbage"):
        data = bytes(rnd.randrange(256) for _ in range(rnd.choice([0, 8, 300, 5000])))
        (dst / name).write_bytes(data)
        if kind == "consistent-garbage":
            manifest["files"][name] = file_entry(data)
    elif kind == "file-truncated":
        data = (dst / name).read_bytes()
        data = data[:rnd.randrange(len(data) + 1)]
        (dst / name).write_bytes(data)
        manifest["files"][name] = file_entry(data)
    elif kind == "file-is-dir":
        (dst / name).unlink()
        (dst / name).mkdir()
    elif kind == "file-symlink-loop":
        (dst / name).unlink()
        os.symlink(name, dst / name)
    elif kind == "manifest-field":
        key = rnd.choice(sorted(manifest))
        manifest[key] = rnd.choice([None, 0, "x", [], {}, -1, 10 ** 40, "\u0000", {"a": 1}])
    elif kind == "manifest-version":
        manifest["format_version"] = rnd.choice([0, 999, "1", None, -1, 1.5])
    elif kind == "manifest-huge-number":
        manifest.setdefault("counts", {})["forms"] = 10 ** 100
    elif kind == "manifest-rules":
        manifest["rule_set"] = rnd.choice([{"id": "nonsense"}, {"source_text": "[game]\nid = x\n"}, None,
                                           {"id": "pl-scrabble", "source_text": "garbage"}, "pl-scrabble"])
    elif kind == "extra-file":
        (dst / "extra.bin").write_bytes(b"x")
    if kind == "manifest-garbage":
        manifest_path.write_bytes(bytes(rnd.randrange(256) for _ in range(200)))
    elif kind == "manifest-truncated":
        text = manifest_path.read_bytes()
        manifest_path.write_bytes(text[:rnd.randrange(len(text))])
    elif kind == "manifest-not-object":
        manifest_path.write_text(rnd.choice(["[]", "1", "null", '"x"', "{" * 100000]), encoding="utf-8")
    elif kind == "manifest-missing":
        manifest_path.unlink()
    elif kind not in ("missing-file", "file-is-dir", "file-symlink-loop", "extra-file") or True:
        if manifest_path.exists() and kind not in ("manifest-garbage", "manifest-truncated",
                                                   "manifest-not-object", "manifest-missing"):
            manifest_path.write_text(json.dumps(manifest), encoding="utf-8")
    return dst, f"lexicon:{kind}:{name}"


def lexicon_arg(world: World, rnd: random.Random, lang: str = "pl") -> tuple[Path, str]:
    if rnd.random() < 0.2:
        path = world.fresh("x.lex")
        kind = rnd.choice(SPECIAL_PATHS + ["file"])
        if kind == "file":
            path.write_bytes(b"not a lexicon")
        else:
            make_special(path, kind)
        return path, f"lexicon-path:{kind}"
    return corrupt_lexicon(world, rnd, lang)


BUILD_STATUSES = (0, 2)


def build_case(world: World, rnd: random.Random, n: int) -> Case:
    lang = rnd.choice(["pl", "cs"])
    rules = {"pl": "pl-scrabble", "cs": rnd.choice(["cs-scrabble", "cs-kriskros"])}[lang]
    g = world.good
    words = g / f"{lang}-words.txt"
    option = rnd.choice(["--words", "--headwords", "--tagged", "--hunspell", "--hunspell-aff", "--paradigms",
                         "--rules", "--profile", "-o", "--rejected", "--words", "--tagged", "--models"])
    if option == "--models" and lang == "cs":
        lang, rules, words = "pl", "pl-scrabble", g / "pl-words.txt"
    enc = "iso-8859-2" if lang == "pl" else "utf-8"
    out = world.fresh("out.lex")
    args = ["--rules", rules, "--quiet", "--workers", "1"]
    hostile: list[str] = []
    what = option
    sources: list[str] = []
    if option in ("--words", "--headwords", "--tagged"):
        valid = {"--words": PL_WORDS if lang == "pl" else CS_WORDS,
                 "--headwords": PL_HEADWORDS if lang == "pl" else CS_HEADWORDS,
                 "--tagged": PL_TAGGED if lang == "pl" else CS_TAGGED}[option].encode()
        pool = {"--words": WORD_LINES, "--headwords": HEADWORD_LINES, "--tagged": TAGGED_LINES}[option]
        path, kind = world.hostile("src.txt", valid, pool)
        sources = [option, str(path)]
        hostile = [path.name, option]
        what = f"{option} {kind}"
    elif option == "--models":      # Polish analogy models: a headword list, never a source of forms
        path, kind = world.hostile("models.txt", PL_HEADWORDS.encode(), HEADWORD_LINES)
        sources = ["--headwords", str(words), "--models", str(path)]
        hostile = [path.name, option]
        what = f"--models {kind}"
    elif option in ("--hunspell", "--hunspell-aff", "--paradigms"):
        dic_valid = (g / f"{lang}.dic").read_bytes()
        aff_valid = (g / f"{lang}.aff").read_bytes()
        if option == "--hunspell-aff":
            if rnd.random() < 0.5:   # stems for the conditions of AFF_LINES (a run of a's: backtracking)
                dic_valid += "".join(f"{'a' * 30}/{f}\n" for f in "ABCDQ").encode()
            path, kind = world.hostile("src.aff", aff_valid, AFF_LINES, enc, special_share=0.1,
                                       companion=("src.dic", dic_valid))
            dic = path.with_name("src.dic")
            what = f"--hunspell .aff {kind}"
        else:
            path, kind = world.hostile("src.dic", dic_valid, DIC_LINES, enc, special_share=0.1,
                                       companion=("src.aff", aff_valid))
            dic = path
            what = f"{option} .dic {kind}"
        opt = "--paradigms" if option == "--paradigms" else "--hunspell"
        sources = [opt, str(dic)]
        if opt == "--paradigms":
            sources += ["--headwords", str(world.good / f"{lang}-headwords.txt")]
        hostile = [path.name, path.with_suffix(".dic").name, path.with_suffix(".aff").name, opt]
    elif option == "--rules":
        valid = (RULESETS / f"{rules}.rules").read_bytes()
        path, kind = world.hostile("game.rules", valid, RULES_LINES)
        args[1] = str(path)
        sources = ["--words", str(words)]
        hostile = [path.name, "rule set", "--rules"]
        what = f"--rules {kind}"
    elif option == "--profile":
        prof = "pl" if lang == "pl" else rules.replace("cs-scrabble", "cs-plus")
        valid = (PROFILES / f"{prof}.profile").read_bytes()
        if not (PROFILES / f"{prof}.profile").exists():
            valid = (PROFILES / "cs-plus.profile").read_bytes()
        path, kind = world.hostile("my.profile", valid, PROFILE_LINES)
        args += ["--profile", str(path)]
        sources = ["--words", str(words)]
        hostile = [path.name, "profile"]
        what = f"--profile {kind}"
    elif option == "-o":
        kind = rnd.choice(["existing-file", "existing-dir", "dir-with-manifest", "unwritable", "same-as-input",
                           "symlink-loop", "dangling-symlink", "under-a-file", "proc", "dev-null", "root",
                           "dot", "existing-lexicon", "empty-name", "lexicon-symlink", "bad-name", "--name"])
        sources = ["--words", str(words)]
        out = world.fresh("target.lex")
        if kind == "existing-file":
            out.write_bytes(b"precious")
        elif kind == "existing-dir":
            out.mkdir()
            (out / "photo.jpg").write_bytes(b"\xff\xd8")
        elif kind == "dir-with-manifest":
            out.mkdir()
            (out / "manifest.json").write_text('{"format": "other"}', encoding="utf-8")
        elif kind == "unwritable":
            out = Path("/proc/sys/fuzz.lex")
        elif kind == "same-as-input":
            copy = world.fresh("words.txt")
            shutil.copy(words, copy)
            sources = ["--words", str(copy)]
            out = copy
        elif kind == "symlink-loop":
            os.symlink(out.name, out)
        elif kind == "dangling-symlink":
            os.symlink("/nonexistent/dir/x.lex", out)
        elif kind == "under-a-file":
            out.write_bytes(b"file")
            out = out / "x.lex"
        elif kind == "proc":
            out = Path("/proc/self/x.lex")
        elif kind == "dev-null":
            out = Path("/dev/null")
        elif kind == "root":
            out = Path("/")
        elif kind == "dot":
            out = Path(".")
        elif kind == "existing-lexicon":
            shutil.copytree(world.lexicon(lang), out)
        elif kind == "empty-name":
            out = Path("")
        elif kind == "lexicon-symlink":
            os.symlink(world.lexicon(lang), out)
        elif kind == "bad-name":
            out = out.with_name(rnd.choice(["my lexicon.lex", ".lex", "-x.lex", "ż.lex", "a" * 70 + ".lex"]))
        elif kind == "--name":
            args += ["--name", rnd.choice(["", "../x", "a\nb", "a" * 65, "ok", "x/y", "-"])]
        hostile = [str(out), "output", "-o", "--name", out.name or "''"]
        what = f"-o {kind}"
    elif option == "--rejected":
        path, kind = world.hostile("rejected.tsv", b"old log\n", ["x"], special_share=0.6)
        sources = ["--words", str(words), "--rejected", str(path)]
        where = rnd.choice(["file", "file", "aff", "profile", "in-output"])
        if where == "aff":           # the .aff beside a --hunspell .dic: an input too
            dic = world.fresh("in.dic")
            shutil.copy(g / f"{lang}.dic", dic)
            shutil.copy(g / f"{lang}.aff", dic.with_suffix(".aff"))
            path, kind = dic.with_suffix(".aff"), "the .aff of a --hunspell source"
            sources = ["--hunspell", str(dic), "--rejected", str(path)]
        elif where == "profile":
            path = world.fresh("my.profile")
            shutil.copy(PROFILES / ("pl.profile" if lang == "pl" else "cs-plus.profile"), path)
            kind = "the --profile file"
            args += ["--profile", str(path)]
            sources = ["--words", str(words), "--rejected", str(path)]
        elif where == "in-output":
            shutil.copytree(world.lexicon(lang), out)
            path, kind = out / rnd.choice(["manifest.json", "forms.marisa", "new.tsv"]), "a file in the output lexicon"
            sources = ["--words", str(words), "--rejected", str(path)]
        hostile = [path.name, "--rejected"]
        what = f"--rejected {kind}"
    argv = args + sources + ["-o", str(out)]
    return Case(n, f"lexicon-build {lang} {option}", what, argv, "lexicon-build", BUILD_STATUSES, hostile,
                output=str(out))


def service_case(world: World, rnd: random.Random, n: int) -> Case:
    target = rnd.choice(["check-stdin", "check-lexicon", "explain", "dump", "diff", "validate-board",
                         "validate-rules", "validate-args", "replay", "replay-stdin", "replay-rules", "client",
                         "serve", "check-stdin", "replay", "replay", "client-game", "moves-board", "moves-args",
                         "analyse"])
    lang = rnd.choice(["pl", "cs"])
    lex = world.lexicon(lang)
    rules = "pl-scrabble" if lang == "pl" else "cs-scrabble"
    P = "lexicon-service"
    if target == "check-stdin":
        kind, data = mutate(rnd, (PL_WORDS if lang == "pl" else CS_WORDS).encode(), WORD_LINES)
        return Case(n, target, f"stdin {kind}", ["check", "-l", str(lex)], f"{P} check", (0, 1, 2),
                    ["<stdin>"], stdin=data)
    if target == "check-lexicon" and rnd.random() < 0.3:     # a name looked up in --lexicons
        name = rnd.choice(["pl-scrabble", "../lexicons/pl-scrabble", "", ".", "/", "x\x01", "a" * 5000, "*.lex"])
        d, kind = world.hostile("lexdir", b"", [""], special_share=1.0)
        argv = ["check", "-l", name, "--lexicons", rnd.choice([str(d), str(world.lexicons)]), "kot"]
        return Case(n, target, f"name {name[:20]!r} in {kind}", argv, f"{P} check", (0, 1, 2),
                    [d.name, name[:20], "lexicon"])
    if target in ("check-lexicon", "explain", "dump"):
        path, kind = lexicon_arg(world, rnd, lang)
        json_flag = ["--json"] if rnd.random() < 0.4 else []
        cmd = {"check-lexicon": ["check", "-l", str(path), "kot", "kočka", *json_flag],
               "explain": ["explain", "-l", str(path), *json_flag,
                           rnd.choice(["kot", "kočka", "", "[CH]", "x" * 10000, "kotów", "mgra", "ostravská"])],
               "dump": ["dump", "-l", str(path)] + rnd.choice([[], ["--keys"], ["--prefix", "k"]])}[target]
        return Case(n, target, kind, cmd, f"{P} {cmd[0]}", (0, 1, 2), [path.name, str(path)])
    if target == "diff":
        path, kind = lexicon_arg(world, rnd, lang)
        pair = [str(path), str(lex)] if rnd.random() < 0.5 else [str(lex), str(path)]
        return Case(n, target, kind, ["diff", *pair], f"{P} diff", (0, 1, 2), [path.name, str(path)])
    if target == "validate-board":
        path, kind = world.hostile("board.txt", BOARD.encode(), BOARD_LINES)
        argv = ["validate", "--rules", rules, "--board", str(path), "9D PIES"]
        return Case(n, target, f"board {kind}", argv, f"{P} validate", (0, 1, 2), [path.name])
    if target == "validate-rules":
        valid = (RULESETS / f"{rules}.rules").read_bytes()
        path, kind = world.hostile("game.rules", valid, RULES_LINES)
        argv = ["validate", "--rules", str(path), "8H KOT"]
        return Case(n, target, f"rules {kind}", argv, f"{P} validate", (0, 1, 2), [path.name])
    if target == "validate-args":
        plays = [rnd.choice(["8H KOT", "8H", "KOT", "H8 kot", "99Z KOT", "8H " + "A" * 10000, "8H [", "8H ((K))",
                             "8H .", "", "0A A", "8H ĆĆĆĆĆĆĆĆĆĆĆĆĆĆĆĆ", "\x00", "8H K\u0301OT"])
                 for _ in range(rnd.choice([1, 3]))]
        argv = ["validate", "--rules", rules, *plays]
        if rnd.random() < 0.5:
            argv += ["--rack", rnd.choice(["ABC?", "", "?" * 100, "[CH", "ZZZZZZZZ", "\x00", "A" * 100000])]
        if rnd.random() < 0.3:
            argv += ["--setup", rnd.choice(["8H KOT", "99Z KOT", "8H", "x"])]
        if rnd.random() < 0.3:
            argv += rnd.choice([["--json"], ["--json", "--show-board"], ["--show-board"]])
        if rnd.random() < 0.3:
            argv += ["--lexicon", rnd.choice([str(lex), "nonexistent", str(world.lexicon("cs" if lang == "pl"
                                                                                        else "pl"))])]
        return Case(n, target, "arguments", argv, f"{P} validate", (0, 1, 2),
                    ["--", "play", "rack", "setup", "lexicon"])
    if target == "moves-board":
        path, kind = world.hostile("board.txt", BOARD.encode(), BOARD_LINES)
        argv = ["moves", "-l", str(lex), "--board", str(path), "--rack", "KOTABC?", "-n", "3"]
        return Case(n, target, f"board {kind}", argv, f"{P} moves", (0, 1, 2), [path.name])
    if target == "moves-args":
        argv = ["moves", "-l", rnd.choice([str(lex), str(lex), "nonexistent"]),
                "--rack", rnd.choice(["KOTABC?", "??KOT", "???", "", "[CH", "ZZZZZZZZ", "\x00", "A" * 100000])]
        if rnd.random() < 0.4:
            argv += ["--setup", *rnd.choice([["8H KOT"], ["8H", "KOT"], ["99Z KOT"], ["8H"], ["x"], ["8H KOT", "1A X"]])]
        if rnd.random() < 0.4:
            argv += rnd.choice([["-n", "0"], ["-n", "-1"], ["-n", "99999999999"], ["--all"], ["-n", "2", "--all"],
                                ["--min-length", "x"], ["--must-use", rnd.choice(["?", "Q", "\x00", "[CH"])],
                                ["--must-contain", rnd.choice(["KOT", "x" * 10000, "[", ""])], ["--json"],
                                ["--plays-only"], ["-r", rnd.choice(["pl-scrabble", "cs-kriskros", "nope"])],
                                ["--place", rnd.choice(["C1 T", "H8 K", "8H", "A1 [", "Z99 K", "H8 KOT"])]])
        return Case(n, target, "arguments", argv, f"{P} moves", (0, 1, 2),
                    ["--", "rack", "setup", "place", "lexicon", "rule", "must", "min-length", "-n", "move graph"])
    if target in ("replay", "replay-stdin", "replay-rules"):
        base = rnd.choice(world.gcgs)
        if target == "replay-rules":
            valid = (RULESETS / "pl-scrabble.rules").read_bytes()
            path, kind = world.hostile("game.rules", valid, RULES_LINES)
            argv = ["replay", str(GCG_DIR / "pl-blank-premium.gcg"), "--rules", str(path)]
            return Case(n, target, f"rules {kind}", argv, f"{P} replay", (0, 1, 2), [path.name])
        extra = []
        if rnd.random() < 0.5:
            extra = ["--rules", rnd.choice(["pl-scrabble", "cs-scrabble", "cs-kriskros",
                                            str(GCG_DIR / "real/en-scrabble.rules")])]
        if rnd.random() < 0.2:
            extra += ["--lexicon", str(lex)]
        if rnd.random() < 0.2:
            extra += ["--show-board", "--end-2x"]
        if rnd.random() < 0.3:
            extra += ["--json"]
        if target == "replay-stdin":
            kind, data = mutate(rnd, base.read_bytes(), GCG_LINES)
            return Case(n, target, f"stdin {base.name} {kind}", ["replay", "-", *extra], f"{P} replay",
                        (0, 1, 2), ["<stdin>", "line", "rule"], stdin=data)
        path, kind = world.hostile("game.gcg", base.read_bytes(), GCG_LINES)
        return Case(n, target, f"{base.name} {kind}", ["replay", str(path), *extra], f"{P} replay", (0, 1, 2),
                    [path.name, "rule", "lexicon"])
    if target == "analyse":
        base = rnd.choice(world.gcgs)
        path, kind = world.hostile("game.gcg", base.read_bytes(), GCG_LINES)
        argv = ["analyse", str(path), "-l", str(lex), *rnd.choice([[], ["-r", rules], ["-r", "cs-kriskros"]]),
                *rnd.choice([[], ["--json"]])]
        return Case(n, target, f"{base.name} {kind}", argv, f"{P} analyse", (0, 1, 2),
                    [path.name, "rule", "lexicon", "move graph"])
    if target in ("client", "client-game"):
        sub = "game" if target == "client-game" else rnd.choice(["replay", "validate-board", "tls-ca", "address",
                                                                  "timeout", "moves-board"])
        common = ["client", "--address", "127.0.0.1:1", "--timeout", "0.5"]
        if sub == "replay":
            path, kind = world.hostile("game.gcg", rnd.choice(world.gcgs).read_bytes(), GCG_LINES)
            argv = common + ["replay", str(path), "--rules", "pl-scrabble"]
        elif sub == "validate-board":
            path, kind = world.hostile("board.txt", BOARD.encode(), BOARD_LINES)
            argv = common + ["validate", "--rules", rules, "--board", str(path), "9D PIES"]
        elif sub == "moves-board":
            path, kind = world.hostile("board.txt", BOARD.encode(), BOARD_LINES)
            argv = common + ["moves", "-l", "pl-scrabble", "--board", str(path), "--rack", "KOTABC?"]
        elif sub == "tls-ca":
            path, kind = world.hostile("ca.pem", b"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
                                       ["x"])
            argv = ["client", "--address", "127.0.0.1:1", "--timeout", "0.5", "--tls-ca", str(path),
                    "check", "-l", "pl-scrabble", "kot"]
        elif sub == "address":
            path, kind = Path("address"), rnd.choice(["", ":", "[::1", "127.0.0.1:99999", "host:-1", "a" * 5000,
                                                      "unix:", "unix:/nonexistent/sock", "dns:///", "\x00"])
            argv = ["client", "--address", kind, "--timeout", "0.5", "lexicons"]
        elif sub == "game":  # hostile tokens and numbers for `client game` (no server: UNAVAILABLE is fine)
            number = rnd.choice(["-1", "99999999999999999999", "4294967296", "2147483648", "x", "1e3", "\u0661", "0"])
            token = rnd.choice(["tok", "ż", "a b", "x" * 5000, "\x7f", "Bearer x"])
            game_id = rnd.choice(["0123456789abcdef", "ż" * 20, "x" * 5000, "../../etc"])
            action = rnd.choice([["create", "-l", "pl-scrabble", "A", "B", "--seed", number],
                                 ["create", "-l", "pl-scrabble", "A", "B", "--game-seconds", number],
                                 ["play", game_id, "8H", "KOT", "--expected-version", number],
                                 ["adjust", game_id, number, "5", "--reason", "x"],
                                 ["adjust", game_id, "0", number, "--reason", "x"],
                                 ["show", game_id], ["watch", game_id], ["record", game_id]])
            path, kind = Path("game"), f"{action[0]} {number} token {token[:8]!r}"
            argv = common + ["game", "--game-token", token, *action]
            return Case(n, "client game", kind, argv, f"{P} client", (0, 1, 2),
                        ["argument", "token", "127.0.0.1:1", "server", number, "UNAVAILABLE"])
        else:
            path, kind = Path("timeout"), rnd.choice(["-1", "0", "nan", "inf", "1e308", "x", "-inf"])
            argv = ["client", "--address", "127.0.0.1:1", "--timeout", kind, "lexicons"]
        return Case(n, f"client {sub}", f"{kind}", argv, f"{P} client", (0, 1, 2),
                    [path.name, "address", "timeout", "127.0.0.1:1", "server", "uri", kind[:20]])
    # serve
    sub = rnd.choice(["lexicons", "address", "token-file", "db", "numbers", "tls"])
    port = 20000 + rnd.randrange(20000)
    argv = ["serve", "--processes", "1", "--address", f"127.0.0.1:{port}", "--grace", "0.5"]
    hostile = []
    if sub == "lexicons":
        d = world.fresh("lexdir")
        kind = rnd.choice(["file", "empty-dir", "corrupt", "missing", "symlink-loop"])
        if kind == "file":
            d.write_bytes(b"x")
        elif kind == "empty-dir":
            d.mkdir()
        elif kind == "corrupt":
            d.mkdir()
            bad, kind2 = corrupt_lexicon(world, rnd, lang)
            shutil.move(str(bad), d / "bad.lex")
            kind = f"corrupt {kind2}"
        elif kind == "symlink-loop":
            os.symlink(d.name, d)
        argv += ["--lexicons", str(d)]
        hostile = [d.name]
    else:
        argv += ["--lexicons", str(world.lexicons)]
    if sub == "address":
        kind = rnd.choice(["127.0.0.1", "127.0.0.1:99999", "127.0.0.1:-5", "127.0.0.1:abc", "[::1", ":", "",
                           "256.1.1.1:5000", "unix:/nonexistent/dir/sock", "a" * 3000 + ":1", "127.0.0.1:1"])
        argv[argv.index("--address") + 1] = kind
        hostile = ["address", kind[:20]]
    elif sub == "token-file":
        path, kind = world.hostile("tokens.txt", b"secret-token\n", ["tok en", "\x01", "#", "", "é"], special_share=0.3)
        argv += ["--token-file", str(path)]
        hostile = [path.name, "token"]
    elif sub == "db":
        path, kind = world.hostile("games.db", b"SQLite format 3\x00" + bytes(100), ["x"], special_share=0.3)
        argv += ["--db", str(path)]
        hostile = [path.name, "db"]
    elif sub == "tls":
        pem = b"-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n"
        path, kind = world.hostile("cert.pem", pem, ["-----BEGIN PRIVATE KEY-----", "x"], special_share=0.4)
        key, _ = world.hostile("key.pem", pem, ["-----BEGIN PRIVATE KEY-----"], special_share=0.2)
        argv += ["--tls-cert", str(path), "--tls-key", str(key)]
        if rnd.random() < 0.3:
            argv += ["--tls-client-ca", str(path)]
        hostile = [path.name, key.name, "TLS"]
    elif sub == "numbers":
        flag = rnd.choice(["--workers", "--fast-threads", "--max-words", "--max-results", "--max-message-bytes",
                           "--max-concurrent-rpcs", "--grace"])
        kind = rnd.choice(["0", "-1", "x", "99999999999999999999", "1e9", "nan"])
        argv += [flag, kind]
        kind = f"{flag} {kind}"
        hostile = [flag, flag.lstrip("-"), "argument"]
    return Case(n, f"serve {sub}", kind, argv, f"{P} serve", (0, 2), hostile, serve=True)


def make_case(world: World, rnd: random.Random, n: int) -> Case:
    return build_case(world, rnd, n) if rnd.random() < 0.5 else service_case(world, rnd, n)


# --- running a case --------------------------------------------------------------------------------------------
def snapshot(root: Path) -> dict[str, str]:
    """Every file and symlink under root (not the case's output) -> a digest of what it is."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in filenames + [d for d in dirnames if os.path.islink(os.path.join(dirpath, d))]:
            p = os.path.join(dirpath, name)
            if os.path.islink(p):
                out[p] = "->" + os.readlink(p)
            else:
                try:
                    with open(p, "rb") as fh:
                        out[p] = hashlib.sha256(fh.read()).hexdigest()
                except OSError as exc:
                    out[p] = f"unreadable {exc.errno}"
    return out


def run_case(case: Case, workdir: Path, timeout: float, memory_mb: int) -> dict:
    case_dir = Path(tempfile.mkdtemp(prefix=f"run{case.number}-", dir=workdir))
    stdin_path, out_path, err_path = case_dir / "stdin", case_dir / "stdout", case_dir / "stderr"
    stdin_path.write_bytes(case.stdin)
    main = build_main if case.prog == "lexicon-build" else service_main
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            os.setpgid(0, 0)
            for fd, path, mode in ((0, stdin_path, os.O_RDONLY), (1, out_path, os.O_WRONLY | os.O_CREAT),
                                   (2, err_path, os.O_WRONLY | os.O_CREAT)):
                f = os.open(path, mode, 0o644)
                os.dup2(f, fd)
                os.close(f)
            sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
            sys.stdout = io.TextIOWrapper(io.FileIO(1, "w", closefd=False), encoding="utf-8", line_buffering=True)
            sys.stderr = io.TextIOWrapper(io.FileIO(2, "w", closefd=False), encoding="utf-8", line_buffering=True)
            os.chdir(case_dir)
            limit = memory_mb << 20
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            resource.setrlimit(resource.RLIMIT_CPU, (int(timeout) + 5, int(timeout) + 10))
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.default_int_handler)
            try:
                code = main(case.argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                if isinstance(exc.code, str):
                    print(exc.code, file=sys.stderr)
            except BaseException:  # noqa: BLE001 - exactly what the campaign looks for
                traceback.print_exc()
                code = 70
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            except BaseException:  # noqa: BLE001
                pass
        finally:
            os._exit(code if isinstance(code, int) and 0 <= code < 256 else 71)
    timed_out = served = False
    status = None
    deadline = t0 + timeout
    serve_stop = t0 + min(timeout, 8.0)
    while True:
        wpid, status, usage = os.wait4(pid, os.WNOHANG)
        if wpid:
            break
        now = time.monotonic()
        if case.serve and now > serve_stop and not served:
            served = True
            os.kill(pid, signal.SIGTERM)
            deadline = now + 15
        elif now > deadline:
            timed_out = True
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            wpid, status, usage = os.wait4(pid, 0)
            break
        time.sleep(0.02)
    # kill what the case left in its process group (a build's workers, a serve's children)
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    seconds = time.monotonic() - t0
    err = err_path.read_bytes().decode("utf-8", "replace")
    out = out_path.read_bytes()[:20000].decode("utf-8", "replace")
    rc = os.waitstatus_to_exitcode(status)
    shutil.rmtree(case_dir, ignore_errors=True)
    return {"rc": rc, "stderr": err, "stdout": out, "seconds": seconds, "timed_out": timed_out,
            "served": served, "maxrss_mb": usage.ru_maxrss / 1024}


def failures_of(case: Case, result: dict) -> list[str]:
    """The failures of one case (empty: it behaved)."""
    problems = []
    err, rc = result["stderr"], result["rc"]
    if result["timed_out"]:
        problems.append("timeout")
    if "Traceback" in err or rc == 70 or rc < 0 and not result["served"]:
        problems.append("traceback")
    elif not result["timed_out"]:
        if result["served"]:
            if rc not in (0, -signal.SIGTERM, 128 + signal.SIGTERM):
                problems.append("wrong-exit")
        elif rc not in case.statuses:
            problems.append("wrong-exit")
        elif rc == 2 and "usage:" not in err:
            lines = [line for line in err.strip().splitlines() if line.strip()]
            if case.serve:   # serve logs before it fails: its last line is the error
                lines = [line for line in lines if ": error: " in line] or lines[-1:]
            if len(lines) != 1 or not lines[0].startswith(f"{case.prog}: error: "):
                problems.append("wrong-exit")
            elif case.hostile and not any(h and h in lines[0] for h in case.hostile):
                problems.append("unnamed")
    return problems


def check_effects(case: Case, before: dict, after: dict, out_before: str | None, out_after: str | None,
                  rc: int, leftovers: list[str]) -> list[str]:
    problems = []
    missing = [p for p, d in before.items() if p not in after or after[p] != d]
    if case.output:
        out = os.path.abspath(case.output) if case.output else None
        # a successful build may replace a lexicon at -o (and write the -o path itself)
        if rc == 0:
            missing = [p for p in missing if not (out and (p == out or p.startswith(out + os.sep)))]
    if any(not p.endswith("rejected.tsv") or rc != 0 for p in missing):
        problems.append("deleted")
    if case.output and rc != 0 and out_before != out_after:
        problems.append("partial-output")
    if leftovers:
        problems.append("partial-output")
    return problems


def describe_output(path: str | None) -> str | None:
    if not path:
        return None
    p = Path(path)
    try:
        if p.is_symlink():
            return "symlink " + os.readlink(p)
        if p.is_dir():
            return "dir " + ",".join(sorted(x.name for x in p.iterdir()))
        if p.is_file():
            return "file " + hashlib.sha256(p.read_bytes()).hexdigest()
    except OSError as exc:
        return f"error {exc.errno}"
    return "absent" if not p.exists() else "other"


def temporaries(path: str | None) -> list[str]:
    if not path:
        return []
    parent = Path(os.path.abspath(path)).parent
    try:
        return sorted(p.name for p in parent.iterdir() if ".tmp-" in p.name or ".old-" in p.name)
    except OSError:
        return []


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per case (default 60)")
    ap.add_argument("--memory-mb", type=int, default=3000, help="address-space limit per case (default 3000)")
    ap.add_argument("--only", type=int, default=None, help="run only case N (prints its output)")
    ap.add_argument("--show", type=int, default=20, help="failures to print in full (default 20)")
    ap.add_argument("--keep", action="store_true", help="keep the working directory")
    args = ap.parse_args(argv)

    os.environ.setdefault("GRPC_VERBOSITY", "NONE")
    base = Path(tempfile.mkdtemp(prefix="fuzz-cli-"))
    counts: Counter = Counter()
    by_target: Counter = Counter()
    failures = []
    worst = {"seconds": (0.0, None), "maxrss_mb": (0.0, None)}
    started = time.monotonic()
    cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        rnd = random.Random(args.seed)
        world = World(base, rnd)
        (world.good / "cs-headwords.txt").write_text(CS_HEADWORDS, encoding="utf-8")
        (world.good / "pl-headwords.txt").write_text(PL_HEADWORDS, encoding="utf-8")
        os.environ["LEXICON_DIR"] = str(world.lexicons)
        workdir = base / "run"
        workdir.mkdir()
        for n in range(args.cases):
            for d in world.made if not args.keep else ():     # the last case's files: checked already
                shutil.rmtree(d, ignore_errors=True)
            world.made = []
            case = make_case(world, rnd, n)
            if args.only is not None and n != args.only:
                continue
            protected = [*world.made, world.good, world.lexicons]
            before = {k: v for d in protected for k, v in snapshot(d).items()}
            out_before = describe_output(case.output)
            temps_before = temporaries(case.output)
            result = run_case(case, workdir, args.timeout, args.memory_mb)
            after = {k: v for d in protected for k, v in snapshot(d).items()}
            leftovers = [t for t in temporaries(case.output) if t not in temps_before]
            problems = failures_of(case, result) + check_effects(case, before, after, out_before,
                                                           describe_output(case.output), result["rc"], leftovers)
            counts["cases"] += 1
            by_target[case.target] += 1
            for p in problems:
                counts[p] += 1
            for key in worst:
                if result[key] > worst[key][0]:
                    worst[key] = (result[key], f"case {n} {case.target} {case.what}")
            if problems:
                failures.append((case, result, problems))
            if args.only is not None:
                print(json.dumps({"argv": case.argv, "what": case.what, "problems": problems,
                                  **{k: result[k] for k in ("rc", "seconds", "maxrss_mb")}}, ensure_ascii=False))
                print("--- stdout\n" + result["stdout"][:3000] + "--- stderr\n" + result["stderr"][-5000:])
            if (n + 1) % 50 == 0:
                print(f"  {n + 1} cases, {sum(v for k, v in counts.items() if k != 'cases')} failures, "
                      f"{time.monotonic() - started:.0f}s", file=sys.stderr, flush=True)
        cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
        else:
            print(f"working directory kept: {base}", file=sys.stderr)
    for case, result, problems in failures[:args.show]:
        tail = [line for line in result["stderr"].strip().splitlines() if line.strip()][-3:]
        print(f"case {case.number} [{', '.join(problems)}] {case.target}: {case.what}: rc {result['rc']} "
              f"{result['seconds']:.1f}s\n    argv: {' '.join(a[:80] for a in case.argv)}\n    "
              + "\n    ".join(line[:300] for line in tail))
    kinds = Counter(f"{c.target}: {', '.join(p)}" for c, _, p in failures)
    for k, v in kinds.most_common():
        print(f"  {v:5d}  {k}")
    cpu = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
    print("cases by target: " + ", ".join(f"{t} {v}" for t, v in sorted(by_target.items())))
    print(f"seed {args.seed}: cases {counts['cases']}, tracebacks {counts['traceback']}, timeouts {counts['timeout']}, "
          f"wrong exit codes {counts['wrong-exit']}, errors not naming the input {counts['unnamed']}, "
          f"deleted {counts['deleted']}, partial output {counts['partial-output']}")
    print(f"worst case: {worst['seconds'][0]:.1f}s ({worst['seconds'][1]}), peak RSS {worst['maxrss_mb'][0]:.0f} MB "
          f"({worst['maxrss_mb'][1]}); {time.monotonic() - started:.0f}s wall, {cpu:.0f}s CPU in the cases, "
          f"load average {os.getloadavg()[0]:.1f}")
    bad = sum(v for k, v in counts.items() if k != "cases")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
