"""The pages say the server's notes in their language. The game viewer says a replay's notes and problems in the page's language: the server sends them as
codes with values (ReplayNote), the page's tables say them. Scanned against the English table at every
step of two records: a Kris Kros bingo with a joker on word premiums (whose author's English #note lines
are shown as written, marked as the record's own text), and a Polish record with a wrong score, a wrong
total, a word the lexicon refuses and an illegal exchange."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexicon_service.movegen.analysis import TurnAnalysis, note_text
from tests.e2e.english import assert_no_english

ROOT = Path(__file__).resolve().parents[2]
BINGO = (ROOT / "tests/data/gcg/kk-ch-bingo.gcg").read_text(encoding="utf-8")
# KOT scored 10 (9 recorded, and a total that does not add up), KOTX refused by the lexicon, an exchange
# of tiles not on the rack, and the game over by passes
# (and the #note AnalyseGame's annotated record writes after a turn)
ANALYSED = note_text(TurnAnalysis(1, 4, "a", "KOTAAAA", "8G KOT", 10, False, "8G KOTA", 12, 2))
DISAGREEING = f"""#rules pl-scrabble
#player1 a Anna
#player2 b Bartek
>a: KOTAAAA 8G KOT +9 10
#note {ANALYSED}
>b: XEEEEEE H8 .X +20 20
>b: ABCDEFG -ZZ +0 20
"""


def _every_step(page, lang, artifacts, name):
    page.locator("#board").focus()
    page.keyboard.press("Home")
    assert_no_english(page)
    for _ in range(page.locator("#lines li").count()):
        page.keyboard.press("ArrowRight")
        assert_no_english(page)
    page.screenshot(path=str(artifacts / f"games-notes-{name}-{lang}.png"), full_page=True)


def _show(page, url, record, lexicon=None):
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#gcg").fill(record)
    if lexicon:
        page.select_option("#lexicon", lexicon)
    page.locator("#show").click()
    page.wait_for_selector("body[data-shown='1']")


@pytest.mark.parametrize("lang", ["cs", "pl"])
def test_replay_notes_in_the_page_language(page, web_url, artifacts, lang):
    _show(page, web_url + f"/games?lang={lang}", BINGO)
    page.locator("#board").focus()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")   # DoPR.VNÍK: the bingo, the joker, two DW squares
    record_note = page.locator('#detail q[translate="no"]')
    assert record_note.count() == 1 and record_note.inner_text().startswith("All 8 tiles")
    _every_step(page, lang, artifacts, "bingo")

    _show(page, web_url + f"/games?lang={lang}", DISAGREEING, lexicon="pl-scrabble")
    problems = page.locator("#lines li.bad").count()
    assert problems >= 2
    page.locator("#board").focus()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    detail = page.locator("#detail").inner_text()
    said = {"cs": "zapsáno +9 bodů, spočteno +10", "pl": "zapisano +9 pkt, obliczono +10"}[lang]
    assert said in detail, detail
    best = {"cs": "rozbor: nejlepší tah 8G KOTA +12, ztraceny 2 body",
            "pl": "analiza: najlepszy ruch 8G KOTA +12, straconych punktów: 2"}
    assert best[lang] in detail, detail
    _every_step(page, lang, artifacts, "problems")


@pytest.mark.parametrize("lang", ["cs", "pl"])
def test_lookup_says_an_unknown_letter_and_a_bad_length_in_the_page_language(page, web_url, artifacts, lang):
    """ExplainWord's message comes with its code and values (message_code, message_values): /lookup says
    "unknown letter" and "too many tiles" in the page's language, with the letter and the counts."""
    page.goto(web_url + f"/lookup?lang={lang}&lexicon=cs-scrabble")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#lexicon", "cs-scrabble")
    expected = {"cs": ("neznámé písmeno ß na pozici 4", "16 kamenů; slova mají 2 až 15 kamenů"),
                "pl": ("nieznana litera ß na pozycji 4", "16 płytek; słowa mają od 2 do 15 płytek")}[lang]
    for word, said in zip(("pesß", "kočkakočkakočkap"), expected):
        page.locator("#word").fill(word)
        page.keyboard.press("Enter")
        page.wait_for_function("said => document.querySelector('#explanation').innerText.includes(said)", arg=said)
        assert_no_english(page)
    page.screenshot(path=str(artifacts / f"lookup-bad-length-{lang}.png"))


# A rackless line with a play the board refuses, and a rack of 10 tiles (4 blanks) with a wrong score: the
# analysis can find no best move for either, so its note quotes the line's problems (one of them, a rack's
# size, holds "; " itself)
QUOTING = """#rules pl-scrabble
#player1 a Anna
#player2 b Bartek
>a: KOTAAAA 8G KOT +9 9
>b: 8F ZA +4 4
>a: AAAA?????? 9G A +2 11
"""


@pytest.mark.parametrize("lang, no_rack, mismatch, blanks, score", [
    ("cs", "rozbor: záznam neuvádí stojan; neplatný tah: tah nesouhlasí s deskou",
     "rozbor: stojan AAAA??????: tahy pro něj nelze hledat; stojan AAAA?????? má kameny",
     "které už ve hře nejsou: ????", "zapsány +2 body, spočteno +4"),
    ("pl", "analiza: zapis nie podaje stojaka; niedozwolony ruch: ruch nie zgadza się z planszą",
     "analiza: stojak AAAA??????: nie można szukać dla niego ruchów; stojak AAAA?????? ma płytki",
     "których w grze już nie ma: ????", "zapisano +2 pkt, obliczono +4"),
])
def test_an_analysis_note_quoting_the_replay_problems_in_the_page_language(page, web_url, artifacts, lang, no_rack,
                                                                          mismatch, blanks, score):
    """AnalyseGame's annotated record, viewed with its lexicon: a turn with no best move has a #note that
    quotes why (the analysis's own reason and the line's replay problems). Each quoted part is said from the
    note as data (code and values: the line's ReplayNotes, the turn's TurnAnalysis.note_details), not only
    the note's prefix."""
    import httpx

    analysed = httpx.post(web_url + "/v1/games:analyse", json={"gcg": QUOTING, "lexicon": "pl-scrabble"}, timeout=20)
    assert analysed.status_code == 200, analysed.text
    turns = analysed.json()["turns"]
    assert [d["code"] for d in turns[1]["noteDetails"]] == ["no-rack-in-record", "illegal-play"]
    assert [d["code"] for d in turns[2]["noteDetails"]] == ["rack-not-searched", "rack-tiles-gone", "score-mismatch"]
    assert "; ".join(d["text"] for d in turns[2]["noteDetails"]) == turns[2]["note"]
    _show(page, web_url + f"/games?lang={lang}", analysed.json()["annotatedGcg"], lexicon="pl-scrabble")
    page.locator("#board").focus()
    page.keyboard.press("Home")
    notes = []
    for _ in range(3):
        page.keyboard.press("ArrowRight")
        notes.append(page.locator("#detail q").all_inner_texts())
        assert_no_english(page)
    assert notes[1] == [no_rack], notes
    assert notes[2][0].startswith(mismatch) and blanks in notes[2][0] and notes[2][0].endswith(score), notes
    page.screenshot(path=str(artifacts / f"games-analysis-note-{lang}.png"), full_page=True)
