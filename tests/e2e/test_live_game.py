"""The game viewer following a live game in headless chromium: moves submitted over HTTP while the page
watches the game's event stream; the board is redrawn after each one."""

from __future__ import annotations

from tests.e2e.contrast import assert_contrast

import re

import httpx
import pytest

from lexicon_service.rules import load_rule_set
from tests.game_helpers import game_servers, tiles_of, two_tile_lexicons, two_tile_play

RULE_SET = "pl-scrabble"
DIRECTOR_KEY = "e2e-operator-key-0123456789"


@pytest.fixture(scope="module")
def game_web(tmp_path_factory):
    directory = two_tile_lexicons(tmp_path_factory.mktemp("e2e-game-lexicons"), [RULE_SET])
    with game_servers(directory, directory.parent / "games.db", director_key=DIRECTOR_KEY) as (_, _, web):
        yield web.url


def test_viewer_follows_a_live_game(page, game_web, artifacts):
    api = httpx.Client(base_url=game_web, timeout=10)
    game = api.post("/v1/games", json={"lexicon": RULE_SET, "playerNames": ["Ann", "Bob"], "seed": "4"}).json()
    gid, (ann, bob) = game["gameId"], game["playerTokens"]

    page.goto(game_web + "/games?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#gameId").focus()
    page.keyboard.type(gid)
    page.keyboard.press("Tab")
    page.keyboard.type(bob)  # Bob's token: his own events carry his rack
    page.keyboard.press("Enter")
    page.wait_for_selector("body[data-live-version='1']")
    assert not page.locator("#lines").is_visible()  # Bob plays: the record is one click away
    page.locator("#recordPanel summary").click()
    assert page.locator("#board g.tile").count() == 0
    status = page.locator("#liveStatus").inner_text()
    assert status.startswith(f"Following game {gid}") and "version" not in status   # no internal numbers

    rs = load_rule_set(RULE_SET)
    rack = api.get(f"/v1/games/{gid}", headers={"Authorization": f"Bearer {ann}"}).json()["rack"]
    play = two_tile_play(rs, tiles_of(rs, rack), "8H")
    moved = api.post(f"/v1/games/{gid}:move", headers={"Authorization": f"Bearer {ann}"}, json={"play": play})
    assert moved.status_code == 200, moved.text
    page.wait_for_selector("body[data-live-version='2']")
    squares = sorted(page.locator("#board g.tile.new").evaluate_all("els => els.map(e => e.dataset.square)"))
    assert squares == ["H8", "I8"]
    assert f"+{moved.json()['score']}" in page.locator("#detail h2").inner_text()
    assert play.split()[1] in page.locator("#lines").inner_text()

    api.post(f"/v1/games/{gid}:move", headers={"Authorization": f"Bearer {bob}"}, json={"pass": True}).raise_for_status()
    page.wait_for_selector("body[data-live-version='3']")
    bobs_rack = api.get(f"/v1/games/{gid}", headers={"Authorization": f"Bearer {bob}"}).json()["rack"]
    assert bobs_rack in page.locator("#liveStatus").inner_text()
    page.select_option("#lang", "cs")  # the status line follows the page's language, with the current rack
    assert page.locator("#liveStatus").inner_text() == f"Sleduji partii {gid} · Váš stojan: {bobs_rack}"
    assert page.locator("#lexicon option[value='']").inner_text() == "(bez slovníku: #rules záznamu)"
    page.select_option("#lang", "en")
    assert page.locator("#board g.tile").count() == 2 and page.locator("#board g.tile.new").count() == 0
    page.screenshot(path=str(artifacts / "viewer-live-game.png"), full_page=True)

    api.post(f"/v1/games/{gid}:end", headers={"Authorization": f"Bearer {game['directorToken']}"},
             json={"reason": "e2e"}).raise_for_status()
    page.wait_for_selector("body[data-live-ended='1']")
    assert "ended" in page.locator("#liveStatus").inner_text()
    api.close()


