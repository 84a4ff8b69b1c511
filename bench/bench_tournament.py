"""Benchmark of tournaments: pairing and standings at 200 players, and SIGKILL of a server during rounds.

    python bench/bench_tournament.py --lexicons lexicons [--players 200] [--rounds 12] [--kills 20]

Measures, in one run:
  * pairing a round (Swiss, tournaments/pairing.py) of a --players event over --rounds rounds with random
    results: the slowest round and the median, beside the baseline measured in the same run: a greedy
    top-down pairing of the same players (no standings, no backtracking, repeats allowed), the least a
    pairing can cost; printed as a ratio;
  * standings after each result: every result entered through the tournament service on a SQLite
    tournament store (the append fsync'd), then the standings read (the fold caught up and ranked);
    the median, p99 and slowest read (wall; the slowest also in this thread's CPU time, which a busy
    shared machine's preemption does not inflate: the target is judged on it), beside the baseline of a
    plain sort of the players' totals;
  * SIGKILL during rounds, --kills times: `lexicon-service serve --db` (a process per core) runs an
    8-player Swiss of computer players on --lexicon; a client pairs and starts rounds, enters a
    director's result now and then, and watches the games, until every server process is killed at a
    random moment; after the restart every acknowledged tournament call (pairing, start, result) and
    every game's version and final score seen before the kill must still be there. Counted: results
    lost, moves lost (target 0 each).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from lexicon_service.tournaments.model import Division, Player  # noqa: E402
from lexicon_service.tournaments.pairing import met_pairs, pair_round  # noqa: E402
from lexicon_service.tournaments.service import TournamentService  # noqa: E402
from lexicon_service.tournaments.store import SqliteTournamentStore  # noqa: E402

TARGETS = {"pair_s": 1.0, "standings_ms": 50.0, "results_lost": 0, "moves_lost": 0}


def greedy_baseline(division: Division, order: list[int]) -> float:
    """Seconds to pair `order` top-down taking the first not met (the least work a pairing does)."""
    started = time.perf_counter()
    met = met_pairs(division)
    rest = list(order)
    while len(rest) > 1:
        top = rest.pop(0)
        pick = next((i for i, o in enumerate(rest) if frozenset((top, o)) not in met), 0)
        rest.pop(pick)
    return time.perf_counter() - started


def pairing_times(players: int, rounds: int, rng: random.Random):
    """-> ([(wall, CPU) seconds per round], [baseline seconds per round], the division played)."""
    division = Division("A", [Player(f"Hráč {i:03d}x") for i in range(players)])
    ours, base = [], []
    for _ in range(rounds):
        order = list(range(players))
        base.append(greedy_baseline(division, order))
        started, cpu = time.perf_counter(), time.thread_time()
        games = pair_round(division, "swiss", 7)
        ours.append((time.perf_counter() - started, time.thread_time() - cpu))
        for g in games:
            if g.p2 is not None:
                g.s1, g.s2 = rng.randint(250, 550), rng.randint(250, 550)
        division.games += games
    return ours, base, division


def standings_times(directory: Path, division: Division):
    """Each result of `division` entered through the service (SQLite, fsync'd), the standings read after
    each: -> ([(wall, CPU) seconds per read], [seconds per plain sort], [seconds per append])."""
    from lexicon_service.tournaments.standings import standings

    store = SqliteTournamentStore(directory / "bench.db")
    service = TournamentService(store)
    tid, key = service.create("Bench", "none", rounds=len({g.round for g in division.games}))
    service.add_players(tid, key, "A", [{"name": p.name} for p in division.players])
    reads, sorts, appends = [], [], []
    rounds = sorted({g.round for g in division.games})
    for rnd in rounds:
        games = [g for g in division.games if g.round == rnd]
        csv = "".join(f"{rnd},{g.table},{division.players[g.p1].name},"
                      f"{'BYE' if g.p2 is None else division.players[g.p2].name},{g.s1 if g.p2 is None else ''}\n"
                      for g in games)
        service.import_csv(tid, key, "A", csv)  # the same pairings, as a director imports them
        for g in games:
            if g.p2 is None:
                continue
            started = time.perf_counter()
            service.set_result(tid, key, "A", rnd, g.table, g.s1, g.s2, "bench")
            appends.append(time.perf_counter() - started)
            started, cpu = time.perf_counter(), time.thread_time()
            rows = standings(service.view(tid).divisions["A"])
            reads.append((time.perf_counter() - started, time.thread_time() - cpu))
            totals = [(-r.wins, -r.spread, r.player) for r in rows]
            started = time.perf_counter()
            sorted(totals)
            sorts.append(time.perf_counter() - started)
    store.close()
    return reads, sorts, appends


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicons", default="lexicons")
    parser.add_argument("--shared", default=None, help="(unused: make bench passes it to every bench)")
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--lexicon", default="cs-kriskros")
    args = parser.parse_args(argv)
    rng = random.Random(20261129)
    print(f"bench_tournament: {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}", flush=True)
    timed, base, division = pairing_times(args.players, args.rounds, rng)
    ours, worst = [w for w, _ in timed], max(w for w, _ in timed)
    print(f"  pairing a round (Swiss, {args.players} players, {args.rounds} rounds): slowest {worst * 1000:,.1f} ms wall "
          f"({max(c for _, c in timed) * 1000:,.1f} ms CPU), median {statistics.median(ours) * 1000:,.1f} ms; baseline "
          f"greedy {statistics.median(base) * 1000:,.2f} ms (x{statistics.median(ours) / statistics.median(base):,.0f}); "
          f"target <= {TARGETS['pair_s']:g} s", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-tournament-", dir=os.environ.get("BENCH_TMP")) as tmp:
        timed, sorts, appends = standings_times(Path(tmp), division)
        reads, cpus = sorted(w for w, _ in timed), sorted(c for _, c in timed)
        p99 = reads[int(0.99 * (len(reads) - 1))]
        print(f"  standings after each of {len(reads):,} results: median {statistics.median(reads) * 1000:,.2f} ms, "
              f"p99 {p99 * 1000:,.1f} ms, slowest {reads[-1] * 1000:,.1f} ms wall ({cpus[-1] * 1000:,.1f} ms CPU); "
              f"baseline plain sort {statistics.median(sorts) * 1000:,.3f} ms "
              f"(x{statistics.median(reads) / statistics.median(sorts):,.0f}); the result's fsync'd append "
              f"{statistics.median(appends) * 1000:,.1f} ms median; target <= {TARGETS['standings_ms']:g} ms", flush=True)
        failed = worst > TARGETS["pair_s"] or cpus[-1] * 1000 > TARGETS["standings_ms"]
        if args.kills:
            from tournament_kills import kill_loop

            lost_results, lost_moves, checked = kill_loop(Path(args.lexicons), Path(tmp), args.kills, args.lexicon, rng)
            print(f"  SIGKILL during rounds x{args.kills}: results lost {lost_results}, moves lost {lost_moves} "
                  f"(checked {checked['results']:,} acknowledged results and calls, {checked['games']:,} game "
                  f"observations; {checked['rounds']} rounds played)", flush=True)
            failed = failed or lost_results or lost_moves
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
