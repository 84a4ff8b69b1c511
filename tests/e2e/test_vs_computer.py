"""A game against the computer from the game page in headless chromium: the person starts it (rule set,
lexicon, level), plays, exchanges and passes with the keyboard and the buttons, sees each of the computer's
replies (and its challenge of a phony) and the end; no rack but the person's is ever in the page or in what
the server sent it."""

from __future__ import annotations

import itertools
import json

import httpx
import pytest

from lexicon_service.http import HttpServer, create_app
from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import generate_moves
from lexicon_service.rules import Board, load_rule_set, parse_gcg
from lexicon_service.server import create_server
from tests.game_helpers import build_lexicon, find_play, tiles_of, two_tile_play, two_tile_words

RULE_SET = "pl-scrabble"
TWO = two_tile_words(RULE_SET)
# every word of two and three tiles: the board stays open for several turns
WORDS = TWO + ["".join(w) for w in itertools.product(sorted(set("".join(TWO))), repeat=3)]


@pytest.fixture(scope="module")
def game_web(tmp_path_factory):
    directory = tmp_path_factory.mktemp("e2e-computer-lexicons") / "lex"
    directory.mkdir()
    build_lexicon(directory, RULE_SET, WORDS)
    srv, _ = create_server("localhost:0", directory, games_db=str(directory.parent / "games.db"))
    srv.start()
    web = HttpServer(create_app(srv.registry, servicers={"session": srv.game_sessions}), "localhost:0").start()
    yield web.url, directory / f"{RULE_SET}.lex"
    web.stop()
    srv.stop(None).wait()


