"""The tournament page /t/<id> in headless chromium: standings, the round's tables with a live score, each
game one click away; in cs, pl and en (screenshots written for each)."""

from __future__ import annotations

import httpx
import pytest

from lexicon_service.http import HttpServer, create_app
from lexicon_service.server import create_server
from tests.e2e.contrast import assert_contrast
from tests.lexicon_helpers import write_ab_lexicon

PLAYERS = ["Nováková Eva", "Dvořák Jan", "Wiśniewska Zofia", "Łukasz Żółkiewski"]


@pytest.fixture(scope="module")
def tournament_web(tmp_path_factory):
    directory = tmp_path_factory.mktemp("e2e-tournament") / "lex"
    directory.mkdir()
    write_ab_lexicon(directory, ["aa", "ab", "ba", "bb", "aab", "abba", "baba"])
    srv, _ = create_server("localhost:0", directory, games_db=str(directory.parent / "games.db"))
    srv.start()
    web = HttpServer(create_app(srv.registry, servicers={"session": srv.game_sessions,
                                                         "tournament": srv.tournament_servicer}), "localhost:0").start()
    yield web.url
    web.stop()
    srv.stop(None).wait()


def _tournament_with_a_live_round(url: str) -> tuple[str, str]:
    api = httpx.Client(base_url=url, timeout=30)
    created = api.post("/v1/tournaments", json={"name": "Turniej Łódź 2026", "lexicon": "pl-tiny", "rounds": 3,
                                                "seed": "3"}).json()
    tid, key = created["tournamentId"], {"X-Director-Key": created["directorKey"]}
    api.post(f"/v1/tournaments/{tid}/players", headers=key,
             json={"players": [{"name": n, "rating": 1500} for n in PLAYERS]}).raise_for_status()
    api.post(f"/v1/tournaments/{tid}/rounds:pair", headers=key, json={}).raise_for_status()
    tables = api.post(f"/v1/tournaments/{tid}/rounds:start", headers=key, json={"round": 1}).json()["tables"]
    first = tables[0]
    api.post(f"/v1/tournaments/{tid}/results", headers=key, json={
        "round": 1, "table": tables[1]["table"], "score1": 212, "score2": 187,
        "reason": "played on a board"}).raise_for_status()
    token = first["seats"][0]["token"]
    rack = api.get(f"/v1/games/{first['gameId']}", headers={"Authorization": f"Bearer {token}"}).json()["rack"]
    moved = api.post(f"/v1/games/{first['gameId']}:move", headers={"Authorization": f"Bearer {token}"},
                     json={"play": "8H " + rack[:2]})
    assert moved.status_code == 200, moved.text
    return tid, first["gameId"]


def test_standings_page_in_three_languages(page, tournament_web, artifacts):
    tid, game_id = _tournament_with_a_live_round(tournament_web)
    expected = {"en": ("Standings", "Round 1 of 3", "watch"), "cs": ("Pořadí", "Kolo 1 z 3", "sledovat"),
                "pl": ("Klasyfikacja", "Runda 1 z 3", "oglądaj")}
    for lang, (standings, round_title, watch) in expected.items():
        page.goto(f"{tournament_web}/t/{tid}?lang={lang}")
        page.wait_for_selector("body[data-ready='1']")
        page.wait_for_selector("#standings table")
        assert page.locator("#standings-h").inner_text() == standings
        assert page.locator("#round-h").inner_text() == round_title
        assert page.locator("header h1").inner_text() == "Turniej Łódź 2026"
        rows = page.locator("#standings tbody tr").all_inner_texts()
        assert len(rows) == 4 and rows[0].split("\t")[1] in PLAYERS
        tables = page.locator("#tables tbody tr").all_inner_texts()
        assert "212 : 187" in " ".join(tables)
        live = page.locator("#tables tr.live").inner_text()
        assert " : 0" in live and not live.split("\t")[2].startswith("0 :")  # the first play's points, live
        assert page.locator(f"#tables a[href='/games?game={game_id}']").inner_text() == watch
        page.screenshot(path=str(artifacts / f"tournament-{lang}.png"), full_page=True)
        if lang == "pl":
            assert_contrast(page, "the standings page")
    page.locator(f"#tables a[href='/games?game={game_id}']").click()
    page.wait_for_url(f"**/games?game={game_id}")
    page.wait_for_selector("body[data-ready='1']")


def test_unknown_tournament_says_so(page, tournament_web):
    page.goto(f"{tournament_web}/t/0123456789ab?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    assert "NOT_FOUND" in page.locator("#status").inner_text() or "not found" in page.locator("#status").inner_text()
