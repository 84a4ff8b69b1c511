"""A game against the computer from the game page in headless chromium: the person starts it (rule set,
lexicon, level), plays, exchanges and passes with the keyboard and the buttons, sees each of the computer's
replies (and its challenge of a phony) and the end; no rack but the person's is ever in the page or in what
the server sent it."""

from __future__ import annotations

import itertools
import json
import re
import subprocess

import httpx
import pytest

from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import generate_moves
from lexicon_service.rules import Board, load_rule_set, parse_gcg, validate_move
from tests.e2e.contrast import assert_contrast
from tests.e2e.english import assert_no_english
from tests.game_helpers import BUILD, build_lexicon, find_play, game_servers, tiles_of, two_tile_words

RULE_SET = "pl-scrabble"
EQUITY_LEXICON = "pl-scrabble-equity"  # the lexicon RULE_SET with a leave table and a win table
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
    for table in ("--leaves", "--win-table"):  # the win table: a hint that looks ahead has win chances
        subprocess.run([BUILD, table, str(with_leaves), "--games", "3", "--seed", "5", "--quiet"],
                       check=True, capture_output=True)
    with game_servers(directory, directory.parent / "games.db") as (_, _, web):
        yield web.url, directory / f"{RULE_SET}.lex"


def _scores(page) -> list[int]:
    rows = page.locator("#livePlayers tr").evaluate_all("rows => rows.map(r => [...r.cells].map(c => c.textContent))")
    return [int(row[2]) for row in rows]


def _version(page) -> int:
    return int(page.evaluate("() => document.body.dataset.liveVersion"))


def _after_reply(page, version: int) -> int:
    """Waits until the game moved on from `version` and it is the person's turn again (or the game ended)."""
    page.wait_for_function("v => Number(document.body.dataset.liveVersion) > v && "
                           "(document.body.dataset.yourTurn === '1' || document.body.dataset.ended === '1')", arg=version)
    return _version(page)


def _rack(page) -> str:
    """The person's rack as the page shows its tiles, in rack notation."""
    tiles = page.locator("#rackTiles .rack-tile").evaluate_all("els => els.map(e => e.dataset.tile)")
    return "".join(f"[{t}]" if len(t) > 1 else t for t in tiles)


def _open_the_game_page(page, url, lang="en") -> list:
    """The game page with RULE_SET chosen for a game against the computer; the list every request the page
    makes is added to (with its answer)."""
    finished = []
    page.on("requestfinished", lambda request: finished.append(request))
    # the test's interventions: a seed, so that the racks (and the computer's moves) are the same every run,
    # and a director (the page asks for none), so that a test can end the game
    page.route("**/v1/games", lambda route: route.continue_(
        post_data=json.dumps({**json.loads(route.request.post_data), "seed": "11", "directorGame": True})))
    page.goto(url + f"/games?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#newRuleSet", RULE_SET)
    return finished


def _no_computer_rack_shown(page, url, api, game_id, finished, person, least_racks, before_end=None):
    """Asserts that no rack the computer held (the record shows them all once the game has ended: at least
    `least_racks`) was in the page or in what the server sent it (`finished`: its requests) while the game
    was on (`before_end`: the page and the number of requests at the last turn before the end), and that
    the racks it was sent were the person's own."""
    html, count = before_end or (page.content(), len(finished))
    bodies = []
    for request in finished[:count]:
        if request.url.startswith(url + "/v1/") and "/events" not in request.url:
            response = request.response()
            bodies.append((request, response.text() if response is not None else ""))
    created = next(json.loads(text) for request, text in bodies
                   if request.method == "POST" and request.url.endswith("/v1/games"))
    token = created["playerTokens"][0]
    for request, text in bodies:
        if '"rack"' in text and json.loads(text).get("rack"):
            assert request.headers.get("x-game-token") == token, request.url  # only the person's own view
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
    return created


def _end_by_director(page, api, game_id, created):
    api.post(f"/v1/games/{game_id}:end", headers={"Authorization": f"Bearer {created['directorToken']}"},
             json={"reason": "e2e"}).raise_for_status()
    page.wait_for_selector("body[data-ended='1']")