def _scores(page) -> list[int]:
    rows = page.locator("#livePlayers tr").evaluate_all("rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    return [int(row[2]) for row in rows]


def _computer_moves(page) -> int:
    return page.locator("#gcg").input_value().count(">Computer:")


def _after_reply(page, version: int, moves: int) -> tuple[int, int]:
    """Waits until the game moved on from `version` and it is the person's turn again; asserts the computer
    made one move meanwhile. The new version and the computer's moves."""
    page.wait_for_function("v => Number(document.body.dataset.liveVersion) > v && "
                           "document.body.dataset.yourTurn === '1'", arg=version)
    assert _computer_moves(page) == moves + 1, page.locator("#gcg").input_value()
    return int(page.evaluate("() => document.body.dataset.liveVersion")), moves + 1


def test_a_person_plays_the_computer_from_the_game_page(page, game_web, artifacts):
    url, lexicon_path = game_web
    rs = load_rule_set(RULE_SET)
    lexicon = load_lexicon(lexicon_path)
    finished = []  # every request the page made, with its answer
    page.on("requestfinished", lambda request: finished.append(request))
    # the test's one intervention: a seed, so that the racks (and the computer's moves) are the same every run
    page.route("**/v1/games", lambda route: route.continue_(
        post_data=json.dumps({**json.loads(route.request.post_data), "seed": "11"})))

    page.goto(url + "/games?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#newRuleSet", RULE_SET)
    assert page.locator("#newLexicon").input_value() == RULE_SET
    page.select_option("#newLevel", "best")
    page.locator("#newName").fill("Ann")
    page.locator("#newName").press("Enter")
    page.wait_for_selector("body[data-your-turn='1']")
    game_id = page.locator("#gameId").input_value()
    assert page.locator("#playStatus").inner_text() == "Your turn"
    version, moves = int(page.evaluate("() => document.body.dataset.liveVersion")), 0
    api = httpx.Client(base_url=url, timeout=10)

    def board():  # as an observer sees it
        rows = api.get(f"/v1/games/{game_id}").json()["board"]
        return Board.from_rows(rs, rows) if rows else Board.empty(rs)

    # 1. a play typed with the keyboard
    page.locator("#playText").type(two_tile_play(rs, tiles_of(rs, page.locator("#rack").inner_text()), "8H"))
    page.keyboard.press("Enter")
    version, moves = _after_reply(page, version, moves)
    ann, computer = _scores(page)
    assert ann > 0 and computer > 0  # the computer answered with a play
    assert page.locator("#board g.tile").count() > 2
    assert ">Computer:" in page.locator("#gcg").input_value()

    # 2. an exchange
    rack = page.locator("#rack").inner_text()
    page.locator("#exchangeText").fill(rack[:2])
    page.locator("#exchangeMove").click()
    version, moves = _after_reply(page, version, moves)
    assert _scores(page)[0] == ann

    # 3. a pass
    page.locator("#passMove").click()
    version, moves = _after_reply(page, version, moves)

    # 4. a play found on the board as it stands
    rack = page.locator("#rack").inner_text()
    play = next(m.play for m in generate_moves(rs, board(), rack, lexicon, limit=5) if m.kind == "play")
    page.locator("#playText").fill(play)
    page.locator("#playMove").click()
    version, moves = _after_reply(page, version, moves)
    assert _scores(page)[0] > ann and _scores(page)[1] >= computer
    assert page.locator("#livePlayers").inner_text().count("Computer") == 1

    # 5. a phony (no word here has four tiles): the computer challenges it off, then moves
    ann = _scores(page)[0]
    phony = find_play(rs, board().to_rows(), tiles_of(rs, page.locator("#rack").inner_text()))
    assert sum(c not in "." for c in phony.split()[1]) >= 4, phony
    page.locator("#playText").fill(phony)
    page.locator("#playText").press("Enter")
    version, moves = _after_reply(page, version, moves)
    assert _scores(page)[0] == ann
    assert " -- -" in page.locator("#lines").inner_text()  # withdrawn
    assert "challenged by Computer" in page.locator("#gcg").input_value()

    # a refusal is shown in the page's language, and nothing changes
    page.select_option("#lang", "cs")
    assert "Váš stojan" in page.locator("#playPanel").inner_text()
    page.locator("#playText").fill("8H " + page.locator("#rack").inner_text()[:2])  # on occupied squares
    page.locator("#playText").press("Enter")
    page.wait_for_function("() => document.getElementById('playNote').textContent.startsWith('Chyba')")
    assert int(page.evaluate("() => document.body.dataset.liveVersion")) == version
    page.screenshot(path=str(artifacts / "vs-computer.png"), full_page=True)

    # what the page holds and was sent while the game is on
    html = page.content()
    bodies = []
    for request in finished:
        if request.url.startswith(url + "/v1/") and not request.url.endswith("/events"):
            response = request.response()
            bodies.append((request, response.text() if response is not None else ""))
    created = next(json.loads(text) for request, text in bodies
                   if request.method == "POST" and request.url.endswith("/v1/games"))
    token = created["playerTokens"][0]
    for request, text in bodies:
        if '"rack"' in text and json.loads(text).get("rack"):
            assert request.headers.get("x-game-token") == token, request.url  # only the person's own view

    # the end, seen in the page
    api.post(f"/v1/games/{game_id}:end", headers={"Authorization": f"Bearer {created['directorToken']}"},
             json={"reason": "e2e"}).raise_for_status()
    page.wait_for_selector("body[data-live-ended='1']")
    page.select_option("#lang", "en")
    assert page.locator("#playStatus").inner_text().startswith("Game over")
    assert page.locator("#playMove").is_disabled()

    # every rack the computer held (the record shows them all once the game has ended)
    record = parse_gcg(api.get(f"/v1/games/{game_id}/record").json()["gcg"])
    racks = {e.rack for e in record.events if e.player == "Computer" and e.rack} | \
            {e.end_rack for e in record.events if e.player == "Computer" and e.end_rack and e.score < 0}
    assert len(racks) >= 4, record.events
    for rack in racks:
        assert rack not in html
        for request, text in bodies:
            assert rack not in text, (rack, request.url)
    with api.stream("GET", f"/v1/games/{game_id}/events", headers={"X-Game-Token": token}) as events:
        stream = [json.loads(line[5:]) for line in events.iter_lines() if line.startswith("data:")]
    assert any(event.get("rack") for event in stream)
    for event in stream:
        assert not event.get("rack") or event.get("playerName") == "Ann", event
    api.close()