def _panel_rows(page) -> list[list[str]]:
    return page.locator("#livePlayers tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))")


def test_live_game_panel_for_directors(page, game_web, artifacts):
    """Whose turn, the clocks running down, the bag, the last move; scores 'so far' until the game has
    ended; a director's adjustment shown as one."""
    api = httpx.Client(base_url=game_web, timeout=10)
    game = api.post("/v1/games", json={"lexicon": RULE_SET, "playerNames": ["Ann", "Bob"], "seed": "5",
                                       "gameSeconds": 600}).json()
    gid, (ann, bob), director = game["gameId"], game["playerTokens"], game["directorToken"]
    page.goto(game_web + f"/games?lang=en&game={gid}")
    page.wait_for_selector("body[data-live-version='1']")
    rows = _panel_rows(page)
    assert [r[1] for r in rows] == ["Ann", "Bob"] and rows[0][0] == "▶" and rows[0][4] == "on turn" and rows[1][0] == ""
    assert rows[1][3] == "10:00"
    bag = api.get(f"/v1/games/{gid}").json()["bagCount"]
    assert f"Bag: {bag} tiles" in page.locator("#liveInfo").inner_text()
    # Ann's clock runs down between events (expect polls: the page's CSP refuses evaluated strings)
    from playwright.sync_api import expect      # here: without playwright the e2e tests are skipped, not broken

    expect(page.locator("#livePlayers tr.turn td.clock")).to_have_text(re.compile(r"^9:5\d$"), timeout=5000)

    rs = load_rule_set(RULE_SET)
    rack = api.get(f"/v1/games/{gid}", headers={"Authorization": f"Bearer {ann}"}).json()["rack"]
    play = two_tile_play(rs, tiles_of(rs, rack), "8H")
    api.post(f"/v1/games/{gid}:move", headers={"Authorization": f"Bearer {ann}"}, json={"play": play}).raise_for_status()
    page.wait_for_selector("body[data-live-version='2']")
    rows = _panel_rows(page)
    assert rows[1][0] == "▶" and rows[0][0] == "" and rows[0][2] != "0"
    assert f"Ann played {play} for " in page.locator("#announce").inner_text()
    assert page.locator("#summary caption").inner_text() == "Scores so far"

    adjusted = api.post(f"/v1/games/{gid}:adjustScore", headers={"Authorization": f"Bearer {director}"},
                        json={"player": 1, "delta": -3, "reason": "late"})
    assert adjusted.status_code == 200, adjusted.text
    page.wait_for_selector("body[data-live-version='3']")
    assert "(director adjustment)" in page.locator("#lines li").last.inner_text()
    assert _panel_rows(page)[1][2] == "-3"
    assert "The director changed Bob's score by -3: late" in page.locator("#announce").inner_text()
    assert "director adjustment" in page.locator("#detail h2").inner_text()
    page.screenshot(path=str(artifacts / "viewer-live-panel.png"), full_page=True)
    # a language switch says the announcements already shown again, in the new language
    page.select_option("#lang", "cs")
    assert f"Ann played {play}" not in page.locator("#announce").inner_text()
    assert "-3: late" in page.locator("#announce").inner_text()  # the director's reason stays as written
    page.select_option("#lang", "en")
    assert f"Ann played {play} for " in page.locator("#announce").inner_text()

    api.post(f"/v1/games/{gid}:end", headers={"Authorization": f"Bearer {director}"},
             json={"reason": "e2e"}).raise_for_status()
    page.wait_for_selector("body[data-live-status='GAME_STATUS_ENDED']")
    assert page.locator("#summary caption").inner_text() == "Final scores"
    assert page.locator("#liveInfo").inner_text().startswith("Game over")
    assert page.locator("#livePlayers tr.turn").count() == 0
    api.close()


