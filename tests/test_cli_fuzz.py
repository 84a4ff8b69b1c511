"""The cases of the command-line fuzz campaign (bench/fuzz_cli.py) that found bugs, as fast regression tests:
each input gets a one-line error naming its file (and line), never a traceback, in bounded time and memory."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from build_tools.cli import main as build_main
from build_tools.hunspell import read_affix_table
from build_tools.hunspell import expand_word, read_aff
from lexicon_service.cli import main as service_main
from test_cli_hostile import SPAWN, assert_one_line_error, build_args, run_main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def words(tmp_path) -> Path:
    p = tmp_path / "words.txt"
    p.write_text("kot\npies\nżółw\n", encoding="utf-8")
    return p


def cs_args(out, *sources):
    return ["--rules", "cs-scrabble", "--quiet", "--workers", "1", "-o", out, *sources]


# --- a lexicon is loaded without reserving its size limit (4 GiB) up front ------------------------------

LOAD_UNDER_LIMIT = textwrap.dedent("""
    import resource, sys
    limit = 1 << 30    # 1 GiB of address space: less than the 4 GiB a read(limit + 1) reserves
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    from lexicon_service.cli import main
    sys.exit(main(["check", "-l", sys.argv[1], "kot", "kotx"]))
""")


def test_a_lexicon_loads_where_memory_is_not_overcommitted(tmp_path, words, capsys):
    lex = tmp_path / "small.lex"
    assert run_main(build_main, build_args(lex, "--words", words), capsys)[0] == 0
    result = subprocess.run([sys.executable, "-c", LOAD_UNDER_LIMIT, lex], capture_output=True, text=True,
                            timeout=60, **SPAWN)
    assert result.stderr == "" and result.returncode == 1
    assert result.stdout.splitlines() == ["kot\tvalid", "kotx\tinvalid"]


# --- Hunspell conditions: only Hunspell's syntax, never a regular expression of exponential time ----------

EXPONENTIAL = "(a|aa)*c"


def test_polish_reader_refuses_a_condition_that_is_a_regular_expression(tmp_path):
    aff = tmp_path / "x.aff"
    aff.write_text(f"SET UTF-8\nSFX A Y 2\nSFX A 0 x {EXPONENTIAL}\nSFX A 0 y [^b]a\n", encoding="utf-8")
    with pytest.raises(ValueError) as exc:
        read_aff(aff)
    assert str(exc.value) == (f"{aff}:3: bad condition {EXPONENTIAL!r}: not a Hunspell condition "
                              "(letters, '.', [...], [^...])")


def test_both_readers_take_a_header_with_a_comment_and_ignore_fields_after_the_condition(tmp_path):
    aff = tmp_path / "x.aff"
    aff.write_text("SET UTF-8\n# comment\nSFX A N 2 # the header's comment\nSFX A 0 y [^b]a # why\n"
                   "SFX A 0 x . morph\n", encoding="utf-8")
    parsed = read_aff(aff)
    assert [(a.cross, a.add) for a in parsed.affixes["A"]] == [(False, "y"), (False, "x")]
    assert sorted(expand_word("ka", ("A",), parsed)) == ["ka", "kax", "kay"]
    table = read_affix_table(aff)
    assert [(r.add, r.condition) for r in table.classes["A"].rules] == [("y", "[^b]a"), ("x", ".")]
    assert table.classes["A"].cross is False


def test_czech_reader_refuses_a_flag_that_is_both_prefix_and_suffix(tmp_path):
    aff = tmp_path / "x.aff"
    aff.write_text("SFX A Y 1\nSFX A 0 y .\nPFX A Y 1\nPFX A 0 x .\n", encoding="utf-8")
    assert [a.kind for a in read_aff(aff).affixes["A"]] == ["SFX", "PFX"]   # Polish keeps both
    with pytest.raises(ValueError, match=r"x\.aff:3: flag 'A' is both PFX and SFX"):
        read_affix_table(aff)


# the same bad lines stop the Polish and the Czech build alike, with an error naming the file and line
@pytest.mark.parametrize("lines, line, needle", [
    ("SFX", 2, "short SFX line"),
    ("PFX Q", 2, "short PFX line"),
    ("SFX Q Y 1\nSFX Q", 3, "short SFX line"),
    ("SFX Q 0 x .", 2, "SFX Q has no header line"),
    ("SFX Q Y 1\nSFX Q 0 x [", 3, "bad condition '['"),
    (f"SFX Q Y 1\nSFX Q 0 x {EXPONENTIAL}", 3, f"bad condition {EXPONENTIAL!r}: not a Hunspell condition"),
])
@pytest.mark.parametrize("language", ["pl", "cs"])
def test_a_bad_affix_line_stops_the_build_naming_it(tmp_path, capsys, lines, line, needle, language):
    (tmp_path / "d.aff").write_text(f"SET UTF-8\n{lines}\n", encoding="utf-8")
    (tmp_path / "d.dic").write_text("1\n" + "a" * 40 + "/Q\n", encoding="utf-8")
    args = (build_args if language == "pl" else cs_args)(tmp_path / "d.lex", "--hunspell", tmp_path / "d.dic")
    rc, _, err = run_main(build_main, args, capsys)
    assert_one_line_error(rc, err, "lexicon-build", f"d.aff:{line}: {needle}")
    assert not (tmp_path / "d.lex").exists()


# --- the Czech engine reads UTF-8: another encoding is an error naming the line ---------------------------

@pytest.mark.parametrize("option", ["--hunspell", "--paradigms"])
def test_czech_source_in_another_encoding_names_the_line(tmp_path, capsys, option):
    (tmp_path / "l2.aff").write_text("SET ISO8859-2\n", encoding="utf-8")   # declared, and consistent
    (tmp_path / "l2.dic").write_bytes("2\npes\nkočka\n".encode("iso-8859-2"))
    (tmp_path / "h.txt").write_text("kočka\n", encoding="utf-8")
    sources = [option, tmp_path / "l2.dic"] + (["--headwords", tmp_path / "h.txt"] if option == "--paradigms" else [])
    rc, _, err = run_main(build_main, cs_args(tmp_path / "l2.lex", *sources), capsys)
    assert_one_line_error(rc, err, "lexicon-build", f"{tmp_path / 'l2.dic'}:3: not UTF-8 text")


# --- a source that cannot be read (EIO, even for root) is named ----------------------------------------------

@pytest.mark.skipif(not Path("/proc/self/mem").exists(), reason="no /proc")
@pytest.mark.parametrize("option", ["--words", "--headwords", "--hunspell", "--paradigms"])
def test_unreadable_source_is_named(tmp_path, capsys, option):
    dic = tmp_path / "mem.dic"
    os.symlink("/proc/self/mem", dic)
    (tmp_path / "mem.aff").write_text("SET UTF-8\n", encoding="utf-8")
    (tmp_path / "h.txt").write_text("kočka\n", encoding="utf-8")
    sources = [option, dic] + (["--headwords", tmp_path / "h.txt"] if option == "--paradigms" else [])
    rc, _, err = run_main(build_main, cs_args(tmp_path / "m.lex", *sources), capsys)
    assert_one_line_error(rc, err, "lexicon-build", str(dic), "cannot read")


@pytest.mark.parametrize("which", ["aff", "paradigms-aff", "profile", "in-output", "output"])
def test_rejected_log_never_overwrites_an_input_or_the_output(tmp_path, capsys, which):
    (tmp_path / "cs.aff").write_text("SET UTF-8\nSFX Q Y 1\nSFX Q 0 x .\n", encoding="utf-8")
    (tmp_path / "cs.dic").write_text("1\nkočka/Q\n", encoding="utf-8")
    (tmp_path / "h.txt").write_text("kočka\n", encoding="utf-8")
    profile = tmp_path / "my.profile"
    profile.write_bytes((ROOT / "build_tools/profiles/cs-plus.profile").read_bytes())
    out = tmp_path / "cs.lex"
    assert run_main(build_main, cs_args(out, "--hunspell", tmp_path / "cs.dic"), capsys)[0] == 0
    rejected = {"aff": tmp_path / "cs.aff", "paradigms-aff": tmp_path / "cs.aff", "profile": profile,
                "in-output": out / "manifest.json", "output": out}[which]
    sources = {"aff": ["--hunspell", tmp_path / "cs.dic"], "paradigms-aff": ["--paradigms", tmp_path / "cs.dic",
               "--headwords", tmp_path / "h.txt"], "profile": ["--headwords", tmp_path / "h.txt", "--profile", profile],
               "in-output": ["--headwords", tmp_path / "h.txt"], "output": ["--headwords", tmp_path / "h.txt"]}[which]
    before = {p: p.read_bytes() for p in [*tmp_path.iterdir(), *out.iterdir()] if p.is_file()}
    rc, _, err = run_main(build_main, cs_args(out, *sources, "--rejected", rejected), capsys)
    assert_one_line_error(rc, err, "lexicon-build", f"--rejected {rejected}")
    assert {p: p.read_bytes() for p in before} == before


def test_rejected_log_on_a_symlink_loop(tmp_path, words, capsys):
    loop = tmp_path / "loop.tsv"
    os.symlink(loop.name, loop)
    out = tmp_path / "r.lex"
    rc, _, err = run_main(build_main, build_args(out, "--words", words, "--rejected", loop), capsys)
    assert_one_line_error(rc, err, "lexicon-build", f"--rejected {loop}")
    assert loop.is_symlink() and not out.exists()


# --- a lexicon's name is one the loader accepts: no lexicon is built that cannot be loaded -------------------

@pytest.mark.parametrize("out_name, name, needle", [
    ("my lexicon.lex", None, "-o "),
    (".lex", None, "-o "),
    ("ok.lex", "../x", "--name: '../x'"),
    ("ok.lex", "", "--name: ''"),
    ("ok.lex", "a" * 65, "--name: 'aaa"),
])
def test_a_name_the_loader_would_refuse_is_refused(tmp_path, words, capsys, out_name, name, needle):
    out = tmp_path / out_name
    extra = ["--name", name] if name is not None else []
    rc, _, err = run_main(build_main, build_args(out, "--words", words, *extra), capsys)
    assert_one_line_error(rc, err, "lexicon-build", needle, "is not a lexicon name")
    assert list(tmp_path.iterdir()) == [words]


def test_a_good_name_builds_a_lexicon_that_loads(tmp_path, words, capsys):
    out = tmp_path / "any name.lex"
    assert run_main(build_main, build_args(out, "--words", words, "--name", "pl-test_1.0"), capsys)[0] == 0
    rc, stdout, _ = run_main(service_main, ["check", "-l", out, "kot"], capsys)
    assert rc == 0 and stdout == "kot\tvalid\n"


# --- a file read whole is read up to a bound (an endless file is an error, not a MemoryError) ---------------

@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
@pytest.mark.parametrize("argv", [
    ["replay", "{f}", "--rules", "pl-scrabble"],
    ["validate", "--rules", "pl-scrabble", "--board", "{f}", "8H KOT"],
    ["client", "--address", "127.0.0.1:1", "--timeout", "0.5", "--tls-ca", "{f}", "lexicons"],
])
def test_an_endless_input_file_is_refused(tmp_path, capsys, argv):
    endless = tmp_path / "endless.gcg"
    os.symlink("/dev/zero", endless)
    rc, _, err = run_main(service_main, [a.replace("{f}", str(endless)) for a in argv], capsys)
    assert_one_line_error(rc, err, f"lexicon-service {argv[0]}", str(endless), "larger than 16,777,216 bytes")


def test_replay_from_stdin_is_bounded_too(capsys, monkeypatch):
    from lexicon_service import command_line

    monkeypatch.setattr(command_line, "MAX_INPUT_BYTES", 1000)
    rc, _, err = run_main(service_main, ["replay", "-", "--rules", "pl-scrabble"], capsys,
                          stdin=b"#player1 a A\n" * 200, monkeypatch=monkeypatch)
    assert_one_line_error(rc, err, "lexicon-service replay", "<stdin>: larger than 1,000 bytes")


# --- client --timeout: a deadline grpc can keep ------------------------------------------------------------

@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "1e308", "soon"])
def test_client_timeout_must_be_a_positive_finite_number(capsys, value):
    rc, _, err = run_main(service_main, ["client", "--address", "127.0.0.1:1", "--timeout", value, "lexicons"],
                          capsys)
    assert rc == 2 and "argument --timeout" in err and "Traceback" not in err


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "99999999999999999999", "soon"])
def test_serve_grace_must_be_a_finite_number_of_seconds(tmp_path, capsys, value):
    # found by bench/fuzz_cli.py --seed 5: a grace period beyond time_t was an OverflowError traceback
    # (no lexicons there: a --grace that were let through ends the command at once, not in a server)
    rc, _, err = run_main(service_main, ["serve", "--lexicons", str(tmp_path / "none"), "--grace", value],
                          capsys)
    assert rc == 2 and "argument --grace" in err and "Traceback" not in err


def test_serve_grace_may_be_zero():
    from lexicon_service.command_line import seconds

    assert seconds("0", zero_ok=True) == 0.0


# --- the campaign itself runs ---------------------------------------------------------------------------------

def test_fuzz_cli_smoke():
    result = subprocess.run([sys.executable, str(ROOT / "bench/fuzz_cli.py"), "--cases", "8", "--seed", "5",
                             "--timeout", "60"], capture_output=True, text=True, timeout=300, **SPAWN)
    assert "seed 5: cases 8, tracebacks 0, timeouts 0, wrong exit codes 0" in result.stdout, \
        result.stdout[-3000:] + result.stderr[-3000:]
    assert result.returncode == 0
