"""Fuzz the JSON API from its own description: schemathesis reads the server's `/openapi.json` and sends
requests it generates (hypothesis underneath) to every route, in its coverage, fuzzing and stateful phases.

    python bench/fuzz_openapi.py --lexicons lexicons [--max-examples 100] [--seed 1]    # make fuzz-openapi

Starts `lexicon-service serve --http` (one process) on free loopback ports with every lexicon in --lexicons and
fails the run on what `bench/fuzz_http.py` counts as a failure: a 5xx other than 503/504 (lexicons still
loading; a deadline already passed, `X-Server-Timeout: 0`), an error answer not in the API's format
(`{"error": {"code", "status", "message"}}`, the code the HTTP status), or a traceback in the server's log.
It also reports the server's CPU per request and the growth of its peak memory. schemathesis is not a
dependency of the package: `pip install 'czpl-lexicon[fuzz]'` (`make fuzz-openapi` does it).

This module is also the schemathesis hooks module of the run (SCHEMATHESIS_HOOKS): importing it registers
the check `no_internal_errors`.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from loadgen import (cpu_seconds, load_average, reset_peak, rss_mb, server_log, start_server,  # noqa: E402
                     stop_server)

try:
    import schemathesis
except ImportError:  # the run below says how to install it; importing this module needs nothing
    schemathesis = None

TARGET_PEAK_GROWTH_MB = 50
ALLOWED_5XX = (503, 504)


def _is_stream(response) -> bool:
    kind = response.headers.get("content-type") or [""]
    return "text/event-stream" in (kind[0] if isinstance(kind, list) else kind)


def no_internal_errors(ctx, response, case) -> None:
    """The API's promise to any client: no 5xx but 503/504, every error answer in the API's error format."""
    if response.status_code >= 500 and response.status_code not in ALLOWED_5XX:
        raise AssertionError(f"HTTP {response.status_code}: {response.text[:300]}")
    if response.status_code >= 400 and not _is_stream(response):
        try:
            error = json.loads(response.text)["error"]
        except (ValueError, KeyError, TypeError) as exc:
            raise AssertionError(f"HTTP {response.status_code}, not the API's error format: {response.text[:300]}") \
                from exc
        if not isinstance(error, dict) or not {"code", "status", "message"} <= set(error) \
                or error["code"] != response.status_code:
            raise AssertionError(f"HTTP {response.status_code}, not the API's error format: {response.text[:300]}")


if schemathesis is not None:
    schemathesis.check(no_internal_errors)


def run(url: str, max_examples: int, seed: int | None, timeout: float) -> tuple[int, str]:
    """schemathesis's CLI against `url`/openapi.json with this module as its hooks; (exit status, output)."""
    command = [sys.executable, "-m", "schemathesis.cli", "run", f"{url}/openapi.json", "--checks", "no_internal_errors",
               "--max-examples", str(max_examples), "--workers", "1", "--request-timeout", "10",
               *(["--seed", str(seed)] if seed is not None else [])]
    env = dict(os.environ, SCHEMATHESIS_HOOKS="fuzz_openapi", PYTHONPATH=os.pathsep.join(
        [str(HERE), os.environ.get("PYTHONPATH", "")]), NO_COLOR="1")
    with tempfile.TemporaryDirectory() as scratch:  # schemathesis keeps a cache in its working directory
        done = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True, timeout=timeout)
    return done.returncode, done.stdout + done.stderr


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicons", default="lexicons", help="directory of the lexicons to serve")
    parser.add_argument("--max-examples", type=int, default=100, help="schemathesis examples per route and phase")
    parser.add_argument("--seed", type=int, default=None, help="schemathesis's seed (a run prints the one it used)")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds the whole run may take")
    args = parser.parse_args(argv)
    if schemathesis is None:
        print("fuzz_openapi: schemathesis is not installed: pip install 'czpl-lexicon[fuzz]' (make fuzz-openapi)",
              file=sys.stderr)
        return 2
    proc = start_server(args.lexicons, "--processes", "1", http=True, wait_serving=True, log_level="INFO")
    try:
        reset_peak(proc.pid)
        cpu0, (_, peak0) = cpu_seconds(proc.pid), rss_mb(proc.pid)
        started = time.perf_counter()
        status, output = run(proc.http_url, args.max_examples, args.seed, args.timeout)
        elapsed = time.perf_counter() - started
        cpu, (_, peak) = cpu_seconds(proc.pid) - cpu0, rss_mb(proc.pid)
    finally:
        stop_server(proc)
    log = server_log(proc)
    generated = re.search(r"(\d+) generated", output)
    requests = int(generated.group(1)) if generated else 0
    print(output[-6000:])
    tracebacks = log.count("Traceback (most recent call last)")
    growth = peak - peak0
    print(f"[summary] schemathesis exit {status}; {requests:,} test cases in {elapsed:.0f} s; server CPU "
          f"{cpu * 1000 / max(requests, 1):.1f} ms a case; peak memory growth {growth:.1f} MB (bound "
          f"{TARGET_PEAK_GROWTH_MB}); tracebacks logged {tracebacks}; load {load_average()}")
    failed = status != 0 or tracebacks or growth > TARGET_PEAK_GROWTH_MB
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
