"""A game against the computer from the game page in headless chromium: the person starts it (rule set,
lexicon, level), plays, exchanges and passes with the keyboard and the buttons, sees each of the computer's
replies (and its challenge of a phony) and the end; no rack but the person's is ever in the page or in what
the server sent it."""

from __future__ import annotations

import itertools
import json
import subprocess

import httpx
import pytest

from lexicon_service.http import HttpServer, create_app
from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import generate_moves
from lexicon_service.rules import Board, load_rule_set, parse_gcg
from lexicon_service.server import create_server
from tests.game_helpers import BUILD, build_lexicon, find_play, tiles_of, two_tile_play, two_tile_words

RULE_SET = "pl-scrabble"
EQUITY_LEXICON = "pl-scrabble-equity"  # the lexicon RULE_SET with a leave table
TWO = two_tile_words(RULE_SET)
# every word of two and three tiles: the board stays open for several turns
WORDS = TWO + ["".join(w) for w in itertools.product(sorted(set("".join(TWO))), repeat=3)]


@pytest.fixture(scope="module")
def game_web(tmp_path_factory):
    directory = tmp_path_factory.mktemp("e2e-computer-lexicons") / "lex"
    directory.mkdir()
    build_lexicon(directory, RULE_SET, WORDS)
    # the same words with a leave table (a few self-play games: enough for a table, and fast)
    with_leaves = directory / f"{EQUITY_LEXICON}.lex"
    subprocess.run([BUILD, "--rules", RULE_SET, "--words", str(directory.parent / f"{RULE_SET}.words.txt"),
                    "-o", str(with_leaves), "--name", EQUITY_LEXICON, "--quiet"], check=True, capture_output=True)
    subprocess.run([BUILD, "--leaves", str(with_leaves), "--games", "3", "--seed", "5", "--quiet"],
                   check=True, capture_output=True)
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


def _open_the_game_page(page, url) -> list:
    """The game page in English with RULE_SET chosen for a game against the computer; the list every request
    the page makes is added to (with its answer)."""
    finished = []
    page.on("requestfinished", lambda request: finished.append(request))
    # the test's one intervention: a seed, so that the racks (and the computer's moves) are the same every run
    page.route("**/v1/games", lambda route: route.continue_(
        post_data=json.dumps({**json.loads(route.request.post_data), "seed": "11"})))
    page.goto(url + "/games?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#newRuleSet", RULE_SET)
    return finished


def _end_showing_no_computer_rack(page, url, api, game_id, finished, person, least_racks):
    """Ends the game (as its director) once the page saw it; asserts that no rack the computer held (the
    record shows them all once the game has ended: at least `least_racks`) was ever in the page or in what
    the server sent it (`finished`: its requests), and that the racks it was sent were the person's own."""
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

    api.post(f"/v1/games/{game_id}:end", headers={"Authorization": f"Bearer {created['directorToken']}"},
             json={"reason": "e2e"}).raise_for_status()
    page.wait_for_selector("body[data-live-ended='1']")

    record = parse_gcg(api.get(f"/v1/games/{game_id}/record").json()["gcg"])
    computer = next(p for p in {e.player for e in record.events} if p != person)
    racks = {e.rack for e in record.events if e.player == computer and e.rack} | \
            {e.end_rack for e in record.events if e.player == computer and e.end_rack and e.score < 0}
    assert len(racks) >= least_racks, record.events
    for rack in racks:
        assert rack not in html
        for request, text in bodies:
            assert rack not in text, (rack, request.url)
    with api.stream("GET", f"/v1/games/{game_id}/events", headers={"X-Game-Token": token}) as events:
        stream = [json.loads(line[5:]) for line in events.iter_lines() if line.startswith("data:")]
    assert any(event.get("rack") for event in stream)
    for event in stream:
        assert not event.get("rack") or event.get("playerName") == person, event


def test_a_person_plays_the_computer_from_the_game_page(page, game_web, artifacts):
    url, lexicon_path = game_web
    rs = load_rule_set(RULE_SET)
    lexicon = load_lexicon(lexicon_path)
    finished = _open_the_game_page(page, url)
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

    _end_showing_no_computer_rack(page, url, api, game_id, finished, "Ann", least_racks=4)
    page.select_option("#lang", "en")
    assert page.locator("#playStatus").inner_text().startswith("Game over")
    assert page.locator("#playMove").is_disabled()
    api.close()


def test_the_equity_level_is_offered_with_a_leave_table_only(page, game_web, artifacts):
    """The level equity is enabled for the lexicon with a leave table and disabled, with a translated note,
    for the one without; a game at that level keeps the computer's racks out of the page as any other."""
    url, lexicon_path = game_web
    rs = load_rule_set(RULE_SET)
    lexicon = load_lexicon(lexicon_path)
    finished = _open_the_game_page(page, url)
    equity = page.locator("#newLevel option[value='equity']")

    assert page.locator("#newLexicon").input_value() == RULE_SET  # no leave table
    assert equity.is_disabled()
    assert page.locator("#newLevelNote").inner_text().startswith("The strongest level needs the lexicon's leave table")
    assert "lexicon-build --leaves" in page.locator("#newLevelNote").inner_text()
    page.select_option("#lang", "cs")
    assert page.locator("#newLevelNote").inner_text().startswith("Nejsilnější úroveň potřebuje tabulku")
    page.select_option("#lang", "pl")
    assert page.locator("#newLevelNote").inner_text().startswith("Najsilniejszy poziom wymaga tabeli")
    page.select_option("#lang", "en")

    page.select_option("#newLexicon", EQUITY_LEXICON)
    assert not equity.is_disabled()
    assert page.locator("#newLevelNote").inner_text() == ""
    page.select_option("#newLevel", "equity")
    page.screenshot(path=str(artifacts / "vs-computer-equity-offered.png"), full_page=True)
    page.locator("#newName").fill("Ann")
    page.locator("#newStart").click()
    page.wait_for_selector("body[data-your-turn='1']")
    created = next(json.loads(r.post_data) for r in finished if r.method == "POST" and r.url.endswith("/v1/games"))
    assert created["lexicon"] == EQUITY_LEXICON and created["computerPlayers"] == [{"seat": 1, "level": "equity"}]
    game_id = page.locator("#gameId").input_value()
    version, moves = int(page.evaluate("() => document.body.dataset.liveVersion")), 0
    api = httpx.Client(base_url=url, timeout=10)

    # three turns of the person's (the first play the move generator finds, else an exchange), each answered
    for _ in range(3):
        rows = api.get(f"/v1/games/{game_id}").json()["board"]
        board = Board.from_rows(rs, rows) if rows else Board.empty(rs)
        rack = page.locator("#rack").inner_text()
        play = next((m.play for m in generate_moves(rs, board, rack, lexicon, limit=5) if m.kind == "play"), None)
        if play:
            page.locator("#playText").fill(play)
            page.locator("#playMove").click()
        else:
            page.locator("#exchangeText").fill(rack[:2])
            page.locator("#exchangeMove").click()
        version, moves = _after_reply(page, version, moves)

    _end_showing_no_computer_rack(page, url, api, game_id, finished, "Ann", least_racks=3)
    api.close()
