"""Fuzz the readers of a lexicon's move-generation files: moves.gaddag (the move graph) and leaves.tsv (the
leave table), damaged so that the manifest's size and sha256 are recomputed to match (the checksum
passes; the loader's own checks must refuse) or left as they were (the checksum must refuse).

    python bench/fuzz_move_graph.py [--cases 400] [--seed 1] [--timeout 20] [--show 10]

A small lexicon of each rule set is built into a temporary directory (with a leave table for the
Scrabble ones). Each case copies one, damages one file (a bit flip in an arc; an arc's index set to a
node start, its own node or the root, which makes cycles; an arc's tile changed; two arcs swapped;
nodes cut off the end with the header's count made to match; a huge count; a leaves.tsv line with a
huge, negative, non-numeric or non-finite value, an unknown or duplicated leave, a size line with
digits int() refuses, bytes flipped, truncated), then, in a forked child with a CPU-time limit and a
wall-clock timeout, loads it and, when it loads, generates the moves of a few positions (all of them, the
best 5, has_move, count_moves, a computer player of the level 'equity'), and looks words up through the graph.

Per case, the outcome is one of: refused (LexiconCorruptError naming the damaged file), loaded (the
damaged bytes still form a well-formed graph or table, and every search returned), or a failure:
- traceback: any other exception, or an error that does not name the file;
- crash: the child died of a signal (a segfault of the C search);
- timeout: no answer in --timeout seconds (a loop in the search).
Exit status 1 when there is a failure; --only N runs one case in this process and prints its story.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import shutil
import signal
import struct
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from build_tools.cli import main as build_main  # noqa: E402
from lexicon_service.lexicon import LexiconCorruptError, load_lexicon  # noqa: E402
from lexicon_service.movegen import count_moves, generate_moves, has_move  # noqa: E402
from lexicon_service.games.computer import EQUITY, choose_move  # noqa: E402
from lexicon_service.movegen.graph import key_table, lookup_keys  # noqa: E402
from lexicon_service.movegen.selfplay import positions  # noqa: E402

WORDS = {"pl-scrabble": ["kot", "koty", "kota", "tok", "żak", "aż", "oka", "tak", "kat", "ta", "to", "ok",
                         "zakaz", "koza", "kozy", "ryk", "tyka", "zator", "rok", "ptak"],
         "cs-scrabble": ["kot", "koty", "ok", "to", "tak", "kat", "oko", "rok", "trh", "sto", "pes", "les",
                         "okno", "kost", "most", "stok", "tok", "sok", "ryk", "ptak"],
         "cs-kriskros": ["chata", "kot", "koty", "cech", "takto", "chod", "ocho", "tok", "kat", "oko",
                         "trh", "chrt", "stok", "kost", "most", "les", "pes", "tak"]}
HEADER = struct.Struct("<8sIII")
FAILURES = ("traceback", "crash", "timeout")


def build_lexicons(directory: Path) -> dict[str, Path]:
    paths = {}
    for rule_set_id, words in WORDS.items():
        src = directory / f"{rule_set_id}.txt"
        src.write_text("\n".join(words) + "\n", encoding="utf-8")
        out = directory / f"{rule_set_id}.lex"
        args = ["--rules", rule_set_id, "--quiet", "--workers", "1", "--words", str(src), "-o", str(out)]
        if build_main(args) != 0:
            raise SystemExit(f"could not build {rule_set_id}")
        if rule_set_id != "cs-kriskros" and build_main(["--leaves", str(out), "--games", "40", "--quiet"]) != 0:
            raise SystemExit(f"could not add a leave table to {rule_set_id}")
        paths[rule_set_id] = out
    return paths


def _rewrite(lexicon: Path, name: str, data: bytes, *, checksum: bool) -> None:
    (lexicon / name).write_bytes(data)
    if checksum:
        manifest = json.loads((lexicon / "manifest.json").read_text(encoding="utf-8"))
        manifest["files"][name] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        (lexicon / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")


def _arcs_start(data: bytes) -> int:
    text_len = HEADER.unpack_from(data)[3]
    return HEADER.size + text_len + (-text_len % 4)


def damage_graph(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    start = _arcs_start(data)
    n = (len(data) - start) // 4
    arcs = list(struct.unpack_from(f"<{n}I", data, start))
    node_starts = [1] + [i + 1 for i in range(1, n - 1) if arcs[i] & (1 << 24)]
    how = rng.choice(["flip", "flip", "cycle", "self", "root", "tile", "swap", "cut", "count", "accepts",
                      "zero-child", "separator"])
    i = rng.randrange(n)
    if how == "flip":
        arcs[i] ^= 1 << rng.randrange(32)
    elif how in ("cycle", "self", "root"):       # an arc into an earlier node: the graph is no longer acyclic
        i = rng.randrange(1, n)
        own = max(s for s in node_starts if s <= i)
        target = {"cycle": rng.choice(node_starts), "self": own, "root": 1}[how]
        arcs[i] = (arcs[i] & ~0xFFFFFF) | target
    elif how == "tile":
        i = rng.randrange(1, n)
        arcs[i] = (arcs[i] & 0x03FFFFFF) | (rng.randrange(64) << 26)
    elif how == "swap":
        j = rng.randrange(n)
        arcs[i], arcs[j] = arcs[j], arcs[i]
    elif how == "cut":
        arcs = arcs[:max(1, rng.choice(node_starts))]
    elif how == "count":
        header = bytearray(data[:start])
        struct.pack_into("<I", header, 8, rng.choice([0, n + 1, 0xFFFFFFFF, 1 << 24]))
        return bytes(header) + struct.pack(f"<{n}I", *arcs), how
    elif how == "accepts":
        arcs[i] ^= 1 << 25
    elif how == "zero-child":
        arcs[i] &= ~0xFFFFFF
    else:                                         # a separator tile where a letter was
        i = rng.randrange(1, n)
        arcs[i] &= 0x03FFFFFF
    return data[:start] + struct.pack(f"<{len(arcs)}I", *arcs), how


def damage_leaves(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    lines = data.decode("utf-8").split("\n")
    body = [k for k, line in enumerate(lines) if line and not line.startswith("#") and "\t" in line]
    how = rng.choice(["huge", "negative", "text", "nan", "unknown", "duplicate", "flip", "truncate", "columns",
                      "size"])
    if how in ("flip", "truncate"):
        raw = bytearray(data)
        if how == "flip" and raw:
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        else:
            raw = raw[:rng.randrange(len(raw) + 1)]
        return bytes(raw), how
    if not body:
        return data + b"X\t1\n", how
    k = rng.choice(body)
    kind, leave, value = (lines[k].split("\t") + ["", ""])[:3]
    if how == "huge":
        lines[k] = f"{kind}\t{leave}\t1e308"
    elif how == "negative":
        lines[k] = f"{kind}\t{leave}\t-99999999999999999999"
    elif how == "text":
        lines[k] = f"{kind}\t{leave}\tten"
    elif how == "nan":
        lines[k] = f"{kind}\t{leave}\t{rng.choice(['nan', 'inf', '-inf'])}"
    elif how == "unknown":
        lines[k] = f"{kind}\t{rng.choice(['€', 'Q', '[CH]', '??', '?' * 9])}{leave}\t{value}"
    elif how == "size":                           # digits int() refuses or cannot read, another script's
        lines[k] = f"size\t{rng.choice(['²', '9' * 5000, '١', '07', '-1', ''])}\t{value}"
    elif how == "duplicate":
        lines.insert(k, lines[k])
    else:
        lines[k] = f"{kind}\t{leave}\t{value}\t{value}"
    return "\n".join(lines).encode("utf-8"), how


def exercise(lexicon: Path, name: str, rng: random.Random) -> str:
    """Load the lexicon and search with it; 'refused' (an error naming the file `name`) or 'loaded'
    (raises on anything else)."""
    try:
        lex = load_lexicon(lexicon)
    except LexiconCorruptError as exc:
        if name not in str(exc):
            raise
        return "refused"
    with lex:
        rule_set = lex.rule_set
        for board, rack in positions(rule_set, lex, rng, 3):
            generate_moves(rule_set, board, rack, lex)
            generate_moves(rule_set, board, rack, lex, limit=5)
            has_move(rule_set, board, rack, lex)
            count_moves(rule_set, board, rack, lex)
        generate_moves(rule_set, None, "??" + "".join(rule_set.tile_set.alphabet[:5]), lex, limit=5)
        if lex.has_move_graph:
            lookup_keys(lex.search_graph, key_table(rule_set.tile_set), "\n".join(lex.keys()[:50]), 1, 15)
        if lex.leaves is not None:
            for board, rack in positions(rule_set, lex, rng, 2):
                choose_move(rule_set, board, rack, 50, lex, EQUITY, rng)
    return "loaded"


def run_case(paths: dict[str, Path], seed: int, number: int, work: Path) -> tuple[str, str, str]:
    """(what was damaged, the damage, the outcome) of case `number`, in this process."""
    rng = random.Random(f"{seed}:{number}")
    rule_set_id = rng.choice(sorted(paths))
    copy = work / f"case-{number}.lex"
    shutil.copytree(paths[rule_set_id], copy)
    names = ["moves.gaddag"] + (["leaves.tsv"] if (copy / "leaves.tsv").exists() else [])
    name = rng.choice(names)
    original = (copy / name).read_bytes()
    data, how = (damage_graph if name == "moves.gaddag" else damage_leaves)(original, rng)
    checksum = rng.random() < 0.85
    _rewrite(copy, name, data, checksum=checksum)
    label = f"{rule_set_id}/{name}/{how}/{'resummed' if checksum else 'stale-sum'}"
    return label, how, exercise(copy, name, rng)


def fork_case(paths, seed, number, work, timeout) -> tuple[str, str]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: one case, its outcome on the pipe
        os.close(read)
        resource.setrlimit(resource.RLIMIT_CPU, (timeout, timeout + 1))
        try:
            label, _, outcome = run_case(paths, seed, number, work)
            message = f"{outcome}\t{label}\t"
        except LexiconCorruptError as exc:
            message = f"traceback\t?\tLexiconCorruptError not naming the file: {exc}"
        except BaseException:
            message = "traceback\t?\t" + traceback.format_exc(limit=6).replace("\n", " | ")
        os.write(write, message.encode("utf-8", "replace"))
        os._exit(0)
    os.close(write)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read)
            return "timeout", ""
        time.sleep(0.01)
    text = os.read(read, 1 << 16).decode("utf-8", "replace")
    os.close(read)
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        return ("timeout" if sig in (signal.SIGXCPU, signal.SIGKILL) else "crash"), f"signal {sig}"
    outcome, _, rest = text.partition("\t")
    return outcome or "crash", rest


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=int, default=20)
    parser.add_argument("--show", type=int, default=10)
    parser.add_argument("--only", type=int, default=None, help="run case N in this process")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="fuzz-move-graph-") as tmp:
        work = Path(tmp)
        paths = build_lexicons(work)
        if args.only is not None:
            print(run_case(paths, args.seed, args.only, work))
            return 0
        counts: Counter = Counter()
        by_damage: Counter = Counter()
        shown = 0
        started = time.monotonic()
        for number in range(args.cases):
            outcome, detail = fork_case(paths, args.seed, number, work, args.timeout)
            counts[outcome] += 1
            label = detail.split("\t")[0] if outcome in ("refused", "loaded") else ""
            by_damage[(label.rsplit("/", 1)[0] if label else "?", outcome)] += 1
            if outcome in FAILURES and shown < args.show:
                shown += 1
                print(f"case {number}: {outcome}: {detail}", file=sys.stderr)
            shutil.rmtree(work / f"case-{number}.lex", ignore_errors=True)
        for (damage, outcome), k in sorted(by_damage.items()):
            print(f"  {damage:45} {outcome:9} {k}")
        print(f"{args.cases} cases (seed {args.seed}) in {time.monotonic() - started:.1f} s: "
              + ", ".join(f"{k} {counts[k]}" for k in ("refused", "loaded") + FAILURES))
    return 1 if any(counts[k] for k in FAILURES) else 0


if __name__ == "__main__":
    sys.exit(main())
