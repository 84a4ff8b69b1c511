"""Kris Kros at the table: CH is one tile, typed as C then H; the 60-second move timer counts down where the
player sees it."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.game_helpers import game_servers, two_tile_lexicons

RULE_SET = "cs-kriskros"


@pytest.fixture(scope="module")
def kk_web(tmp_path_factory):
    directory = two_tile_lexicons(tmp_path_factory.mktemp("e2e-kk-lexicons"), [RULE_SET])
    with game_servers(directory, directory.parent / "games.db") as (_, _, web):
        yield web.url


def _game_with_ch_on_the_first_rack(api):
    for seed in range(200):
        game = api.post("/v1/games", json={"lexicon": RULE_SET, "playerNames": ["Jan", "Eva"], "seed": str(seed)}).json()
        rack = api.get(f"/v1/games/{game['gameId']}", headers={"X-Game-Token": game["playerTokens"][0]}).json()["rack"]
        if "[CH]" in rack and "C" not in rack.replace("[CH]", ""):
            return game, rack
    raise AssertionError("no seed deals CH")


def test_ch_is_typed_as_c_then_h_and_the_move_timer_counts_down(page, kk_web, artifacts):
    from playwright.sync_api import expect

    api = httpx.Client(base_url=kk_web, timeout=10)
    game, rack = _game_with_ch_on_the_first_rack(api)
    page.goto(kk_web + "/games?lang=cs")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#gameId").fill(game["gameId"])
    page.locator("#gameToken").fill(game["playerTokens"][0])
    page.locator("#follow").click()
    page.wait_for_selector("body[data-your-turn='1']")
    expect(page.locator("#moveTimer")).to_have_text(re.compile(r"^Čas na tah: 0:5\d$"), timeout=5000)
    page.locator("#playBoard").focus()
    page.keyboard.press("c")
    page.keyboard.press("h")
    cursor = page.locator("#playBoard").get_attribute("data-cursor")
    square = page.locator(".sq .tile.placed b")
    assert square.count() == 1 and square.first.inner_text() == "CH", rack
    assert page.locator("#rackTiles .rack-tile.used").get_attribute("data-tile") == "CH"
    page.wait_for_function("() => document.body.dataset.preview !== undefined")
    assert cursor.split(",")[2] == "across"
    page.screenshot(path=str(artifacts / "kriskros-ch-cs.png"))
    api.close()