class Brain:
    """What the person decides each turn (the move generator's best play on the board as it stands); the
    test's hands are the mouse or the keyboard."""

    def __init__(self, api, game_id, rs, lexicon, finished=()):
        self.api, self.game_id, self.rs, self.lexicon, self.finished = api, game_id, rs, lexicon, finished

    def state(self) -> dict:
        return self.api.get(f"/v1/games/{self.game_id}").json()

    def board(self, state) -> Board:
        rows = state["board"]
        return Board.from_rows(self.rs, rows) if rows else Board.empty(self.rs)

    def placements(self, state, rack, phony=False):
        """(row, column, letter, blank) of the play to make, or None; `phony`: a play of four tiles or more
        (no word here has four: a phony the computer challenges off)."""
        board = self.board(state)
        if phony:
            play = find_play(self.rs, board.to_rows(), tiles_of(self.rs, rack))
        else:
            play = next((m.play for m in generate_moves(self.rs, board, rack, self.lexicon, limit=5)
                         if m.kind == "play"), None)
        if play is None:
            return None
        return validate_move(self.rs, board.copy(), None, play).placements


def _square(r: int, c: int) -> str:
    return f"{chr(65 + c)}{r + 1}"


def _place_with_the_mouse(page, placements):
    for r, c, letter, blank in placements:
        page.locator(f"#rackTiles .rack-tile[data-tile='{'?' if blank else letter}']:not(.used)").first.click()
        page.locator(f".sq[data-square='{_square(r, c)}']").click()
        if blank:
            page.locator("#blankLetters button").get_by_text(letter, exact=True).click()
    page.wait_for_function("() => document.body.dataset.preview && document.body.dataset.preview !== 'bad'")
    page.locator("#playGo").click()


def _press_letter(page, letter: str, shift: bool):
    """A key of a Polish keyboard (ó, ż ... are keys there; Playwright's press knows only US keys)."""
    if letter.isascii():
        page.keyboard.press(("Shift+" if shift else "") + letter)
        return
    cdp = page.context.new_cdp_session(page)
    shown = letter.upper() if shift else letter
    cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": shown, "text": shown, "modifiers": 8 if shift else 0})
    cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": shown, "modifiers": 8 if shift else 0})
    cdp.detach()


def _place_with_the_keyboard(page, placements):
    """Arrows to the first square, Space for the direction, the letters typed (board tiles skipped), Enter."""
    r0, c0 = min((r, c) for r, c, _l, _b in placements)
    down = len({c for _r, c, _l, _b in placements}) == 1 and len(placements) > 1
    r, c, direction = page.locator("#playBoard").get_attribute("data-cursor").split(",")
    for _ in range(abs(int(r) - r0)):
        page.keyboard.press("ArrowDown" if r0 > int(r) else "ArrowUp")
    for _ in range(abs(int(c) - c0)):
        page.keyboard.press("ArrowRight" if c0 > int(c) else "ArrowLeft")
    if (direction == "down") != down:
        page.keyboard.press("Space")
    for _r, _c, letter, blank in sorted(placements):
        _press_letter(page, letter.lower(), blank)
    page.wait_for_function("() => document.body.dataset.preview && document.body.dataset.preview !== 'bad'")
    page.keyboard.press("Enter")


def _tab_to(page, element_id: str):
    for _ in range(30):
        if page.evaluate("() => document.activeElement.id") == element_id:
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached #{element_id}")


def _play_to_the_end(page, brain, hands, *, phony_at=None, shots=None, max_turns=80):
    """The person's turns until the game ends: the brain's play placed by `hands`, else an exchange or a
    pass (by the same hands); `phony_at`: the turn that plays a phony instead. Returns the turns played and
    the page and the number of requests it made at the last turn before the end."""
    version, before_end = _version(page), None
    for turn in range(max_turns):
        if page.evaluate("() => document.body.dataset.ended") == "1":
            return turn, before_end
        before_end = (page.content(), len(brain.finished))
        state = brain.state()
        if state["status"] == "GAME_STATUS_ENDED" or state["turn"] != 0:  # the page is about to show it
            page.wait_for_function("v => Number(document.body.dataset.liveVersion) >= v", arg=int(state["version"]))
            continue
        # the page must show the position the brain decides on (its rack comes from the page)
        page.wait_for_function("v => Number(document.body.dataset.liveVersion) >= v", arg=int(state["version"]))
        rack = _rack(page)
        if shots and turn >= 2:  # mid-game: tiles on the board, the person on turn, the game not over
            shots()
            shots = None
        placements = None
        if state["status"] != "GAME_STATUS_AWAITING_FINAL_PASS":
            placements = brain.placements(state, rack, phony=turn == phony_at)
        if placements:
            hands(page, placements)
        elif hands is _place_with_the_mouse:
            page.locator("#passMove").click()
        else:
            _tab_to(page, "passMove")
            page.keyboard.press("Enter")
        version = _after_reply(page, version)
    raise AssertionError("the game did not end")


