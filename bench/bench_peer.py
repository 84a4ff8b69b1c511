"""Benchmark: our move generator side by side with a peer engine (MAGPIE) on the same Polish positions.

    python bench/bench_peer.py --lexicons DIR --write-peer-input DIR [--positions 3000]
    python bench/bench_peer.py --lexicons DIR --peer-figures FILE [--positions 3000] [--repeat 3]

The positions are those of static best-move self-play on pl-scrabble (`movegen.selfplay.positions`,
seed 1: the speed phase of bench_movegen.py), so every run, ours and the peer's, sees the same ones.

`--write-peer-input DIR` writes them for MAGPIE's own commands (docs/movegen.md says how to build and run
it): `positions.cgp` (one CGP a line), and three command files for its REPL: `best.txt` (each position,
then `generate`: the best play by score), `all.txt` (the same; with `-r1 all` every play is kept) and
`show.txt` (each position, then `shgame`: loading and printing without generating, the baseline
subtracted from the other two).

`--peer-figures FILE` reads the figures MAGPIE's commands gave on these positions (JSON; a list of values
per figure from several runs, the median taken):

    {"peer": "MAGPIE 183bebc", "positions": 3000,
     "best_move_us": [...],          # µs a position: (CPU of best.txt - CPU of show.txt) / positions
     "moves_per_s": [...],           # plays of all.txt / (CPU of all.txt - CPU of show.txt)
     "selfplay_turns_per_s": [...]}  # autoplay's turns / its CPU time

and prints ours, measured in this run (CPU time of this process, the median of --repeat runs), beside
them with the ratio ours/theirs (above 1: ours is faster). Ours:

* best move per position, C core: `_core.generate` with limit 1 (the board and rack already as bytes),
  and the same through `generate_moves(..., limit=1)` (the Python around it included);
* all plays per second, C core: counted (`_core.generate` mode count), and listed and sorted (mode
  list without a limit: each play also made a Python tuple), the two sides of MAGPIE's figure, which keeps
  and sorts every move in C;
* static best-move self-play turns/s: whole games in C (`fastplay.raw_games`, level best, as MAGPIE's
  autoplay plays whole games), the same with every turn made a Python object (`fastplay.play_games`),
  and the Python loop (`selfplay.positions`, a generate_moves call a turn).

Run both on one core (`taskset -c 1`), interleaved, when the machine is quiet; CPU time is measured, but
the caches are shared.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import _core_generate, _graph, _rack, _rack_counts, _static, generate_moves
from lexicon_service.movegen.fastplay import play_games, raw_games
from lexicon_service.movegen.selfplay import positions

FIGURES = ("best_move_us", "moves_per_s", "selfplay_turns_per_s")
HIGHER_IS_FASTER = {"best_move_us": False, "moves_per_s": True, "selfplay_turns_per_s": True}


def cgp_board(rows) -> str:
    """A board's rows ("." empty, uppercase, lowercase blank, "[CH]") as CGP: runs of empty squares as numbers."""
    out = []
    for row in rows:
        text, empty, i = "", 0, 0
        while i < len(row):
            if row[i] == ".":
                empty += 1
                i += 1
                continue
            if empty:
                text, empty = text + str(empty), 0
            end = row.index("]", i) + 1 if row[i] == "[" else i + 1
            text += row[i:end]
            i = end
        out.append(text + (str(empty) if empty else ""))
    return "/".join(out)


def cgp(board, rack: str, lexicon_name: str) -> str:
    """The position as a CGP line (the rack on turn; the other player's empty, scores 0, no scoreless turns)."""
    return f"{cgp_board(board.to_rows())} {rack}/ 0/0 0 -lex {lexicon_name}"


