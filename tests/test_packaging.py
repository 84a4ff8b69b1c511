"""The package works from a wheel: built from a copy of the sources, installed into a fresh venv outside
the checkout, it builds lexicons and serves a CheckWords request. Also: the committed gRPC stubs are what
the protos generate (`make proto`), and the dependency floors match the versions stamped into them."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("lexicon_service", "build_tools")


# Children are started with posix_spawn (absolute program path, no cwd, close_fds=False: see subprocess.py),
# never fork(): a fork of a test process that has gRPC threads can deadlock in gRPC's fork handlers.
def _run(cmd, *, timeout=120, check=True, env=None, stdin=None):
    result = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=timeout,
                            env=env, input=stdin, close_fds=False)
    if check and result.returncode != 0:
        raise AssertionError(f"{cmd} exited {result.returncode}\n{result.stdout}\n{result.stderr}")
    return result


def _clean_env() -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "LEXICON_"))}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


# --- the stubs -----------------------------------------------------------------------------------------

def test_committed_stubs_are_what_the_protos_generate():
    from tools import gen_proto

    protos = sorted(p.stem for p in (ROOT / "proto").rglob("*.proto"))
    committed = gen_proto.committed_stubs()
    assert sorted(committed) == sorted(f"{s}{x}" for s in protos for x in gen_proto.SUFFIXES)
    assert gen_proto.stale_stubs() == [], "stubs differ from the protos: run `make proto` and commit them"


def test_committed_descriptor_set_is_what_the_protos_generate():
    """Reflection serves the protos' comments from this committed set; a wheel has no protoc."""
    from tools import gen_descriptors

    assert gen_descriptors.OUT.read_bytes() == gen_descriptors.descriptor_set(), \
        "api_descriptors.binpb differs from the protos: run `make proto` and commit it"


def test_stale_stubs_are_detected(tmp_path):
    from tools import gen_proto

    proto_dir = tmp_path / "proto"
    shutil.copytree(ROOT / "proto", proto_dir)
    out = tmp_path / "gen"
    assert gen_proto.generate(proto_dir, out)           # first run writes every stub
    assert gen_proto.generate(proto_dir, out) == []     # second run: nothing to do
    assert gen_proto.stale_stubs(proto_dir, out) == []
    lexicon_proto = next(proto_dir.rglob("lexicon.proto"))
    lexicon_proto.write_text(lexicon_proto.read_text(encoding="utf-8") + "\nmessage Added { string x = 1; }\n",
                             encoding="utf-8")
    assert gen_proto.stale_stubs(proto_dir, out) == ["lexicon_pb2.py"]


def _floor(requirements: list[str], name: str) -> tuple[int, ...]:
    for req in requirements:
        m = re.fullmatch(rf"{re.escape(name)}\s*>=\s*([\d.]+)", req.strip())
        if m:
            return tuple(map(int, m.group(1).split(".")))
    raise AssertionError(f"no floor for {name} in {requirements}")


def test_dependency_floors_match_the_generated_code():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    deps = project["dependencies"]
    gen = ROOT / "lexicon_service" / "grpc_gen"
    pb = re.search(r"^# Protobuf Python Version: ([\d.]+)$", (gen / "lexicon_pb2.py").read_text(), re.M)
    grpc_v = re.search(r"^GRPC_GENERATED_VERSION = '([\d.]+)'$", (gen / "lexicon_pb2_grpc.py").read_text(), re.M)
    assert pb and grpc_v
    assert _floor(deps, "protobuf") == tuple(map(int, pb.group(1).split(".")))
    assert _floor(deps, "grpcio") == tuple(map(int, grpc_v.group(1).split(".")))
    # The generator that made them is the pinned one (so `make proto` reproduces them byte for byte).
    dev = project["optional-dependencies"]["dev"]
    assert f"grpcio-tools=={grpc_v.group(1)}" in dev


