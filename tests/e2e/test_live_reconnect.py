"""The game page keeps following a game whose event stream the server ends idle (`serve --stream-idle`):
it watches again after the last version it saw, with nothing shown to the player; before, the page
took the end of the stream for the end of the game and stopped following."""

from __future__ import annotations

import httpx
import pytest

from lexicon_service.rules import load_rule_set
from tests.game_helpers import game_servers, tiles_of, two_tile_lexicons, two_tile_play

RULE_SET = "pl-scrabble"
IDLE = 1.0


@pytest.fixture(scope="module")
def idle_web(tmp_path_factory):
    directory = two_tile_lexicons(tmp_path_factory.mktemp("e2e-idle-lexicons"), [RULE_SET])
    with game_servers(directory, directory.parent / "games.db", stream_idle=IDLE) as (_, _, web):
        yield web.url


def test_page_follows_on_after_the_server_ends_an_idle_stream(page, idle_web, artifacts):
    api = httpx.Client(base_url=idle_web, timeout=10)
    game = api.post("/v1/games", json={"lexicon": RULE_SET, "playerNames": ["Ann", "Bob"], "seed": "4",
                                       "directorGame": True}).json()
    gid, (ann, bob) = game["gameId"], game["playerTokens"]
    page.goto(idle_web + "/games?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    page.fill("#gameId", gid)
    page.fill("#gameToken", bob)
    page.press("#gameToken", "Enter")
    page.wait_for_selector("body[data-live-version='1']")
    following = page.locator("#liveStatus").inner_text()
    assert following.startswith(f"Following game {gid}")

    page.wait_for_timeout(IDLE * 3.5 * 1000)  # the server has ended the page's stream idle at least twice
    assert page.evaluate("() => document.body.dataset.liveEnded") is None
    assert page.locator("#liveStatus").inner_text() == following  # no error, no "polling", no "ended"

    rs = load_rule_set(RULE_SET)
    rack = api.get(f"/v1/games/{gid}", headers={"Authorization": f"Bearer {ann}"}).json()["rack"]
    moved = api.post(f"/v1/games/{gid}:move", headers={"Authorization": f"Bearer {ann}"},
                     json={"play": two_tile_play(rs, tiles_of(rs, rack), "8H")})
    assert moved.status_code == 200, moved.text
    page.wait_for_selector("body[data-live-version='2']", timeout=5_000)  # by the stream, not a 2 s poll
    assert sorted(page.locator("#board g.tile.new").evaluate_all("els => els.map(e => e.dataset.square)")) == \
        ["H8", "I8"]
    assert page.locator("#announce li").count() == 1
    assert page.locator("#liveStatus").inner_text().startswith(f"Following game {gid}")
    page.screenshot(path=str(artifacts / "live-after-idle-streams-en.png"), full_page=True)
    for lang, following in (("cs", "Sleduji partii"), ("pl", "Śledzę grę")):  # no words of its own: the page's
        page.select_option("#lang", lang)
        assert page.locator("#liveStatus").inner_text().startswith(f"{following} {gid}")
        page.screenshot(path=str(artifacts / f"live-after-idle-streams-{lang}.png"), full_page=True)
    page.select_option("#lang", "en")

    api.post(f"/v1/games/{gid}:end", headers={"Authorization": f"Bearer {game['directorToken']}"},
             json={"reason": "e2e"}).raise_for_status()
    page.wait_for_selector("body[data-live-ended='1']")
    assert "ended" in page.locator("#liveStatus").inner_text()
    api.close()