def write_peer_input(played, out: Path, lexicon_name: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    lines = [cgp(board, rack, lexicon_name) for board, rack in played]
    (out / "positions.cgp").write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    for name, command in (("best.txt", "generate"), ("all.txt", "generate"), ("show.txt", "shgame")):
        (out / name).write_text("".join(f"cgp {line}\n{command}\n" for line in lines), encoding="utf-8")
    print(f"wrote {len(lines)} positions to {out}: positions.cgp, best.txt, all.txt, show.txt")


def _core_inputs(rs, lex, played):
    static = _static(rs)
    graph = _graph(rs, lex)
    return graph, static, [(static.board_bytes(board), _rack_counts(static, _rack(rs, board, rack)))
                           for board, rack in played]


def measure_ours(lex, played, games: int) -> dict[str, float]:
    """One run of each of our measures (CPU time of this process)."""
    rs = lex.rule_set
    graph, static, inputs = _core_inputs(rs, lex, played)
    ours = {}
    t = time.process_time()
    for board_bytes, counts in inputs:
        _core_generate(graph, static, board_bytes, counts, 0, 1, 0, b"", b"", None)
    ours["best_move_us"] = (time.process_time() - t) / len(inputs) * 1e6
    t = time.process_time()
    for board, rack in played:
        generate_moves(rs, board, rack, lex, limit=1, include_exchanges=False, include_pass=False)
    ours["best_move_python_us"] = (time.process_time() - t) / len(played) * 1e6
    t = time.process_time()
    moves = sum(_core_generate(graph, static, b, c, 1, 0, 0, b"", b"", None) for b, c in inputs)
    ours["moves_per_s"] = moves / (time.process_time() - t)
    ours["moves"] = moves
    t = time.process_time()
    found = [_core_generate(graph, static, b, c, 0, 0, 0, b"", b"", None) for b, c in inputs]
    ours["moves_listed_per_s"] = sum(map(len, found)) / (time.process_time() - t)
    del found
    t = time.process_time()
    turns = sum(len(g[3]) for g in raw_games(lex, games, seed=1))
    ours["selfplay_turns_per_s"] = turns / (time.process_time() - t)
    t = time.process_time()
    turns = sum(len(g.turns) for g in play_games(lex, games, seed=1))
    ours["selfplay_objects_turns_per_s"] = turns / (time.process_time() - t)
    t = time.process_time()
    n = sum(1 for _ in positions(rs, lex, random.Random(1), len(played), best=True))
    ours["selfplay_python_turns_per_s"] = n / (time.process_time() - t)
    return ours


def read_peer_figures(path: Path) -> dict:
    """The peer's figures: each a number or a list of numbers (several runs: the median is used)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise SystemExit(f"{path}: a JSON object of figures is expected")
    out = {"peer": str(data.get("peer", "peer"))}
    for name in FIGURES:
        value = data.get(name)
        values = value if isinstance(value, list) else [value] if value is not None else []
        if not all(isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 for v in values):
            raise SystemExit(f"{path}: {name} must be a positive number or a list of them")
        if values:
            out[name] = statistics.median(values)
            out[name + "_runs"] = values
    return out


def report(ours_runs: list[dict], peer: dict | None) -> None:
    median = {k: statistics.median(r[k] for r in ours_runs) for k in ours_runs[0]}
    name = peer["peer"] if peer else "peer"
    print(f"  {'measure':<52}{'ours':>14}{name:>20}{'ours/theirs':>13}")
    rows = (("best move per position, C core (µs)", "best_move_us"),
            ("best move per position, generate_moves (µs)", "best_move_python_us"),
            ("all plays counted, C core (moves/s)", "moves_per_s"),
            ("all plays listed and sorted, C core (moves/s)", "moves_listed_per_s"),
            ("static best-move self-play, C games (turns/s)", "selfplay_turns_per_s"),
            ("the same, each turn made a Python object (turns/s)", "selfplay_objects_turns_per_s"),
            ("static best-move self-play, Python loop (turns/s)", "selfplay_python_turns_per_s"))
    for label, key in rows:
        base = key if key in FIGURES else next(f for f in FIGURES if f.split("_")[0] == key.split("_")[0])
        theirs = peer.get(base) if peer else None
        shown, ratio = "-", ""
        if theirs:
            speed = median[key] / theirs if HIGHER_IS_FASTER[base] else theirs / median[key]
            shown, ratio = f"{theirs:,.1f}", f"{speed:.2f}x"
        print(f"  {label:<52}{median[key]:>14,.1f}{shown:>20}{ratio:>13}")
    runs = ", ".join(f"{r['best_move_us']:.1f}" for r in ours_runs)
    print(f"  our runs, best move µs: {runs}; plays counted per position: {median['moves']:,.0f} in all")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--lexicons", default="lexicons", help="directory with pl-scrabble.lex")
    p.add_argument("--shared", help="accepted (make bench passes it); unused")
    p.add_argument("--positions", type=int, default=3000, help="self-play positions (seed 1)")
    p.add_argument("--games", type=int, default=200, help="whole self-play games in C")
    p.add_argument("--repeat", type=int, default=3, help="runs of our measures (the median is printed)")
    p.add_argument("--write-peer-input", type=Path, metavar="DIR", help="write the positions for MAGPIE and stop")
    p.add_argument("--peer-lexicon", default="OSPSX", help="the lexicon name in the CGP lines (MAGPIE's -lex)")
    p.add_argument("--peer-figures", type=Path, metavar="FILE", help="the peer's figures (JSON), to compare")
    args = p.parse_args(argv)
    if args.positions < 1 or args.repeat < 1 or args.games < 1:
        p.error("--positions, --games and --repeat must be at least 1")
    lex = load_lexicon(Path(args.lexicons) / "pl-scrabble.lex")
    played = list(positions(lex.rule_set, lex, random.Random(1), args.positions, best=True))
    if args.write_peer_input:
        write_peer_input(played, args.write_peer_input, args.peer_lexicon)
        return 0
    peer = read_peer_figures(args.peer_figures) if args.peer_figures else None
    print(f"side by side, pl-scrabble, {len(played)} self-play positions, {args.games} games; CPU time, "
          f"median of {args.repeat} runs")
    report([measure_ours(lex, played, args.games) for _ in range(args.repeat)], peer)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
