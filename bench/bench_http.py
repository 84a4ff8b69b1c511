"""Benchmark of the HTTP/JSON API and the word judge page against a real server over loopback.

    python bench/bench_http.py --lexicons lexicons [--seconds 3]

Starts `lexicon-service serve --http` (the default number of processes) with every lexicon in
--lexicons, and measures in the same run:
  * JSON `POST /v1/lexicons/{lexicon}:check`, 1,000 words per call with per-word results, 4 clients
    flat out: words/s. The load generator is a lean HTTP/1.1 keep-alive client in one thread (plain
    sockets, a selector); it parses every JSON answer and checks it has 1,000 results;
  * the same batches over gRPC (CheckWords, the lean [h2] client of bench/loadgen.py), 4 clients: the
    baseline the JSON figure is compared with;
  * the weight of /judge (the page and every file it loads);
  * with chromium (and Playwright) installed: the judge's first verdict after a fresh load in a fresh
    browser profile (median of 5): the page's ready time after navigation start (lexicon list loaded,
    input focused) plus the time from Enter to the verdict on screen, both timed by the page itself;
    the time Playwright takes to type in between is printed beside it, not counted.
Only loopback is used; each phase is bounded by --seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import tempfile
from pathlib import Path
from urllib.request import urlopen

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

import bench_service  # noqa: E402  (the gRPC phases and word sampling)
from loadgen import Http1Connection, LoadResult, json_check, run_load, start_server, stop_server  # noqa: E402

TARGET_WORDS_PER_S = 200_000
TARGET_FIRST_VERDICT_MS = 300
TARGET_PAGE_KB = 200


def http_load(port: int, path: str, bodies: list[bytes], check, clients: int, seconds: float) -> LoadResult:
    """`clients` keep-alive connections flat out (closed loop, run_load), each posting `bodies` in turn;
    `check(answer JSON)` raises on a wrong answer."""
    requests = [Http1Connection.post(path, body) for body in bodies]
    conns = [Http1Connection(port, i) for i in range(clients)]
    counters = [i for i in range(clients)]

    def send(slot: int, started: float):
        if conns[slot].dead is not None:
            return False
        counters[slot] += clients
        conns[slot].send(requests[counters[slot] % len(requests)], started, slot)

    return run_load(conns, send, json_check(check), seconds)



def page_weight(url: str) -> tuple[int, list[str]]:
    """Bytes of /judge and of every stylesheet and script it loads."""
    html = urlopen(url + "/judge").read()
    files = re.findall(rb'(?:href|src)="(/static/[^"]+)"', html)
    total = len(html)
    for f in files:
        total += len(urlopen(url + f.decode()).read())
    return total, ["/judge"] + [f.decode() for f in files]


def judge_first_verdict(url: str, lexicon: str, word: str, loads: int = 5):
    """[(ms from navigation start to the first verdict, ms from Enter to it)] over fresh browser profiles."""
    chromium = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None, "playwright is not installed"
    if not os.path.exists(chromium):
        return None, f"no chromium at {chromium}"
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
    out = []
    with sync_playwright() as p:
        for _ in range(loads):
            with tempfile.TemporaryDirectory() as profile:
                context = p.chromium.launch_persistent_context(profile, executable_path=chromium, args=args,
                                                               headless=True)
                page = context.new_page()
                page.goto(f"{url}/judge?lexicon={lexicon}", wait_until="commit")
                page.wait_for_selector("body[data-ready='1']")
                page.locator("#words").fill(word)
                page.locator("#words").press("Enter")
                page.wait_for_function("window.judgeTimings.length > 0")
                timing = page.evaluate("window.judgeTimings[0]")
                ready = page.evaluate("window.judgeReadyAt")
                out.append((timing["shown"], timing["shown"] - timing["sent"], ready))
                context.close()
    return out, ""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shared", default="../shared", help="unused (words come from the lexicons)")
    parser.add_argument("--lexicons", default="lexicons", help="directory of the default lexicons")
    parser.add_argument("--lexicon", default="pl-scrabble")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=2, help="JSON and gRPC phases, interleaved")
    parser.add_argument("--strict", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args(argv)

    from lexicon_service.lexicon import load_lexicon

    lexicon_path = Path(args.lexicons) / f"{args.lexicon}.lex"
    if not lexicon_path.is_dir():
        raise SystemExit(f"no lexicon {lexicon_path} (make lexicons)")
    rng = random.Random(16)
    lexicon = load_lexicon(lexicon_path)
    words = bench_service.sample_words(lexicon, 20_000, rng)
    lexicon.close()
    batches = [words[i:i + 1000] for i in range(0, len(words), 1000)]

    proc = start_server(Path(args.lexicons), "--workers", str(args.workers), http=True)
    grpc_port, url, startup = proc.port, proc.http_url, proc.startup
    bench_service.SERVER_PID = proc.pid
    missed = []
    try:
        print(f"server: {proc.server_processes} processes, gRPC 127.0.0.1:{grpc_port}, {url}; "
              f"started in {startup:.2f} s; load average {bench_service.load_average()}")
        port = int(url.rsplit(":", 1)[1])
        bodies = [json.dumps({"words": b}, ensure_ascii=False).encode() for b in batches]

        def check(answer):
            if len(answer["results"]) != 1000 or "valid" not in answer["results"][0]:
                raise ValueError("not 1,000 results")

        compact_bodies = [json.dumps({"words": b, "compact": True}, ensure_ascii=False).encode() for b in batches]

        def check_compact(answer):
            if len(answer["statuses"]) != 1000:
                raise ValueError("not 1,000 statuses")

        path = f"/v1/lexicons/{args.lexicon}:check"
        http_load(port, path, bodies, check, args.clients, 0.5)  # warm-up
        bench_service.measure(grpc_port, "batch", args.lexicon, batches, args.clients, 0.5, load="h2")
        json_rates = []
        for round_ in range(1, args.rounds + 1):  # interleaved, so both see the same machine
            cpu0 = bench_service.cpu_seconds(proc.pid)
            result = http_load(port, path, bodies, check, args.clients, args.seconds)
            calls, elapsed, lat, client_cpu = result.calls, result.elapsed, result.latencies, result.cpu
            server_cpu = bench_service.cpu_seconds(proc.pid) - cpu0
            json_rate = calls * 1000 / elapsed
            json_rates.append(json_rate)
            print(f"[round {round_}] JSON :check, 1,000 words/call, per-word results, {args.clients} clients [http/1.1]: "
                  f"{json_rate:,.0f} words/s ({calls / elapsed:,.1f} calls/s, p50 "
                  f"{bench_service.percentile(lat, 50) * 1000:.1f} ms, p99 {bench_service.percentile(lat, 99) * 1000:.1f} ms; "
                  f"server CPU {server_cpu / max(calls, 1) * 1000:.2f} ms/call, client CPU "
                  f"{client_cpu / max(calls, 1) * 1000:.2f} ms/call; {result.failed} failed"
                  f"{': ' + result.examples[0] if result.examples else ''}; "
                  f"load average {bench_service.load_average()})")
            if result.failed:
                missed.append(f"{result.failed} failed JSON calls")
            g_calls, g_elapsed, g_lat, g_cpu, g_failed, g_example, g_client, _ = bench_service.measure(
                grpc_port, "batch", args.lexicon, batches, args.clients, args.seconds, load="h2")
            grpc_rate = g_calls * 1000 / g_elapsed
            print(f"[round {round_}] gRPC CheckWords, 1,000 words/call, per-word results, {args.clients} clients [h2]: "
                  f"{grpc_rate:,.0f} words/s (p99 {bench_service.percentile(g_lat, 99) * 1000:.1f} ms, server CPU "
                  f"{g_cpu / max(g_calls, 1) * 1000:.2f} ms/call; {g_failed} failed; load average "
                  f"{bench_service.load_average()})")
            print(f"[round {round_}] JSON / gRPC: {json_rate / grpc_rate:.2f}")
        result = http_load(port, path, compact_bodies, check_compact, args.clients, args.seconds)
        print(f"JSON :check, 1,000 words/call, compact statuses, {args.clients} clients [http/1.1]: "
              f"{result.calls * 1000 / result.elapsed:,.0f} words/s ({result.failed} failed)")
        json_rate = statistics.median(json_rates)
        if json_rate < TARGET_WORDS_PER_S:
            missed.append(f"JSON :check {json_rate:,.0f} words/s (median of rounds) < {TARGET_WORDS_PER_S:,}")

        weight, files = page_weight(url)
        print(f"/judge page weight: {weight:,} bytes ({weight / 1024:.1f} KB; {', '.join(files)})")
        if weight > TARGET_PAGE_KB * 1024:
            missed.append(f"page weight {weight / 1024:.1f} KB > {TARGET_PAGE_KB} KB")

        timings, why = judge_first_verdict(url, args.lexicon, " ".join(words[:3]))
        if timings is None:
            print(f"judge first verdict: not measured ({why})")
        else:
            enter = statistics.median(t[1] for t in timings)
            ready = statistics.median(t[2] for t in timings)
            usable = statistics.median(t[2] + t[1] for t in timings)
            shown = statistics.median(t[0] for t in timings)
            print(f"judge first verdict (median of {len(timings)} fresh loads): {usable:.0f} ms = page ready "
                  f"{ready:.0f} ms after navigation start + {enter:.0f} ms from Enter to the verdict on screen; with "
                  f"Playwright's own typing in between, the verdict showed {shown:.0f} ms after navigation start "
                  f"(each, ready/enter/shown: {', '.join(f'{c:.0f}/{b:.0f}/{a:.0f}' for a, b, c in timings)})")
            if usable > TARGET_FIRST_VERDICT_MS:
                missed.append(f"first verdict {usable:.0f} ms > {TARGET_FIRST_VERDICT_MS} ms")
    finally:
        stop_server(proc, 30)
    print("targets: " + ("all met" if not missed else "MISSED: " + "; ".join(missed)))
    return 1 if missed and args.strict else 0


if __name__ == "__main__":
    sys.exit(main())