@pytest.mark.parametrize("lang, not_found, not_your_turn", [
    ("cs", "nenalezeno (hra nebo slovník neexistuje) (NOT_FOUND)", "nejste na tahu (NOT_YOUR_TURN)"),
    ("pl", "nie znaleziono (nie ma takiej gry lub słownika) (NOT_FOUND)", "to nie twój ruch (NOT_YOUR_TURN)"),
])
def test_czech_and_polish_pages_translate_refusals(page, game_web, artifacts, lang, not_found, not_your_turn):
    """An error answer is shown by its code in the page's language: the status (a game that does not
    exist) and a game refusal's reason (a move out of turn, from its `lexicon-reason` header)."""
    api = httpx.Client(base_url=game_web, timeout=10)
    game = api.post("/v1/games", json={"lexicon": RULE_SET, "playerNames": ["Ann", "Bob"], "seed": "6"}).json()
    gid, bob = game["gameId"], game["playerTokens"][1]
    page.goto(game_web + f"/games?lang={lang}&game=0123456789abcdef")
    page.wait_for_selector("#liveStatus.problem")
    shown = page.locator("#liveStatus").inner_text()
    assert shown.endswith(": " + not_found) and "no game" not in shown
    page.screenshot(path=str(artifacts / f"viewer-live-refusal-{lang}.png"), full_page=True)

    refusal = page.evaluate("""async ([gid, token]) => {
        localStorage.setItem("token", token);
        try { await callApi("POST", `/v1/games/${gid}:move`, { pass: true }); return "accepted"; }
        catch (err) { return errorText(err); } finally { localStorage.removeItem("token"); }
    }""", [gid, bob])
    assert refusal.endswith(": " + not_your_turn) and "turn" not in refusal.replace("NOT_YOUR_TURN", "")
    api.close()


def test_director_console_adjusts_undoes_and_ends_games_live(browser_context, game_web, artifacts):
    """/director (cs): three live games at a glance; one opened: a score adjusted, the last move undone, the
    game ended as played; another ended with the racks deducted. Each is announced at once on the player's
    page and is a #note of the record; no English on the console."""
    from tests.e2e.english import assert_no_english

    api = httpx.Client(base_url=game_web, timeout=10)
    rs = load_rule_set(RULE_SET)
    games = [api.post("/v1/games", json={"lexicon": RULE_SET, "playerNames": ["Jan Novák", "Eva"], "seed": str(20 + i),
                                         "gameSeconds": 900}).json() for i in range(3)]
    first, second = games[0], games[1]
    jan = {"X-Game-Token": first["playerTokens"][0]}
    rack = api.get(f"/v1/games/{first['gameId']}", headers=jan).json()["rack"]
    api.post(f"/v1/games/{first['gameId']}:move", headers=jan,
             json={"play": two_tile_play(rs, tiles_of(rs, rack), "8H")}).raise_for_status()

    player = browser_context.new_page()
    player.goto(game_web + "/games?lang=cs")
    player.wait_for_selector("body[data-ready='1']")
    player.locator("#gameId").fill(first["gameId"])
    player.locator("#gameToken").fill(first["playerTokens"][1])  # Eva, on turn
    player.locator("#follow").click()
    player.wait_for_selector("body[data-your-turn='1']")

    console = browser_context.new_page()
    console.goto(game_web + "/director?lang=cs")
    console.wait_for_selector("body[data-ready='1']")
    for game in games:
        console.locator("#addId").fill(game["gameId"])
        console.locator("#addToken").fill(game["directorToken"])
        console.locator("#addToken").press("Enter")
    console.wait_for_function("() => document.querySelectorAll('#games .card').length === 3")
    assert console.locator(f".card[data-game='{first['gameId']}'] .mini span.t").count() == 2
    assert "Jan Novák" in console.locator("#games").inner_text()
    console.screenshot(path=str(artifacts / "director-console-cs.png"), full_page=True)
    assert_no_english(console)
    assert_contrast(console, "/director")

    def record(game):
        return api.get(f"/v1/games/{game['gameId']}/record", headers={"X-Game-Token": game["directorToken"]}).json()["gcg"]

    console.locator(f".card[data-game='{first['gameId']}']").click()
    console.locator("#adjustPlayer").select_option("1")
    console.locator("#adjustDelta").fill("5")
    console.locator("#adjustReason").fill("pozdní zápis")
    console.locator("#adjustForm button").click()
    player.wait_for_function("() => document.getElementById('announce').textContent.includes('o +5: pozdní zápis')")
    assert "#note director adjustment: pozdní zápis" in record(first)

    console.locator("#undoReason").fill("překlep")
    console.locator("#undoForm button").click()
    player.wait_for_function("() => document.getElementById('announce').textContent.includes('Poslední tah vrácen rozhodčím: překlep')")
    assert "director undid the move" in record(first)

    console.locator("#endReason").fill("sál se zavírá")
    console.locator("#endForm button").click()
    player.wait_for_selector("#endPanel:not([hidden])")
    assert "ukončeno rozhodčím: sál se zavírá" in player.locator("#endReason").inner_text()
    assert "#note director ended the game, as played: sál se zavírá" in record(first)
    scores = [p.get("score", 0) for p in api.get(f"/v1/games/{first['gameId']}").json()["players"]]
    assert scores == [0, 5]  # Jan's play undone, Eva's adjustment kept; no rack deducted
    player.screenshot(path=str(artifacts / "game-cs-ended-by-director.png"))
    assert_contrast(player, "the game page ended by the director")

    console.locator(f".card[data-game='{second['gameId']}']").click()
    console.locator("#endReason").fill("nedostavil se")
    console.locator("#endForm input[value='racks-deducted']").check()
    console.locator("#endForm button").click()
    console.wait_for_function("() => document.getElementById('panelState').textContent.includes('odečteny')")
    assert "#note director ended the game, racks deducted: nedostavil se" in record(second)
    assert all(p.get("score", 0) < 0 for p in api.get(f"/v1/games/{second['gameId']}").json()["players"])
    assert_no_english(console)
    console.screenshot(path=str(artifacts / "director-console-ended-cs.png"), full_page=True)
    assert_contrast(console, "/director, a game opened and ended")
    player.close()
    console.close()
    api.close()