def _assert_fits(page, width, height):
    """Board, rack and play buttons inside the viewport without scrolling."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("() => window.scrollTo(0, 0)")
    for selector in ("#playBoard", "#rackTiles", "#actions"):
        box = page.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width + 0.5 \
            and box["y"] + box["height"] <= height + 0.5, (selector, box, width, height)


def _assert_the_end(page, api, game_id):
    """The end shows the winner and every final score (with the end-of-game adjustments), the play controls
    are gone, and the best moves of the game are one click away."""
    page.wait_for_selector("#endPanel:not([hidden])")
    assert not page.locator("#actions").is_visible() and not page.locator("#rackTiles").is_visible()
    state = api.get(f"/v1/games/{game_id}").json()
    finals = [p.get("score", 0) for p in state["players"]]
    rows = page.locator("#endScores tr").evaluate_all("rows => rows.slice(1).map(r => [...r.cells].map(c => c.textContent))")
    assert [int(row[3]) for row in rows] == finals
    winner = state["players"][finals.index(max(finals))]["name"]
    assert winner in page.locator("#winner").inner_text() or finals.count(max(finals)) > 1
    assert any(row[2] != "0" for row in rows)  # the racks left at the end were counted
    assert not page.locator("#gcg").is_visible()  # the record is one click away, not on the screen


def _assert_analysis(page):
    page.locator("#analyse").click()
    page.wait_for_function("() => document.getElementById('recordPanel').open && document.body.dataset.shown === '1'")
    page.wait_for_function("() => typeof view === 'object' && view.steps.some(s => s.best && s.best.best)")


def test_a_whole_game_with_the_mouse_only(page, game_web, artifacts):
    """cs page: each play placed by clicks (rack tile, then square; a blank's letter from the dialog), one
    phony the computer challenges off (announced), passes when no play; to the end; the end screen."""
    url, lexicon_path = game_web
    rs = load_rule_set(RULE_SET)
    page.set_viewport_size({"width": 1366, "height": 768})
    finished = _open_the_game_page(page, url, "cs")
    page.locator("#newName").fill("Jan")
    page.locator("#newStart").click()
    page.wait_for_selector("body[data-your-turn='1']")
    game_id = page.locator("#gameId").input_value()
    api = httpx.Client(base_url=url, timeout=10)
    _assert_fits(page, 1366, 768)
    brain = Brain(api, game_id, rs, load_lexicon(lexicon_path), finished)

    def mid_game():
        page.screenshot(path=str(artifacts / "game-cs-mid.png"))
        assert_no_english(page)
        assert_contrast(page, "the cs game page mid-game")

    turns, before_end = _play_to_the_end(page, brain, _place_with_the_mouse, phony_at=2, shots=mid_game)
    assert turns >= 5
    record = api.get(f"/v1/games/{game_id}/record").json()["gcg"]
    assert "challenged by Počítač" in record or "Počítač" in record
    announced = page.locator("#announce").inner_text()
    _assert_the_end(page, api, game_id)
    assert_no_english(page)
    page.screenshot(path=str(artifacts / "game-cs-end.png"))
    _no_computer_rack_shown(page, url, api, game_id, finished, "Jan", least_racks=3, before_end=before_end)
    _assert_analysis(page)
    assert_no_english(page)
    assert_contrast(page, "the cs game page's analysis")
    assert announced
    api.close()


def test_a_whole_game_with_the_keyboard_only(page, game_web, artifacts):
    """pl page: the game started, every play typed on the board (arrows, Space, letters, Enter) and every
    pass reached with Tab, to the end."""
    url, lexicon_path = game_web
    rs = load_rule_set(RULE_SET)
    page.set_viewport_size({"width": 1366, "height": 768})
    _open_the_game_page(page, url, "pl")
    page.locator("#newName").focus()
    page.keyboard.press("Control+a")
    page.keyboard.type("Zażółć Gęślą")
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-your-turn='1']")
    game_id = page.locator("#gameId").input_value()
    assert page.evaluate("() => document.activeElement.id") == "playBoard"
    api = httpx.Client(base_url=url, timeout=10)
    brain = Brain(api, game_id, rs, load_lexicon(lexicon_path))

    def mid_game():
        page.screenshot(path=str(artifacts / "game-pl-mid.png"))
        assert_no_english(page)
        assert_contrast(page, "the pl game page mid-game")

    _play_to_the_end(page, brain, _place_with_the_keyboard, shots=mid_game)
    _assert_the_end(page, api, game_id)
    assert_no_english(page)
    assert_contrast(page, "the pl game page at the end")
    page.screenshot(path=str(artifacts / "game-pl-end.png"))
    assert "Zażółć Gęślą" in page.locator("#endScores").inner_text()
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
    assert page.locator("#newLevelNote").inner_text().startswith("The level that counts the tiles kept needs the lexicon's leave table")
    assert "lexicon-build --leaves" in page.locator("#newLevelNote").inner_text()
    page.select_option("#lang", "cs")
    assert page.locator("#newLevelNote").inner_text().startswith("Úroveň, která počítá s ponechanými kameny, potřebuje tabulku")
    page.select_option("#lang", "pl")
    assert page.locator("#newLevelNote").inner_text().startswith("Poziom, który liczy zostawione płytki, wymaga tabeli")
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
    version = _version(page)
    api = httpx.Client(base_url=url, timeout=10)

    # three turns of the person's (the first play the move generator finds, else a pass), each answered
    brain = Brain(api, game_id, rs, lexicon)
    for _ in range(3):
        placements = brain.placements(brain.state(), _rack(page))
        if placements:
            _place_with_the_mouse(page, placements)
        else:
            page.locator("#passMove").click()
        version = _after_reply(page, version)

    before_end = (page.content(), len(finished))
    created = next(json.loads(r.response().text()) for r in finished if r.method == "POST" and r.url.endswith("/v1/games"))
    _end_by_director(page, api, game_id, created)
    _no_computer_rack_shown(page, url, api, game_id, finished, "Ann", least_racks=3, before_end=before_end)
    api.close()


# The first board of a followed game, drawn after the navigation starts: the target (issue 33) on the median
# of a few loads, so that one load slowed by a busy CI machine does not decide it (docs/service.md).
FIRST_BOARD_MS, FIRST_BOARD_LOADS = 500, 5


def test_the_game_page_on_a_phone_its_weight_and_first_board(page, game_web, artifacts):
    """390x844: board, rack and play buttons visible without scrolling; the page (all its files inline) is
    at most 300 KB; a game's board is drawn soon after the page starts loading."""
    url, _ = game_web
    page.set_viewport_size({"width": 390, "height": 844})
    _open_the_game_page(page, url, "pl")
    page.locator("#newName").fill("Jan Kowalski")
    page.locator("#newHints").check()  # a game with hints: the Hint button shows
    page.locator("#newStart").click()
    page.wait_for_selector("body[data-your-turn='1']")
    _assert_fits(page, 390, 844)
    page.screenshot(path=str(artifacts / "game-phone-pl.png"))
    assert_contrast(page, "the pl game page on a phone")
    page.locator("#hintMove").click()
    page.wait_for_function("() => document.getElementById('preview').textContent.startsWith('Podpowiedź: ')")
    # a hinted exchange or pass is said by its name, not as notated ("-ABC", "-")
    assert page.evaluate("() => ['-', '-ĄB', '8F ENÓ'].map(hintMoveText)") == ["pas", "wymiana ĄB", "8F ENÓ"]
    # an exchange of two tiles chosen on the rack
    version = _version(page)
    page.locator("#exchangeStart").click()
    for tile in page.locator("#rackTiles .rack-tile").all()[:2]:
        tile.click()
    assert page.locator("#exchangeGo").inner_text() == "Wymień 2"
    page.locator("#exchangeGo").click()
    _after_reply(page, version)
    assert "-" in page.locator("#gcg").input_value().split(">Jan_Kowalski:")[1].split("\n")[0]
    weight = len(httpx.get(url + "/games", timeout=10).content)  # the page holds its stylesheet and scripts
    assert weight <= 300_000, weight
    game_id = page.locator("#gameId").input_value()
    drawn = []
    for _ in range(FIRST_BOARD_LOADS):
        page.goto(url + f"/games?lang=pl&game={game_id}")
        page.wait_for_selector("body[data-board-drawn]")
        drawn.append(int(page.evaluate("() => document.body.dataset.boardDrawn")))  # ms after navigation start
    median = sorted(drawn)[len(drawn) // 2]
    print(f"\n/games weight {weight} bytes; first board drawn {drawn} ms after the navigation started, "
          f"median {median} ms")
    assert median <= FIRST_BOARD_MS, drawn


# a hinted move's win chance and mean spread as the language writes them: a decimal comma, "62,5 %" in Czech
# (a no-break space before %), "62,5%" in Polish (CLDR's pattern, the browser's Intl.NumberFormat)
OUTLOOK = {"cs": r"šance na výhru (\d+,\d)\u00a0%, průměrný rozdíl ([+−-]?\d+,\d)",
           "pl": r"szansa na wygraną (\d+,\d)%, średnia różnica ([+−-]?\d+,\d)"}


def _hint_says_the_outlook(page, finished, lang) -> None:
    """Each move of a hint that looked ahead is shown with the win chance and the mean spread the API gave."""
    hint = next(r for r in finished if "/hint?" in r.url and "simulate=true" in r.url).response().json()
    title, *lines = page.locator("#preview").inner_text().split("\n")
    assert title == page.evaluate("() => t('hint')") + ":"
    assert hint["outlooks"] and len(lines) == len(hint["moves"]) == len(hint["outlooks"]), (lines, hint)
    for line, outlook in zip(lines, hint["outlooks"]):
        said = re.search(OUTLOOK[lang], line)
        assert said, line
        win, spread = (float(x.replace(",", ".").replace("−", "-")) for x in said.groups())
        assert abs(win - 100 * outlook["winChance"]) <= 0.051 and abs(spread - outlook["meanSpread"]) <= 0.051, (line, outlook)


@pytest.mark.parametrize("lang", ["cs", "pl"])
def test_a_game_against_the_computer_that_looks_ahead(page, game_web, artifacts, lang):
    """The level simulating, offered with the leave table's lexicon only: a game started at that level, a
    hint ranked by simulation (the look-ahead box beside the Hint button), one play of the person's and the
    computer's answer in the record; no English on the page."""
    url, lexicon_path = game_web
    page.set_viewport_size({"width": 1366, "height": 768})
    finished = _open_the_game_page(page, url, lang)
    simulating = page.locator("#newLevel option[value='simulating']")
    assert page.locator("#newLexicon").input_value() == RULE_SET and simulating.is_disabled()
    assert page.evaluate("() => t('simulatingUnavailable')") in page.locator("#newLevelNote").inner_text()
    page.screenshot(path=str(artifacts / f"game-simulating-lobby-{lang}.png"))
    page.select_option("#newLexicon", EQUITY_LEXICON)
    assert not simulating.is_disabled() and page.locator("#newLevelNote").inner_text() == ""
    page.select_option("#newLevel", "simulating")
    page.locator("#newName").fill("Jan")
    page.locator("#newHints").check()
    page.locator("#newStart").click()
    page.wait_for_selector("body[data-your-turn='1']")
    created = next(json.loads(r.post_data) for r in finished if r.method == "POST" and r.url.endswith("/v1/games"))
    assert created["computerPlayers"] == [{"seat": 1, "level": "simulating"}]

    page.locator("#hintAhead").check()
    page.locator("#hintMove").click()
    hint = page.evaluate("() => t('hint')")
    page.wait_for_function("h => document.getElementById('preview').textContent.startsWith(h + ':')", arg=hint)
    _hint_says_the_outlook(page, finished, lang)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    page.locator("#preview").scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / f"game-hint-ahead-phone-{lang}.png"))
    page.set_viewport_size({"width": 1366, "height": 768})

    game_id = page.locator("#gameId").input_value()
    api = httpx.Client(base_url=url, timeout=10)
    brain = Brain(api, game_id, load_rule_set(RULE_SET), load_lexicon(lexicon_path))
    placements = brain.placements(brain.state(), _rack(page))
    version = _version(page)
    if placements:
        _place_with_the_mouse(page, placements)
    else:
        page.locator("#passMove").click()
    _after_reply(page, version)
    computer = page.evaluate("() => t('computerName')")
    state = api.get(f"/v1/games/{game_id}").json()
    assert state["players"][1]["computerLevel"] == "simulating" and state["players"][1]["name"] == computer
    answered = [line for line in page.locator("#gcg").input_value().splitlines() if line.startswith(f">{computer}:")]
    assert answered, page.locator("#gcg").input_value()  # the computer's move in the game's record
    assert computer in page.locator("#announce").inner_text()
    assert_no_english(page)
    page.screenshot(path=str(artifacts / f"game-simulating-{lang}.png"))
    api.close()
