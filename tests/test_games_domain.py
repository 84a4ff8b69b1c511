"""The game domain without gRPC: the state is the fold of the stored log, rule-set data drives the
challenge rule, and the store refuses a second writer at the same version."""

from __future__ import annotations

import pytest

from lexicon_service.errors import Conflict, Refused
from lexicon_service.games.sessions import GameSessions
from lexicon_service.rules.admissible_words import WordSet
from lexicon_service.rules import load_rule_set, parse_gcg, parse_rule_set, replay
from tests.game_helpers import FakeClock, find_play, tiles_of


@pytest.fixture
def service(make_store):
    return GameSessions(make_store(), clock=FakeClock())


def _text(state, p):
    return state.rack_text(p)


def test_cached_state_equals_the_fold_of_the_stored_log(service):
    rs = load_rule_set("cs-scrabble")
    no_words = WordSet([])  # every word is a phony: each challenge succeeds
    game_id, tokens, director, _ = service.create_game("cs-scrabble", rs, ["A", "B", "C"], seed=99)
    for turn in range(40):
        state, _, _ = service.get_game(game_id, None)
        if state.status != "playing":
            break
        p = state.turn
        if turn % 7 == 3 and len(state.bag) >= 7:
            service.submit_move(game_id, tokens[p], exchange=_text(state, p)[:2].strip("["))
            continue
        play = find_play(rs, state.board_rows(), state.racks[p], max_tiles=3)
        if play is None:
            service.submit_move(game_id, tokens[p], pass_=True)
            continue
        service.submit_move(game_id, tokens[p], play=play)
        if turn % 5 == 4:
            service.challenge(game_id, tokens[(p + 1) % 3], lexicon_of=lambda name: no_words)
        if turn == 20:
            service.undo_last_move(game_id, director, "test")
    cached, _, _ = service.get_game(game_id, None)
    folded = service.fold_rows(game_id, service.store.load(game_id, 0), record=True)
    for name in ("version", "racks", "bag", "scores", "turn", "status", "passes_in_a_row", "scoreless_turns"):
        assert getattr(cached, name) == getattr(folded, name), name
    assert cached.board == folded.board
    total = sum(len(r) for r in folded.racks) + len(folded.bag) + folded.board.tile_count
    assert total == rs.tile_set.total_tiles  # no tile made or lost
    record = folded.gcg_text()
    assert " -- -" in record and "director undid" in record and " -" in record  # withdrawals, the undo, exchanges
    report = replay(rs, parse_gcg(record))
    assert report.ok, [(line.event.text, line.problems) for line in report.disagreements]
    assert report.totals == folded.scores


def test_penalty_points_come_from_the_rule_set(service):
    text = load_rule_set("pl-scrabble").source_text.replace("rule = double", "rule = penalty").replace(
        "penalty-points = 0", "penalty-points = 5")
    rs = parse_rule_set(text, "penalty.rules")
    everything = type("AcceptAll", (), {"is_admissible": lambda self, key: True})()
    game_id, tokens, _, _ = service.create_game("pl-scrabble", rs, ["A", "B"], seed=5)
    state, _, _ = service.get_game(game_id, None)
    service.submit_move(game_id, tokens[0], play=find_play(rs, [], state.racks[0], max_tiles=2))
    outcome = service.challenge(game_id, tokens[1], lexicon_of=lambda name: everything)
    assert outcome.outcome == "penalty" and outcome.state.scores[1] == -5 and outcome.state.turn == 1
    with pytest.raises(Refused):
        service.challenge(game_id, tokens[1], lexicon_of=lambda name: everything)
    record = service.fold_rows(game_id, service.store.load(game_id, 0), record=True).gcg_text()
    assert ">B: (challenge) -5 -5" in record
    assert replay(rs, parse_gcg(record)).ok


def test_a_repeated_move_that_ended_the_game_is_answered_again(service):
    rs = load_rule_set("pl-scrabble")  # two rounds of passes end the game
    game_id, tokens, _, _ = service.create_game("pl-scrabble", rs, ["A", "B"], seed=2)
    for i, token in enumerate(tokens * 2):
        last = service.submit_move(game_id, token, pass_=True, request_id="r" if i == 3 else "")
    assert last.state.status == "ended" and last.rack
    # the lost answer's retry, with its request id (stored on the end of the game it caused), and without
    for again in (service.submit_move(game_id, tokens[1], pass_=True, request_id="r"),
                  service.submit_move(game_id, tokens[1], pass_=True)):
        assert again.replayed and again.version == last.version == again.state.version and again.rack == last.rack
    with pytest.raises(Refused) as refused:  # the other player's pass is no retry
        service.submit_move(game_id, tokens[0], pass_=True)
    assert refused.value.reason == "GAME_OVER"


def test_the_store_refuses_a_second_writer_at_the_same_version(make_store):
    first = make_store()
    second = make_store()  # another process's store, same file or database
    assert first.append("0123456789abcdef", 0, [("created", "{}")]) == 1
    assert first.append("0123456789abcdef", 1, [("pass", "{}")], request_id="r") == 2
    with pytest.raises(Conflict):
        second.append("0123456789abcdef", 1, [("pass", "{}")])
    assert [v for v, _, _ in second.load("0123456789abcdef")] == [1, 2]
    assert second.request_version("0123456789abcdef", "r") == 2


def test_no_token_starts_with_a_dash(service, monkeypatch):
    # token_urlsafe may start with '-', which `client game ... --game-token T` reads as an option
    import secrets as secrets_module
    drawn = iter(["-abc", "_def", "-ghi", "jkl", "-mno", "pqr", "stu"])
    monkeypatch.setattr(secrets_module, "token_urlsafe", lambda n: next(drawn))
    rs = load_rule_set("cs-scrabble")
    _, tokens, director, _ = service.create_game("cs-scrabble", rs, ["A", "B"], seed=1)
    assert [*tokens, director] == ["_def", "jkl", "pqr"]


def test_with_a_notifying_store_a_watcher_reads_the_store_only_when_its_game_changed(tmp_path):
    import threading
    import time

    from lexicon_service.games.store import SqliteStore

    class NotifyingStore(SqliteStore):  # as PostgresStore: tells of every server's appends
        loads = 0

        def subscribe(self, callback):
            self.publish = callback

        def load(self, game_id, after=0):
            self.loads += 1
            return super().load(game_id, after)

    store = NotifyingStore(tmp_path / "g.db", synchronous="OFF")
    service = GameSessions(store, clock=FakeClock())
    game_id, tokens, _, _ = service.create_game("pl-scrabble", load_rule_set("pl-scrabble"), ["A", "B"], seed=1)
    watching = threading.Event()
    watching.set()
    stream = service.watch(game_id, 0, watching.is_set, poll=0.02)
    assert next(stream)[1] == 1
    got = []
    reader = threading.Thread(target=lambda: got.extend(stream))
    reader.start()
    try:
        time.sleep(0.2)
        before = store.loads
        for _ in range(10):  # another game's appends, and time passing: no read
            store.publish("ffffffffffffffff")
            time.sleep(0.02)
        assert store.loads == before
        service.submit_move(game_id, tokens[0], pass_=True)  # this game's: read, delivered
        deadline = time.monotonic() + 5
        while not got and time.monotonic() < deadline:
            time.sleep(0.01)
        assert [version for _, version, _ in got] == [2] and store.loads > before
    finally:
        watching.clear()
        reader.join(5)
        store.close()