# per language: the refusal of a wrong key, the scope line, the adjustment's reason
KEY_CONSOLE = {
    "cs": ("tento token na to nemá právo", "Všechny rozehrané partie na serveru", "pozdní zápis",
           "Chyba: úprava skóre musí být nenulový počet bodů, nejvýš ±10000"),
    "pl": ("ten token nie ma do tego prawa", "Wszystkie trwające gry na serwerze", "spóźniony zapis",
           "Błąd: korekta wyniku musi być niezerową liczbą punktów, najwyżej ±10000"),
    "en": ("the token is not the server's director key", "Every game in progress on the server", "late entry",
           "Error: INVALID_ARGUMENT: delta: a non-zero number of points within ±10000"),
}
DESKTOP, PHONE = {"width": 1366, "height": 768}, {"width": 390, "height": 844}


def _fits_the_width(console) -> None:
    """Nothing wider than the viewport: the page scrolls down only, every card and form is inside it."""
    width = console.evaluate("() => window.innerWidth")
    assert console.evaluate("() => document.documentElement.scrollWidth") <= width
    for selector in ("#games .card", "#keyForm", "#addGame", "#panel"):
        boxes = [b for b in console.locator(selector).evaluate_all(
            "els => els.filter(e => !e.hidden).map(e => e.getBoundingClientRect().right)")]
        assert all(right <= width + 0.5 for right in boxes), (selector, boxes, width)


