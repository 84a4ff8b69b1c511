"""Hostile input to the command lines (`lexicon-build`, `lexicon-service` check/explain/dump/diff/replay/
validate/client): never a traceback, a one-line `prog: error: ...` with exit status 2, nothing deleted
that the command did not create, and no temporary directory left behind by a signal."""

from __future__ import annotations

import hashlib
import io
import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from build_tools.cli import main as build_main
from build_tools.save import remove_stale_temporaries
from lexicon_service.cli import main as service_main

# Children are started with posix_spawn (absolute program path, no cwd, close_fds=False), never fork(), and no
# gRPC channel is opened in this process (the client runs in a child): forking a process with gRPC threads can
# deadlock in gRPC's fork handlers.
SPAWN = dict(close_fds=False)


def run_main(main, argv, capsys, stdin: bytes | None = None, monkeypatch=None) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of an in-process run; an escaping exception fails the test."""
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    capsys.readouterr()
    try:
        rc = main([str(a) for a in argv])
    except SystemExit as exc:  # argparse
        rc = exc.code
    out, err = capsys.readouterr()
    return rc, out, err


def assert_one_line_error(rc: int, err: str, prog: str, *needles: str) -> None:
    assert rc == 2, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{prog}: error: "), err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def build_args(out, *sources):
    return ["--rules", "pl-scrabble", "--quiet", "--workers", "1", "-o", out, *sources]


@pytest.fixture
def words(tmp_path) -> Path:
    p = tmp_path / "words.txt"
    p.write_text("kot\npies\nżółw\n", encoding="utf-8")
    return p


@pytest.fixture
def lexicon(tmp_path, words, capsys) -> Path:
    out = tmp_path / "good.lex"
    assert run_main(build_main, build_args(out, "--words", words), capsys)[0] == 0
    return out


# --- -o replaces only a lexicon ------------------------------------------------------------------------

def test_output_that_is_a_directory_but_not_a_lexicon_is_refused_and_kept(tmp_path, words, capsys):
    precious = tmp_path / "photos"
    precious.mkdir()
    (precious / "holiday.jpg").write_bytes(b"\xff\xd8 not a lexicon")
    (precious / "manifest.json").write_text('{"format": "someone else\'s"}', encoding="utf-8")
    rc, _, err = run_main(build_main, build_args(precious, "--words", words), capsys)
    assert_one_line_error(rc, err, "lexicon-build", str(precious), "not a lexicon")
    assert sorted(p.name for p in precious.iterdir()) == ["holiday.jpg", "manifest.json"]
    assert (precious / "holiday.jpg").read_bytes() == b"\xff\xd8 not a lexicon"


def test_output_that_is_a_file_is_refused_and_kept(tmp_path, words, capsys):
    target = tmp_path / "notes.lex"
    target.write_text("keep me", encoding="utf-8")
    rc, _, err = run_main(build_main, build_args(target, "--words", words), capsys)
    assert_one_line_error(rc, err, "lexicon-build", "not a lexicon")
    assert target.read_text(encoding="utf-8") == "keep me"


def test_output_that_is_a_lexicon_is_replaced(tmp_path, lexicon, capsys):
    other = tmp_path / "other.txt"
    other.write_text("kot\n", encoding="utf-8")
    assert run_main(build_main, build_args(lexicon, "--words", other), capsys)[0] == 0
    manifest = json.loads((lexicon / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["counts"]["forms"] == 1
    assert [p.name for p in tmp_path.iterdir() if ".tmp-" in p.name or ".old-" in p.name] == []


@pytest.mark.parametrize("where", ["file", "proc"])
def test_output_in_a_place_that_cannot_hold_it(tmp_path, words, capsys, where):
    if where == "file":
        (tmp_path / "plain").write_text("x", encoding="utf-8")
        out = tmp_path / "plain" / "x.lex"
    else:
        if not Path("/proc/self").exists():
            pytest.skip("no /proc")
        out = Path("/proc/x.lex")
    rc, _, err = run_main(build_main, build_args(out, "--words", words), capsys)
    assert_one_line_error(rc, err, "lexicon-build", str(out))


def test_rejected_log_in_proc(tmp_path, words, capsys):
    if not Path("/proc/self").exists():
        pytest.skip("no /proc")
    out = tmp_path / "r.lex"
    rc, _, err = run_main(build_main, build_args(out, "--words", words, "--rejected", "/proc/x"), capsys)
    assert_one_line_error(rc, err, "lexicon-build", "--rejected /proc/x")
    assert not out.exists()


def test_rejected_log_that_is_a_source_is_refused(tmp_path, words, capsys):
    before = words.read_bytes()
    rc, _, err = run_main(build_main, build_args(tmp_path / "r.lex", "--words", words, "--rejected", words), capsys)
    assert_one_line_error(rc, err, "lexicon-build", "--rejected", "one of the build's input files")
    assert words.read_bytes() == before


# --- sources that are not text ------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["--words", "--headwords", "--tagged", "--hunspell"])
@pytest.mark.parametrize("content, needle", [
    (bytes(range(256)) * 4, ":1: NUL byte"),
    ("kot\npies\n".encode() + "żółw\n".encode("iso-8859-2"), ":3: not UTF-8 text"),
])
def test_a_source_that_is_not_text_stops_the_build(tmp_path, capsys, kind, content, needle):
    src = tmp_path / ("bad.dic" if kind == "--hunspell" else "bad.txt")
    src.write_bytes(content)
    (tmp_path / "bad.aff").write_text("SET UTF-8\n", encoding="utf-8")
    out = tmp_path / "bad.lex"
    rc, _, err = run_main(build_main, build_args(out, kind, src), capsys)
    assert_one_line_error(rc, err, "lexicon-build", str(src) + needle)
    assert not out.exists()


def test_hunspell_checked_in_the_encoding_its_aff_declares(tmp_path, capsys):
    (tmp_path / "l2.aff").write_text("SET ISO8859-2\n", encoding="utf-8")
    (tmp_path / "l2.dic").write_bytes("2\nżółw\nkot\n".encode("iso-8859-2"))
    assert run_main(build_main, build_args(tmp_path / "l2.lex", "--hunspell", tmp_path / "l2.dic"), capsys)[0] == 0
    (tmp_path / "bad.aff").write_text("SET KLINGON-1\n", encoding="utf-8")
    (tmp_path / "bad.dic").write_text("1\nkot\n", encoding="utf-8")
    rc, _, err = run_main(build_main, build_args(tmp_path / "b.lex", "--hunspell", tmp_path / "bad.dic"), capsys)
    assert_one_line_error(rc, err, "lexicon-build", "bad.aff", "SET")


def test_binary_profile(tmp_path, words, capsys):
    prof = tmp_path / "bin.profile"
    prof.write_bytes(bytes(range(128, 256)))
    rc, _, err = run_main(build_main, build_args(tmp_path / "p.lex", "--words", words, "--profile", prof), capsys)
    assert_one_line_error(rc, err, "lexicon-build", str(prof))


@pytest.mark.parametrize("value", ["0", "-3", "two"])
def test_workers_must_be_positive(tmp_path, words, capsys, value):
    rc, _, err = run_main(build_main, ["--rules", "pl-scrabble", "--words", words, "-o", tmp_path / "w.lex",
                                       "--workers", value], capsys)
    assert rc == 2 and "argument --workers" in err and "Traceback" not in err
    assert not (tmp_path / "w.lex").exists()


# --- lexicon-service ----------------------------------------------------------------------------------

def test_check_ignores_a_byte_order_mark_on_stdin(lexicon, capsys, monkeypatch):
    rc, out, _ = run_main(service_main, ["check", "-l", lexicon], capsys, stdin=b"\xef\xbb\xbfkot\r\npies\nkotx\n",
                          monkeypatch=monkeypatch)
    assert rc == 1 and out.splitlines() == ["kot\tvalid", "pies\tvalid", "kotx\tinvalid"]


def test_check_names_the_line_that_is_not_utf8(lexicon, capsys, monkeypatch):
    rc, out, err = run_main(service_main, ["check", "-l", lexicon], capsys, stdin=b"kot\n\xc5\xbc\xff\n",
                            monkeypatch=monkeypatch)
    assert_one_line_error(rc, err, "lexicon-service check", "<stdin>:2", "not UTF-8")


def _rewrite(lex: Path, name: str, data: bytes) -> None:
    """Replace a file of a lexicon and make the manifest's checksum agree (corrupt but consistent)."""
    (lex / name).write_bytes(data)
    manifest = json.loads((lex / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"][name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    (lex / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


@pytest.mark.parametrize("name, data", [
    ("tables.json", b'{"tags": [], "rules": [], "tagsets": [[[5, 7]]]}'),
    ("tables.json", b"{}"),
    ("tables.json", b"\xff\xfe"),
    ("readings.bin", b"\xff" * 10),
    ("headwords.marisa", b"garbage"),
])
def test_explain_on_a_corrupt_lexicon(lexicon, capsys, name, data):
    _rewrite(lexicon, name, data)
    rc, _, err = run_main(service_main, ["explain", "-l", lexicon, "kot"], capsys)
    assert_one_line_error(rc, err, "lexicon-service explain", str(lexicon))


def test_replay_with_a_huge_number(tmp_path, capsys):
    gcg = tmp_path / "big.gcg"
    gcg.write_text(f"#player1 a A\n#player2 b B\n>a: ABCDEFG -{'9' * 5000} +0 0\n", encoding="utf-8")
    rc, _, err = run_main(service_main, ["replay", gcg, "--rules", "pl-scrabble"], capsys)
    assert rc == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert len(err) < 700  # the message is cut, not 5,000 digits long


CLIENT_REPLAY = textwrap.dedent("""
    import contextlib, io, json, sys
    from lexicon_service.cli import main
    for path in sys.argv[1:]:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                rc = main(["client", "--address", "127.0.0.1:1", "--timeout", "0.5", "replay", path])
            except SystemExit as exc:
                rc = exc.code
        print(json.dumps([path, rc, err.getvalue()]))
""")


def test_client_replay_of_hostile_files(tmp_path):
    """`client replay` reads the file before calling: a binary file is an error naming it; any file
    ends in exit 2 (no server listens on port 1) without a traceback."""
    base = tmp_path / "hostile"
    base.mkdir()
    files = _hostile_files(base)
    gcg = tmp_path / "bin.gcg"
    gcg.write_bytes(bytes(range(128, 256)) * 10)
    result = subprocess.run([sys.executable, "-c", CLIENT_REPLAY, gcg, *files.values()], capture_output=True,
                            text=True, timeout=120, **SPAWN)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    outcomes = {Path(path): (rc, err) for path, rc, err in map(json.loads, result.stdout.splitlines())}
    assert_one_line_error(*outcomes[gcg], "lexicon-service client", str(gcg), "not UTF-8")
    for name, path in files.items():
        assert_one_line_error(*outcomes[path], "lexicon-service client")
        if name in ("binary", "latin2"):
            assert "not UTF-8" in outcomes[path][1]


# --- signals during a save ----------------------------------------------------------------------------

SLOW_SAVE = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    import build_tools.save as save
    from build_tools.cli import main
    marker = Path(sys.argv[1])
    real_write = save._write
    def slow_write(path, data):
        result = real_write(path, data)
        marker.write_text(str(path))
        time.sleep(60)
        return result
    save._write = slow_write
    sys.exit(main(sys.argv[2:]))
""")


def _start_slow_save(tmp_path, words, out) -> tuple[subprocess.Popen, Path]:
    marker = tmp_path / "saving"
    proc = subprocess.Popen([sys.executable, "-c", SLOW_SAVE, marker, *map(str, build_args(out, "--words", words))],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **SPAWN)
    deadline = time.monotonic() + 60
    while not marker.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the save never started"
        time.sleep(0.02)
    return proc, marker


def _temporaries(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if ".tmp-" in p.name or ".old-" in p.name)


def test_sigterm_during_a_save_cleans_up_and_keeps_the_previous_lexicon(tmp_path, words, lexicon):
    before = (lexicon / "manifest.json").read_bytes()
    proc, _ = _start_slow_save(tmp_path, words, lexicon)
    assert _temporaries(tmp_path) == [f"{lexicon.name}.tmp-{proc.pid}"]
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signal.SIGTERM
    assert "Traceback" not in err and "terminated" in err
    assert _temporaries(tmp_path) == []
    assert (lexicon / "manifest.json").read_bytes() == before


def test_sigkill_leftovers_are_removed_by_the_next_save_and_ignored_by_the_loader(tmp_path, words, lexicon, capsys):
    from lexicon_service.core.registry import LexiconRegistry

    proc, _ = _start_slow_save(tmp_path, words, tmp_path / "killed.lex")
    proc.kill()
    proc.communicate(timeout=30)
    assert _temporaries(tmp_path) == [f"killed.lex.tmp-{proc.pid}"]
    registry = LexiconRegistry(tmp_path)
    assert registry.reload().names() == ["good"]
    # The next save into the directory removes it (its process is dead), and nothing else.
    (tmp_path / "unrelated.tmp-1").mkdir()   # not ours: holds a file of another name
    (tmp_path / "unrelated.tmp-1" / "data.csv").write_text("x", encoding="utf-8")
    assert run_main(build_main, build_args(tmp_path / "next.lex", "--words", words), capsys)[0] == 0
    assert _temporaries(tmp_path) == ["unrelated.tmp-1"]
    assert not (tmp_path / "killed.lex").exists()


def _dead_pid() -> int:
    pid = int(Path("/proc/sys/kernel/pid_max").read_text()) - 1 if Path("/proc/sys/kernel/pid_max").exists() else 99999
    while pid > 1:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid -= 1
    raise AssertionError("no free pid")


def test_a_lexicon_set_aside_by_a_killed_swap_is_put_back(tmp_path, lexicon):
    dead = _dead_pid()
    aside = tmp_path / f"good.lex.old-{dead}"
    os.rename(lexicon, aside)
    stale = tmp_path / f"good.lex.tmp-{dead}"
    stale.mkdir()
    (stale / "forms.marisa").write_bytes(b"partial")
    alive = tmp_path / f"other.lex.tmp-{os.getppid()}"   # a live process's save: left alone
    alive.mkdir()
    assert sorted(p.name for p in remove_stale_temporaries(tmp_path)) == [aside.name, stale.name]
    assert (lexicon / "manifest.json").is_file() and not aside.exists() and not stale.exists()
    assert alive.exists()


# --- a table of hostile files over every entry point ----------------------------------------------------

def _hostile_files(base: Path) -> dict[str, Path]:
    rng = random.Random(13)
    contents = {
        "empty": b"",
        "binary": bytes(rng.randrange(256) for _ in range(4096)),
        "nul": b"kot\x00pies\n\x00\x00\x00\n",
        "huge-line": b"a" * 200_000 + b"\n",
        "bom": "\ufeffkot\npies\n".encode(),
        "crlf": b"kot\r\npies\r\n",
        "latin2": "żółw\nkot\n".encode("iso-8859-2"),
        "bom-only": b"\xef\xbb\xbf",
    }
    files = {}
    for name, data in contents.items():
        p = base / f"{name}.dic"   # .dic so that --hunspell finds the .aff beside it
        p.write_bytes(data)
        (base / f"{name}.aff").write_text("SET UTF-8\n", encoding="utf-8")
        files[name] = p
    directory = base / "a-directory.dic"
    directory.mkdir()
    files["directory"] = directory
    files["missing"] = base / "missing.dic"
    return files


HOSTILE = ["empty", "binary", "nul", "huge-line", "bom", "crlf", "latin2", "bom-only", "directory", "missing"]


def _entry_points(f: Path, out: Path, lexicon: Path) -> list[tuple[object, list, bytes | None]]:
    build = [(build_main, build_args(out, kind, f), None) for kind in ("--words", "--headwords", "--tagged", "--hunspell")]
    build += [(build_main, ["--rules", f, "--words", f, "-o", out, "--quiet"], None),
              (build_main, build_args(out, "--words", lexicon.parent / "words.txt", "--profile", f), None),
              (build_main, build_args(out, "--words", lexicon.parent / "words.txt", "--rejected", f), None)]
    service = [
        (service_main, ["check", "-l", lexicon], f.read_bytes() if f.is_file() else b""),
        (service_main, ["check", "-l", f, "kot"], None),
        (service_main, ["explain", "-l", f, "kot"], None),
        (service_main, ["dump", "-l", f], None),
        (service_main, ["diff", f, lexicon], None),
        (service_main, ["replay", f, "--rules", "pl-scrabble"], None),
        (service_main, ["validate", "--rules", "pl-scrabble", "--board", f, "8H KOT"], None),
    ]
    return build + service + [(build_main, build_args(f, "--words", lexicon.parent / "words.txt"), None)]


@pytest.mark.parametrize("hostile", HOSTILE)
def test_no_traceback_for_any_hostile_file(tmp_path, lexicon, capsys, monkeypatch, hostile):
    base = tmp_path / "hostile"
    base.mkdir()
    f = _hostile_files(base)[hostile]
    before = f.read_bytes() if f.is_file() else None
    for main, argv, stdin in _entry_points(f, tmp_path / "out.lex", lexicon):
        rc, _, err = run_main(main, argv, capsys, stdin=stdin, monkeypatch=monkeypatch)
        assert rc in (0, 1, 2), (argv, rc, err)
        assert "Traceback" not in err, (argv, err)
        if rc == 2 and "usage:" not in err:
            assert len(err.strip().splitlines()) == 1 and ": error: " in err, (argv, err)
    if before is not None:  # an input file used as --rejected or -o is overwritten or refused, never removed
        assert f.exists()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=300) | st.text(max_size=100).map(lambda s: s.encode("utf-8", "surrogatepass")))
def test_fuzzed_word_list_and_stdin(tmp_path, lexicon, capsys, monkeypatch, data):
    src = tmp_path / "fuzz.txt"
    src.write_bytes(data)
    out = tmp_path / "fuzz.lex"
    rc, _, err = run_main(build_main, build_args(out, "--words", src), capsys)
    assert rc in (0, 2) and "Traceback" not in err
    if rc == 2:
        assert len(err.strip().splitlines()) == 1 and str(src) in err
    rc, _, err = run_main(service_main, ["check", "-l", lexicon], capsys, stdin=data, monkeypatch=monkeypatch)
    assert rc in (0, 1, 2) and "Traceback" not in err


@pytest.mark.parametrize("argv, needle", [
    (["--fast-threads", "100000000"], "--fast-threads must be at least 1 and at most 256"),
    (["--workers", "100000000"], "--workers must be at least 1 and at most 1,024"),
    (["--processes", "100000"], "--processes must be at least 1 and at most 64"),
    (["--max-words", "100000000000"], "--max-words must be"),
    (["--max-results", "0"], "--max-results must be"),
    (["--max-message-bytes", "3000000000"], "--max-message-bytes must be"),  # was grpc's OverflowError traceback
    (["--max-concurrent-rpcs", "0"], "--max-concurrent-rpcs must be"),
    (["--max-concurrent-rpcs", "-5"], "--max-concurrent-rpcs must be"),
    (["--max-games", "10000000"], "--max-games must be at least 1 and at most 100,000"),
    (["--http", "127.0.0.1:0", "--http-max-connections", "0"], "--http-max-connections must be at least 1"),
    (["--http", "127.0.0.1:0", "--http-max-connections", "100000000"], "--http-max-connections must be"),
    (["--http", "127.0.0.1:0", "--http-receive-timeout", "0"], "--http-receive-timeout must be at least 1"),
    (["--http-receive-timeout", "5"], "--http-receive-timeout needs --http"),
    (["--http", "127.0.0.1:0", "--http-write-timeout", "0"], "--http-write-timeout must be at least 1"),
    (["--http-write-timeout", "5"], "--http-write-timeout needs --http"),
    (["--grpc-max-streams", "0"], "--grpc-max-streams must be at least 1 and at most 10,000"),
    (["--streams-per-client", "0"], "--streams-per-client must be at least 1 and at most 10,000"),
    (["--streams-per-game", "100000"], "--streams-per-game must be at least 1 and at most 10,000"),
    (["--stream-idle", "0"], "--stream-idle must be at least 1 and at most 86,400"),
])
def test_serve_refuses_absurd_counts_naming_the_option(tmp_path, capsys, argv, needle):
    """Each was accepted before: a server that would start 1e8 threads or 1e5 processes (a fork bomb),
    or die of an OverflowError in grpc."""
    rc, _, err = run_main(service_main, ["serve", "--address", "127.0.0.1:0", "--lexicons", tmp_path, *argv], capsys)
    assert_one_line_error(rc, err, "lexicon-service serve", needle)


def test_serve_refuses_an_absurd_count_from_the_environment(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LEXICON_PROCESSES", "100000")
    rc, _, err = run_main(service_main, ["serve", "--address", "127.0.0.1:0", "--lexicons", tmp_path], capsys)
    assert_one_line_error(rc, err, "lexicon-service serve", "LEXICON_PROCESSES", "at most 64")


@pytest.mark.parametrize("raw", ["1_0", "\u0661\u0662", "2.0"])
def test_serve_takes_only_ascii_digits_from_the_environment(tmp_path, capsys, monkeypatch, raw):
    # int() takes '1_0' and Arabic-Indic digits: 10 and 12 processes from values nobody wrote as such
    monkeypatch.setenv("LEXICON_PROCESSES", raw)
    rc, _, err = run_main(service_main, ["serve", "--address", "127.0.0.1:0", "--lexicons", tmp_path], capsys)
    assert_one_line_error(rc, err, "lexicon-service serve", "LEXICON_PROCESSES", "not a whole number")


@pytest.mark.parametrize("argv, needle", [
    (["game", "--game-token", "ż", "play", "0123456789abcdef", "8H", "KOT"], "--game-token"),
    (["--token", "a b", "check", "-l", "pl-scrabble", "kot"], "--token"),
    (["--token", "ż", "game", "show", "0123456789abcdef"], "--token"),
])
def test_client_refuses_a_token_no_header_can_carry(capsys, argv, needle):
    """Was grpc's 'INTERNAL: Invalid metadata' after a line of its C core on stderr."""
    rc, _, err = run_main(service_main, ["client", "--address", "127.0.0.1:1", *argv], capsys)
    assert_one_line_error(rc, err, "lexicon-service client", needle, "visible ASCII")


@pytest.mark.parametrize("argv, option", [
    (["game", "create", "-l", "pl-scrabble", "A", "B", "--seed", "99999999999999999999"], "--seed"),
    (["game", "create", "-l", "pl-scrabble", "A", "B", "--game-seconds", "-5"], "--game-seconds"),
    (["game", "play", "0123456789abcdef", "8H", "KOT", "--expected-version", "-1"], "--expected-version"),
    (["game", "adjust", "0123456789abcdef", "99999999999", "5", "--reason", "x"], "player"),
    (["game", "adjust", "0123456789abcdef", "0", "3000000000", "--reason", "x"], "delta"),
    (["find", "-l", "pl-scrabble", "--pattern", "k*", "--limit", "99999999999"], "--limit"),
])
def test_client_numbers_outside_their_field_name_the_option(capsys, argv, option):
    """Was 'error: Value out of range: -1', naming no option (protobuf refused the value)."""
    rc, _, err = run_main(service_main, ["client", "--address", "127.0.0.1:1", *argv], capsys)
    assert rc == 2 and "Traceback" not in err
    assert f"argument {option}: must be from" in err.strip().splitlines()[-1], err


@pytest.mark.parametrize("address", ["127.0.0.1:99999", "127.0.0.1:\u0661\u0662", "localhost:", "127.0.0.1:-1"])
def test_serve_refuses_a_bad_http_address_before_starting(tmp_path, capsys, address):
    """:99999 ended in socket.bind's OverflowError traceback (after the gRPC server had started); Arabic-Indic
    digits were read as port 12."""
    rc, _, err = run_main(service_main, ["serve", "--address", "127.0.0.1:0", "--lexicons", tmp_path, "--http", address],
                          capsys)
    assert_one_line_error(rc, err, "lexicon-service serve", "HTTP address", "must be host:port")


def test_client_refuses_a_port_past_65535(capsys):
    """grpc connected to port 99999 - 65536 = 34463: possibly another server."""
    rc, _, err = run_main(service_main, ["client", "--address", "127.0.0.1:99999", "check", "-l", "x", "kot"], capsys)
    assert_one_line_error(rc, err, "lexicon-service client", "--address", "must be host:port")


@pytest.mark.parametrize("flag", ["--hunspell", "--paradigms"])
def test_a_missing_cs_czech_dictionary_error_says_where_the_shipped_one_is(tmp_path, capsys, flag):
    """The example path of docs/build.md (build_tools/czech/hunspell/cs_CZ.dic) is the checkout's: installed
    from a wheel, the error must say where the package keeps it."""
    from build_tools.czech.dictionary import shipped_paths

    heads = tmp_path / "h.txt"
    heads.write_text("žena\n", encoding="utf-8")
    argv = ["--rules", "cs-kriskros", "--headwords", str(heads), flag, "nowhere/cs_CZ.dic", "-o", str(tmp_path / "x.lex")]
    rc, _, err = run_main(build_main, argv, capsys)
    assert_one_line_error(rc, err, "lexicon-build", "nowhere/cs_CZ.dic: no such file", str(shipped_paths()[0]))


def test_the_summary_shortens_a_huge_example(tmp_path, capsys):
    """A 50 MB headword line was printed whole as the summary's example."""
    heads = tmp_path / "h.txt"
    heads.write_text("žena\n" + "žena" * 25_000 + "\n", encoding="utf-8")
    rc, out, _ = run_main(build_main, ["--rules", "cs-kriskros", "--workers", "1", "--headwords", str(heads),
                                       "-o", str(tmp_path / "x.lex")], capsys)
    assert rc == 0 and "(100,010 characters)" in out and len(out) < 5_000


@pytest.mark.parametrize("extra, needle", [
    (["--paradigms", "a.dic", "--paradigms", "b.dic"], "--paradigms given more than once"),
    (["--hunspell", "SHIPPED", "--paradigms", "SHIPPED"], "--paradigms says how to inflect --headwords lists"),
])
def test_paradigms_given_twice_or_without_headwords_is_refused(tmp_path, capsys, extra, needle):
    """Both were accepted in silence: the last --paradigms won; without --headwords it did nothing."""
    from build_tools.czech.dictionary import shipped_paths

    extra = [str(shipped_paths()[0]) if a == "SHIPPED" else a for a in extra]
    rc, _, err = run_main(build_main, ["--rules", "cs-kriskros", *extra, "-o", str(tmp_path / "x.lex")], capsys)
    assert rc == 2 and "Traceback" not in err  # argparse's errors come after its usage lines
    assert err.strip().splitlines()[-1].startswith("lexicon-build: error: ") and needle in err, err
