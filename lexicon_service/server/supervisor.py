"""Several server processes on one port (SO_REUSEPORT), kept running.

Each child is a full `lexicon-service serve --processes 1 --reuse-port` with its own lexicons,
health and reload; the kernel spreads client connections over the listening ones. A child loads
its lexicons before it listens, so a (re)started child takes connections only once it can answer
them. When a child dies the others keep serving, the reason is logged, and the child is started
again after a back-off (0.1 s, doubling to 30 s while it keeps dying within a minute of starting).
SIGHUP is relayed (each child reloads); SIGTERM/SIGINT stop them all gracefully. A signal handler
only queues the signal (signals.py); the watching loop relays it (a handler taking the loop's lock
deadlocked when a signal arrived while the loop held it).

A plain `subprocess` supervisor: the children are whole programs, and a service manager
(systemd `Restart=`) can run `--processes 1` instances the same way if preferred.
"""

from __future__ import annotations

import logging
import os
import queue
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field

from lexicon_service.server.signals import queue_signals

log = logging.getLogger("lexicon_service.supervisor")

FIRST_BACKOFF = 0.1
MAX_BACKOFF = 30.0
STABLE_AFTER = 60.0  # a child up this long resets its back-off


def exit_reason(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exited with status {code}"


@dataclass
class _Slot:
    index: int
    process: subprocess.Popen | None = None
    started: float = 0.0
    backoff: float = FIRST_BACKOFF
    restart_at: float | None = None
    restarts: int = 0
    ready: threading.Event = field(default_factory=threading.Event)
    reload_held: bool = False  # a SIGHUP came while it was loading (it has no handler yet: it would die)
    first_line: str = ""


class Supervisor:
    def __init__(self, argv: list[str], processes: int, env: dict | None = None, pass_fds=(),
                 slot_env: str | None = None) -> None:
        self.argv = argv
        self.env = env
        self.slot_env = slot_env  # the variable that tells each child its slot's index (its shared counts' column)
        self.pass_fds = tuple(pass_fds)  # inherited by every child (the lexicons' sealed copies)
        self.slots = [_Slot(i) for i in range(processes)]
        self.stopping = False
        self.stopped_by_signal = False
        self._signals: queue.SimpleQueue[int] = queue.SimpleQueue()  # put() is safe in a signal handler

    def install_signal_handlers(self):
        """SIGHUP, SIGTERM and SIGINT are queued for `start`/`run` to relay (signals.py). Returns a
        function restoring the old handlers."""
        return queue_signals(self._signals)

    def _relay_signals(self) -> None:
        while True:
            try:
                signum = self._signals.get_nowait()
            except queue.Empty:
                break
            self.signal_all(signum)
        for slot in self.slots:  # reloads held for children that were still loading
            if slot.reload_held and slot.ready.is_set() and slot.process is not None:
                slot.reload_held = False
                if slot.process.poll() is None:
                    slot.process.send_signal(signal.SIGHUP)

    # --- children --------------------------------------------------------------------------
    def _start(self, slot: _Slot) -> None:
        slot.ready.clear()
        slot.reload_held = False  # it loads what is on disk now
        # a session of its own: a signal to the supervisor's process group (Ctrl-C, a terminal's
        # hang-up, kill -HUP -PGID) reaches a child only as the supervisor relays it, once, and a
        # SIGHUP waits while the child loads (the child stops with the supervisor: PDEATHSIG, serve.py)
        env = self.env
        if self.slot_env is not None:
            env = {**(os.environ if env is None else env), self.slot_env: str(slot.index)}
        slot.process = subprocess.Popen(self.argv, stdout=subprocess.PIPE, text=True, env=env,
                                        start_new_session=True, pass_fds=self.pass_fds)
        slot.started = time.monotonic()
        slot.restart_at = None
        threading.Thread(target=self._watch_output, args=(slot, slot.process), daemon=True,
                         name=f"lexicon-child-{slot.index}").start()

    def _watch_output(self, slot: _Slot, process: subprocess.Popen) -> None:
        """The child prints one line once it serves ("lexicon-service: serving N lexicon(s) on ...")."""
        line = process.stdout.readline()
        if process is slot.process:
            slot.first_line = line
            if "serving" in line:
                if slot.restarts:
                    log.info("process %d (pid %d) is serving again", slot.index, process.pid)
                slot.ready.set()
        for _ in iter(process.stdout.readline, ""):  # drain: a child must never block on its stdout
            pass

    def start(self, timeout: float = 600.0) -> bool:
        """Start every child; True once all serve, False if one exits first or a stop signal comes
        (then all are stopped; `stopped_by_signal` tells which)."""
        for slot in self.slots:
            self._start(slot)
        deadline = time.monotonic() + timeout
        while not all(slot.ready.is_set() for slot in self.slots):
            self._relay_signals()
            if self.stopping or any(slot.process.poll() is not None for slot in self.slots) \
                    or time.monotonic() > deadline:
                self.stopped_by_signal = self.stopping
                self.signal_all(signal.SIGTERM)
                for slot in self.slots:
                    slot.process.wait()
                return False
            time.sleep(0.05)
        return True

    def signal_all(self, signum: int) -> None:
        """SIGHUP to every child (held for one still loading until it serves), or (any other signal)
        SIGTERM to every child and stop restarting them."""
        if signum != signal.SIGHUP:
            self.stopping = True
        for slot in self.slots:
            if slot.process is None or slot.process.poll() is not None:
                continue
            if signum == signal.SIGHUP and not slot.ready.is_set():
                slot.reload_held = True
            else:
                slot.process.send_signal(signal.SIGHUP if signum == signal.SIGHUP else signal.SIGTERM)

    def serving(self) -> int:
        """How many children are up and serving."""
        return sum(1 for s in self.slots if s.process is not None and s.process.poll() is None and s.ready.is_set())

    def run(self, poll: float = 0.05) -> int:
        """Watch the children until they have all stopped after SIGTERM/SIGINT; 0 if they stopped cleanly."""
        status = 0
        while True:
            self._relay_signals()
            now = time.monotonic()
            live = 0
            for slot in self.slots:
                process = slot.process
                if process is None:
                    continue
                code = process.poll()
                if code is None:
                    live += 1
                    if now - slot.started > STABLE_AFTER:
                        slot.backoff = FIRST_BACKOFF
                    continue
                if self.stopping:  # stopped by the stop signal itself (a second one, as systemd sends): clean
                    status = status or (0 if code in (0, -signal.SIGTERM, -signal.SIGINT) else 1)
                    slot.process = None
                    continue
                if slot.restart_at is None:
                    log.error("server process %d (pid %d) %s; the others keep serving; restarting it in %.1f s",
                              slot.index, process.pid, exit_reason(code), slot.backoff)
                    slot.restart_at = now + slot.backoff
                    slot.backoff = min(MAX_BACKOFF, slot.backoff * 2)
                if now >= slot.restart_at:
                    slot.restarts += 1
                    self._start(slot)
                    live += 1
            if self.stopping and live == 0:
                return status
            time.sleep(poll)