@pytest.mark.parametrize("lang", ["cs", "pl", "en"])
def test_director_console_with_the_server_key_shows_every_game(browser_context, game_web, artifacts, lang):
    """/director with the server's director key, in each language, at 1366×768 and on a phone (390×844): a
    wrong key is refused in the page's language and shows nothing; the key lists every game in progress
    (none added by token here), directs one (an adjustment recorded), and is kept for the tab only, never in
    the page's text. No English on the cs and pl console, nothing wider than the screen."""
    from tests.e2e.english import assert_no_english

    refused, scope, reason, no_points = KEY_CONSOLE[lang]
    check_language = assert_no_english if lang != "en" else (lambda page: None)
    api = httpx.Client(base_url=game_web, timeout=10)
    names = [["Zofia Wiśniewska", "Łukasz"], ["Anna", "Piotr Nowak"], ["Jan Novák", "Eva"], ["Ola", "Ela"]]
    games = [api.post("/v1/games", json={"lexicon": RULE_SET, "playerNames": pair, "seed": str(40 + i)}).json()
             for i, pair in enumerate(names)]
    rs = load_rule_set(RULE_SET)
    for game in games[:2]:  # two games under way: tiles on their mini-boards
        token = {"X-Game-Token": game["playerTokens"][0]}
        rack = api.get(f"/v1/games/{game['gameId']}", headers=token).json()["rack"]
        api.post(f"/v1/games/{game['gameId']}:move", headers=token,
                 json={"play": two_tile_play(rs, tiles_of(rs, rack), "8H")}).raise_for_status()

    console = browser_context.new_page()
    console.set_viewport_size(DESKTOP)
    console.goto(game_web + f"/director?lang={lang}&games=" + ",".join(g["gameId"] for g in games))
    console.wait_for_selector("body[data-ready='1']")
    console.locator("#serverKey").fill("not-the-key-0123456789")
    console.locator("#serverKey").press("Enter")
    console.wait_for_function("said => document.getElementById('keyStatus').textContent.includes(said)", arg=refused)
    assert console.locator("#games .card").count() == 0 and console.locator("#keyForget").is_hidden()
    check_language(console)

    console.locator("#serverKey").fill(DIRECTOR_KEY)
    console.locator("#serverKey").press("Enter")
    console.wait_for_function("() => document.querySelectorAll('#games .card').length === 4")
    assert console.locator("#scope").inner_text() == scope
    assert console.locator(f".card[data-game='{games[0]['gameId']}'] .mini span.t").count() == 2
    assert "Zofia Wiśniewska" in console.locator("#games").inner_text()
    assert DIRECTOR_KEY not in console.content() and console.evaluate("() => localStorage.getItem('directorKey')") is None
    check_language(console)
    assert_contrast(console, f"/director with the server's key ({lang})")
    _fits_the_width(console)
    console.screenshot(path=str(artifacts / f"director-console-key-{lang}.png"), full_page=True)

    console.set_viewport_size(PHONE)  # a phone: the cards one under another, the forms wrapped
    console.wait_for_function("() => window.innerWidth === 390")
    _fits_the_width(console)
    check_language(console)
    console.screenshot(path=str(artifacts / f"director-console-key-{lang}-phone.png"), full_page=True)

    console.locator(f".card[data-game='{games[1]['gameId']}']").click()
    console.locator("#adjustPlayer").select_option("1")
    console.locator("#adjustDelta").fill("0")  # refused, said with the bound in the page's language
    console.locator("#adjustReason").fill(reason)
    console.locator("#adjustForm button").click()
    console.wait_for_function("() => document.getElementById('panelNote').className === 'problem'")
    assert console.locator("#panelNote").inner_text().startswith(no_points)
    console.locator("#adjustDelta").fill("3")
    console.locator("#adjustForm button").click()
    console.wait_for_function("() => document.getElementById('panelNote').className === 'done'")
    record = api.get(f"/v1/games/{games[1]['gameId']}/record", headers={"X-Game-Token": DIRECTOR_KEY}).json()["gcg"]
    assert f"#note director adjustment: {reason}" in record
    # the panel's events refresh after the answer: wait for the adjustment's line, not for any line
    console.wait_for_function("why => document.getElementById('events').innerText.includes(why)", arg=reason)
    _fits_the_width(console)
    check_language(console)
    assert_contrast(console, f"/director on a phone, a game opened ({lang})")
    console.locator("#panel").screenshot(path=str(artifacts / f"director-console-key-{lang}-phone-panel.png"))
    console.close()
    api.close()