# --- the wheel in a fresh venv ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel built from a copy of the sources (so no stale build/ of the checkout can leak in)."""
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, src / name)
    for package in PACKAGES:
        shutil.copytree(ROOT / package, src / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"))
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
          "-w", base / "dist", src], env=_clean_env())
    (whl,) = (base / "dist").glob("*.whl")
    return whl


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh venv (outside the checkout) with the wheel and its Polish extra installed (pip's cache)."""
    target = tmp_path_factory.mktemp("venv") / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", target])
    _run([sys.executable, "-m", "pip", "--python", target / "bin" / "python", "install", "--quiet",
          f"{wheel}[polish]"], timeout=600, env=_clean_env())
    return target


def test_wheel_holds_every_runtime_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    # Every non-Python file of the packages (rule sets, profiles, Czech tables) ships, except READMEs.
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            rel = path.relative_to(ROOT).as_posix()
            if path.is_file() and "__pycache__" not in rel and path.suffix not in (".pyc", ".md"):
                assert rel in names, f"{rel} is missing from the wheel"
    for needed in ("lexicon_service/rulesets/pl-scrabble.rules", "lexicon_service/rulesets/cs-scrabble.rules",
                   "lexicon_service/rulesets/cs-kriskros.rules", "build_tools/profiles/pl.profile",
                   "build_tools/profiles/cs-klasik.profile", "lexicon_service/grpc_gen/lexicon_pb2.py",
                   "lexicon_service/grpc_gen/lexicon_pb2_grpc.py", "lexicon_service/grpc_gen/game_pb2.py",
                   "lexicon_service/grpc_gen/game_pb2_grpc.py"):
        assert needed in names
    # the move generator's C core, compiled by the wheel build
    assert any(n.startswith("lexicon_service/movegen/_core") and n.endswith(".so") for n in names)
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "lexicon-build = build_tools.cli:main" in text
    assert "lexicon-service = lexicon_service.cli:main" in text


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_line(proc: subprocess.Popen, needle: str, timeout: float) -> str:
    lines: list[str] = []
    found = threading.Event()

    def read():
        for line in proc.stdout:
            lines.append(line)
            if needle in line:
                found.set()
                return

    threading.Thread(target=read, daemon=True).start()
    if not found.wait(timeout):
        proc.kill()
        raise AssertionError(f"server did not say {needle!r} in {timeout}s: {''.join(lines)}\n"
                             f"{proc.stderr.read() if proc.poll() is not None else ''}")
    return lines[-1]


def test_wheel_builds_and_serves_in_a_fresh_venv(venv, tmp_path):
    bin_ = venv / "bin"
    env = _clean_env()
    # The code runs from the venv, not from the checkout (-I: the current directory is not on sys.path;
    # the console scripts have their own directory there, not the current one).
    where = _run([bin_ / "python", "-I", "-c", "import lexicon_service, build_tools; "
                  "print(lexicon_service.__file__); print(build_tools.__file__)"], env=env)
    assert all(line.startswith(str(venv)) for line in where.stdout.split())

    lexicons = tmp_path / "lexicons"
    (tmp_path / "words.txt").write_text("kot\npies\nżółw\n", encoding="utf-8")
    _run([bin_ / "lexicon-build", "--rules", "pl-scrabble", "--words", tmp_path / "words.txt", "--quiet",
          "--workers", "1", "-o", lexicons / "w.lex"], env=env)
    (tmp_path / "heads.txt").write_text("kot\nzrobić\nlidar\n", encoding="utf-8")
    (tmp_path / "models.txt").write_text("radar\n", encoding="utf-8")     # lidar: guessed after radar
    _run([bin_ / "lexicon-build", "--rules", "pl-scrabble", "--headwords", tmp_path / "heads.txt", "--quiet",
          "--models", tmp_path / "models.txt", "--workers", "1", "-o", lexicons / "h.lex"], env=env)
    checked = _run([bin_ / "lexicon-service", "check", "-l", "h", "--lexicons", lexicons],
                   env=env, stdin="kotami\nzrobiłbym\nlidarem\nkotx\n", check=False)
    assert checked.returncode == 1
    assert checked.stdout.splitlines() == ["kotami\tvalid", "zrobiłbym\tvalid", "lidarem\tvalid", "kotx\tinvalid"]
    # the compiled move generator works from the wheel, on the graph lexicon-build wrote
    best = _run([bin_ / "python", "-I", "-c", "import sys; from lexicon_service.lexicon import load_lexicon; "
                 "from lexicon_service.movegen import generate_moves; lex = load_lexicon(sys.argv[1]); "
                 "print(generate_moves(lex.rule_set, None, 'TOK', lex, limit=1)[0].play)", lexicons / "w.lex"], env=env)
    assert best.stdout.split() == ["8F", "KOT"]

    port = _free_port()
    server = subprocess.Popen([bin_ / "lexicon-service", "serve", "--address", f"127.0.0.1:{port}",
                               "--lexicons", lexicons, "--processes", "1", "--workers", "2"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, close_fds=False)
    try:
        _wait_for_line(server, "serving", timeout=60)
        client = [bin_ / "lexicon-service", "client", "--address", f"127.0.0.1:{port}"]
        ok = _run([*client, "check", "-l", "h", "kotami", "zrobiłbym"], env=env)
        assert ok.stdout.splitlines() == ["kotami\tvalid", "zrobiłbym\tvalid"]     # as the local check
        bad = _run([*client, "check", "-l", "w", "kot", "kotx"], env=env, check=False)
        assert bad.returncode == 1 and bad.stdout.splitlines() == ["kot\tvalid", "kotx\tinvalid"]
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
    assert "Traceback" not in server.stderr.read()


# A Hunspell dictionary in miniature: two stems, one with a flag of the noun type of `žena`.
TINY_AFF = """SET UTF-8

SFX Z Y 3
SFX Z   a           y          [^aeiouyžščřcjďťň]a
SFX Z   a           u          a
SFX Z   a           ou         a
"""
TINY_DIC = "2\nžena/Z\nrybka\n"


def test_wheel_builds_a_czech_lexicon(venv, tmp_path):
    env = _clean_env()
    (tmp_path / "tiny.aff").write_text(TINY_AFF, encoding="utf-8")
    (tmp_path / "tiny.dic").write_text(TINY_DIC, encoding="utf-8")
    _run([venv / "bin" / "lexicon-build", "--rules", "cs-scrabble", "--hunspell", tmp_path / "tiny.dic", "--quiet",
          "--workers", "1", "-o", tmp_path / "cs.lex"], env=env)
    checked = _run([venv / "bin" / "lexicon-service", "check", "-l", tmp_path / "cs.lex"], env=env,
                   stdin="žena\nženy\nrybka\nženax\n", check=False)
    assert checked.returncode == 1
    # rybka has no flag and the tiny dictionary shows nothing to classify it by: counted "unclassified", not admitted
    assert checked.stdout.splitlines() == ["žena\tvalid", "ženy\tvalid", "rybka\tinvalid", "ženax\tinvalid"]


# --- licences and the shipped data ----------------------------------------------------------------------

def test_wheel_states_the_licence_of_everything_it_ships(wheel):
    """The code is MIT; the dictionaries it bundles keep their own licences, named in the metadata's SPDX
    expression, with each notice in the wheel (the metadata said only MIT)."""
    from packaging.licenses import canonicalize_license_expression

    archive = zipfile.ZipFile(wheel)
    names = set(archive.namelist())
    metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    expression = re.search(r"^License-Expression: (.+)$", metadata, re.M).group(1)
    assert canonicalize_license_expression(expression) == expression
    for licence in ("MIT", "GPL-2.0-only", "BSD-2-Clause", "CC-BY-4.0", "Apache-2.0"):
        assert re.search(rf"(^|[ (]){re.escape(licence)}([ )]|$)", expression), licence
    license_files = set(re.findall(r"^License-File: (.+)$", metadata, re.M))
    assert license_files == {"LICENSE", "build_tools/czech/hunspell/COPYRIGHT.hunspell-cs.txt",
                             "build_tools/data/pl/NOTICE"}
    for name in license_files:
        assert any(n.endswith(f".dist-info/licenses/{name}") for n in names), name
    assert "MIT License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
    # every shipped dictionary file has its notice beside it
    for data in ("build_tools/czech/hunspell/cs_CZ.dic", "build_tools/data/pl/pl_PL.dic",
                 "build_tools/data/pl/headwords.txt"):
        assert data in names
        assert any(n.startswith(data.rsplit("/", 1)[0] + "/") and re.search(r"/(NOTICE|COPYRIGHT[^/]*)$", n)
                   for n in names), data


def test_wheel_carries_the_default_build_sources(wheel):
    """What `lexicon-build --defaults RULESET` reads is in the wheel (data/pl was not)."""
    from build_tools.defaults import DEFAULT_BUILDS, default_sources

    names = set(zipfile.ZipFile(wheel).namelist())
    for rule_set in DEFAULT_BUILDS:
        for paths in default_sources(rule_set).values():
            for path in paths:
                rel = path.resolve().relative_to(ROOT).as_posix()
                assert rel in names, f"{rel} ({rule_set}) is missing from the wheel"
                assert rel[:-4] + ".aff" in names or not rel.endswith(".dic")


def test_wheel_names_the_shipped_polish_lists(venv, tmp_path):
    """Outside a checkout, `--defaults pl-scrabble` and `--models default` find the shipped lists (the
    build's own hint, --models data/pl/headwords.txt, was 'no such file' there). The full default build
    takes minutes (docs/build.md); here its sources resolve and a small build takes its models from them."""
    bin_ = venv / "bin"
    env = _clean_env()
    help_text = _run([bin_ / "lexicon-build", "--help"], env=env).stdout
    shipped = venv / "lib"
    assert f"as installed here: {shipped}" in help_text
    assert _run([bin_ / "lexicon-build", "--version"], env=env).stdout.startswith("lexicon-build ")
    # --defaults: every source resolves and is checked; the output is refused only afterwards
    not_a_lexicon = tmp_path / "not-a-lexicon"
    not_a_lexicon.write_text("x", encoding="utf-8")
    refused = _run([bin_ / "lexicon-build", "--defaults", "pl-scrabble", "-o", not_a_lexicon], env=env, check=False,
                   timeout=300)
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1, refused.stderr
    assert refused.stderr.startswith(f"lexicon-build: error: output {not_a_lexicon} exists")
    (tmp_path / "heads.txt").write_text("lidar\n", encoding="utf-8")     # SGJP does not know it
    _run([bin_ / "lexicon-build", "--rules", "pl-scrabble", "--headwords", tmp_path / "heads.txt", "--quiet",
          "--models", "default", "--workers", "2", "-o", tmp_path / "new.lex"], env=env, timeout=300)
    checked = _run([bin_ / "lexicon-service", "check", "-l", tmp_path / "new.lex", "lidarem"], env=env)
    assert checked.stdout == "lidarem\tvalid\n"


# --- what `make test` installs --------------------------------------------------------------------------

def test_makefile_hides_no_install():
    """`make test` ran apt-get install chromium (about 100 packages) with all its output sent to /dev/null."""
    lines = (ROOT / "Makefile").read_text(encoding="utf-8").replace("\\\n", " ").splitlines()
    commands = [command for line in lines                               # not the words of a message
                for command in re.split(r"&&|\|\||;", re.sub(r'"[^"]*"', '""', line))]
    installs = [command for command in commands if re.search(r"(apt-get|pip|npm) (-\S+ )*(install|ci)\b", command)]
    assert len(installs) >= 3
    for command in installs:
        assert "/dev/null" not in command and "-qq" not in command, command


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_chromium_says_what_it_installs_and_why(tmp_path):
    """As root without chromium: one line naming the package and why, then apt-get's own output."""
    fake = tmp_path / "bin"
    fake.mkdir()
    for name, script in (("id", "echo 0"),
                         ("apt-get", 'echo "apt-get $*"; [ "$1" = install ] && echo "0 upgraded, 97 newly installed"')):
        (fake / name).write_text(f"#!/bin/sh\n{script}\nexit 0\n", encoding="utf-8")
        (fake / name).chmod(0o755)
    env = {"PATH": str(fake)}          # no chromium on it
    shown = _run([shutil.which("make"), "-s", "-C", ROOT, "chromium"], env=env).stdout.splitlines()
    assert shown[0].startswith("chromium: installing Debian's chromium with apt-get (about 100 packages) "
                               "for the browser tests")
    assert "apt-get install -y -q chromium" in shown and "0 upgraded, 97 newly installed" in shown
    skipped = _run([shutil.which("make"), "-s", "-C", ROOT, "chromium", "CHROMIUM=no"], env=env).stdout
    assert "apt-get" not in skipped and "skipped" in skipped


def test_bench_movegen_runs_from_a_plain_install(venv, tmp_path):
    """bench/bench_movegen.py measures the installed package: run from a checkout whose sources have no
    compiled core (a fresh clone after a plain `pip install .`), it builds the graph, plays and compares."""
    checkout = tmp_path / "checkout"
    for package in PACKAGES:
        shutil.copytree(ROOT / package, checkout / package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    (checkout / "bench").mkdir()
    shutil.copy2(ROOT / "bench" / "bench_movegen.py", checkout / "bench")
    env = _clean_env()
    words = tmp_path / "words.txt"
    words.write_text("kot\nkoty\ntok\nkota\nak\nto\nok\nty\n", encoding="utf-8")
    _run([venv / "bin" / "lexicon-build", "--rules", "pl-scrabble", "--words", words, "--quiet", "--workers", "1",
          "-o", tmp_path / "lexicons" / "pl-scrabble.lex"], env=env)
    done = _run([venv / "bin" / "python", checkout / "bench" / "bench_movegen.py", "--lexicons", tmp_path / "lexicons",
                 "--positions", "4", "--turns", "4", "--baseline-turns", "1", "--workers", "1"], env=env)
    assert "differing    0" in done.stdout and "raw generation" in done.stdout, done.stdout
