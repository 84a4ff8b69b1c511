"""The pages in headless chromium, driven by the keyboard only: the word judge (a Polish word, a Czech word
typed in NFD, a Kris Kros word with the CH tile), the lookup, the game viewer, offline use."""

from __future__ import annotations

from tests.e2e.contrast import assert_contrast

import pytest

import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GCG = ROOT / "tests/data/gcg/kk-ch-bingo.gcg"


def judge_once(page, words: str) -> tuple[str, str, float]:
    """Type `words` into the judge, Enter; (verdict class, verdict text, ms from Enter to the verdict)."""
    box = page.locator("#words")
    box.focus()
    page.keyboard.press("Escape")
    page.keyboard.type(words)
    n = page.evaluate("window.judgeTimings.length")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.judgeTimings.length > {n}")
    timing = page.evaluate("window.judgeTimings[window.judgeTimings.length - 1]")
    verdict = page.locator("#verdict")
    return verdict.get_attribute("class"), verdict.inner_text().strip(), timing["shown"] - timing["sent"]


def test_judge_polish_by_keyboard(page, web_url, artifacts):
    page.goto(web_url + "/judge?lang=pl&clear=2")
    page.evaluate("localStorage.removeItem('judge.lexicon')")
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    # no lexicon chosen yet: the chooser has the focus; type-ahead picks pl-scrabble, Enter confirms
    assert page.evaluate("document.activeElement.id") == "lexicon"
    page.keyboard.type("pl")
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "words"
    assert "pl-scrabble" in page.locator("#inuse").inner_text()
    assert page.locator("footer").inner_text().startswith("Enter: sprawdź")

    cls, text, ms = judge_once(page, "żółw kot")
    assert "ok" in cls.split() and text.endswith("DOPUSZCZALNE") and "NIE" not in text
    print(f"judge: verdict {ms:.0f} ms after Enter")
    assert ms < 1000
    page.screenshot(path=str(artifacts / "judge-pl-acceptable.png"))
    assert_contrast(page, "/judge, an acceptable verdict")

    cls, text, _ = judge_once(page, "żółw zółw")
    assert "bad" in cls.split() and text.endswith("NIEDOPUSZCZALNE")
    assert "zółw" not in page.locator("main").inner_text().replace(page.input_value("#words"), "")
    page.screenshot(path=str(artifacts / "judge-pl-not-acceptable.png"))
    assert_contrast(page, "/judge, a refusal")
    # the verdict clears itself (here after 2 s), input included
    page.wait_for_function("() => document.getElementById('verdict').textContent === ''", timeout=5000)
    assert page.input_value("#words") == ""


def test_judge_czech_nfd_and_kriskros_ch(page, web_url, artifacts):
    page.goto(web_url + "/judge?lang=cs&lexicon=cs-scrabble")
    page.wait_for_selector("body[data-ready='1']")
    nfd = unicodedata.normalize("NFD", "kočka žluťoučký")
    assert len(nfd) > len("kočka žluťoučký")
    page.locator("#words").focus()
    page.keyboard.type(nfd)
    assert page.input_value("#words") == nfd  # the browser holds the decomposed text
    page.keyboard.press("Escape")
    cls, text, _ = judge_once(page, nfd)
    assert "ok" in cls.split() and text.endswith("PLATNÉ") and "NEPLATNÉ" not in text
    page.screenshot(path=str(artifacts / "judge-cs-nfd-acceptable.png"))
    cls, text, _ = judge_once(page, unicodedata.normalize("NFD", "kočkaa"))
    assert "bad" in cls.split() and text.endswith("NEPLATNÉ")

    # F2: choose another lexicon, by keyboard
    page.keyboard.press("F2")
    assert page.evaluate("document.activeElement.id") == "lexicon"
    page.keyboard.type("cs-k")
    page.keyboard.press("Enter")
    assert "cs-kriskros" in page.locator("#inuse").inner_text()
    cls, text, _ = judge_once(page, "chata cha")  # CH is one tile in Kris Kros
    assert "ok" in cls.split() and text.endswith("PLATNÉ")
    page.screenshot(path=str(artifacts / "judge-kriskros-ch-acceptable.png"))
    cls, text, _ = judge_once(page, "chata chatax")
    assert "bad" in cls.split() and text.endswith("NEPLATNÉ")
    page.screenshot(path=str(artifacts / "judge-kriskros-not-acceptable.png"))


def test_language_switch_by_keyboard(page, web_url):
    page.goto(web_url + "/judge?lang=cs&lexicon=pl-scrabble")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("footer").inner_text().startswith("Enter: posoudit")
    page.locator("#lang").focus()
    page.keyboard.type("English")
    assert page.locator("footer").inner_text().startswith("Enter: judge")
    assert page.evaluate("document.documentElement.lang") == "en"
    # the verdict stays in the game's language (Polish lexicon)
    cls, text, _ = judge_once(page, "kot")
    assert text.endswith("DOPUSZCZALNE")
    page.evaluate("localStorage.removeItem('lang')")


def test_lookup_explains_and_searches(page, web_url, artifacts):
    page.goto(web_url + "/lookup?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#lexicon", "cs-kriskros")
    page.locator("#word").focus()
    page.keyboard.type("chata")
    page.keyboard.press("Enter")
    page.wait_for_selector("#explanation table")
    assert page.locator("#verdict").inner_text() == "✓ ACCEPTABLE"  # the page's language, not the lexicon's
    assert "CH · A · T · A" in page.locator("#explanation").inner_text()
    assert "chata" in page.locator("#explanation table").inner_text()
    page.keyboard.press("Alt+s")
    page.locator("#query").focus()
    page.keyboard.type("CH?T*")
    page.locator("#mode").select_option("pattern")
    page.locator("#query").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#found li")
    assert sorted(page.locator("#found li").all_inner_texts()) == ["[CH]ATA", "[CH]ATY"]
    page.screenshot(path=str(artifacts / "lookup.png"))
    assert_contrast(page, "/lookup")


def test_game_viewer_draws_a_replayed_game(page, web_url, artifacts, tmp_path):
    page.goto(web_url + "/games?lang=cs")
    page.wait_for_selector("body[data-ready='1']")
    assert page.evaluate("document.activeElement.id") == "gcg"
    page.locator("#gcg").fill(GCG.read_text(encoding="utf-8"))  # as pasted
    page.keyboard.press("Control+Enter")
    page.wait_for_selector("body[data-shown='1']")
    board = page.locator("#board svg")
    assert board.locator("g.tile").count() == 19  # the last line: every tile on the board
    assert board.locator("text", has_text="3×S").count() >= 4  # premium squares drawn, labelled in Czech
    page.keyboard.press("Home")
    assert board.locator("g.tile").count() == 0
    page.keyboard.press("ArrowRight")
    assert board.locator("g.tile").count() == 4  # [CH]ATA
    assert board.locator("g.tile[data-square='D8'] text").first.text_content() == "CH"
    page.keyboard.press("ArrowRight")
    assert board.locator("g.tile").count() == 12
    assert board.locator("g.tile.blank").count() == 1  # the blank of DoPR.VNÍK
    assert board.locator("g.tile.new").count() == 8
    detail = page.locator("#detail").inner_text()
    assert "DoPR.VNÍK" in detail and "+90" in detail and "× 4" in detail
    page.screenshot(path=str(artifacts / "games.png"), full_page=True)
    assert_contrast(page, "the game viewer: the SVG board, the score detail")
    with page.expect_download() as download:
        page.keyboard.press("s")
    saved = tmp_path / "board.svg"
    download.value.save_as(saved)
    text = saved.read_text(encoding="utf-8")
    assert text.startswith("<svg") and text.count('class="tile') == 12
    (artifacts / "games-board.svg").write_text(text, encoding="utf-8")
    with page.expect_download() as download:
        page.keyboard.press("p")
    png = tmp_path / "board.png"
    download.value.save_as(png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    page.keyboard.press("ArrowLeft")
    assert board.locator("g.tile").count() == 4

    # the same record from a file
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#file", str(GCG))
    page.wait_for_selector("body[data-shown='1']")
    assert page.locator("#board svg g.tile").count() == 19


def test_game_viewer_shows_the_best_play_beside_the_played_one(page, web_url, artifacts):
    page.goto(web_url + "/games?lang=cs")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#gcg").fill(GCG.read_text(encoding="utf-8"))
    page.select_option("#lexicon", "cs-kriskros")       # its lexicon has a move graph: each turn is analysed
    page.locator("#show").click()
    page.wait_for_selector("body[data-shown='1']")
    page.locator("#board").focus()
    page.keyboard.press("Home")
    assert page.locator("#bestFigure").is_hidden()     # the empty board before the first turn
    page.keyboard.press("ArrowRight")
    assert page.locator("#bestFigure").is_visible()
    best = page.locator("#bestBoard svg")
    placed = best.locator("g.tile.new").count()
    assert placed >= 2 and best.locator("g.tile").count() == placed   # the first turn: on an empty board
    assert "Nejlepší tah: " in page.locator("#detail").inner_text()
    assert page.locator("#board svg g.tile").count() == 4         # the played [CH]ATA, as before
    page.screenshot(path=str(artifacts / "games-best.png"), full_page=True)


def test_judge_shell_works_offline_and_says_verdicts_need_the_server(page, web_url, browser_context):
    page.goto(web_url + "/judge?lang=en&lexicon=pl-scrabble")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # now under the service worker's control
    page.wait_for_selector("body[data-ready='1']")
    browser_context.set_offline(True)
    try:
        page.reload()
        page.wait_for_selector("body[data-ready='1']")
        assert "pl-scrabble" in page.locator("#inuse").inner_text()
        page.locator("#words").focus()
        page.keyboard.type("kot")
        page.keyboard.press("Enter")
        page.wait_for_selector("#status.error")
        assert "server" in page.locator("#status").inner_text()
        assert page.locator("#verdict").inner_text() == ""
    finally:
        browser_context.set_offline(False)


def test_game_viewer_offers_a_rule_set_for_a_record_without_rules(page, web_url, artifacts):
    """A pasted record without #rules, no lexicon chosen: the page offers the rule sets (the page's
    language's preselected) and replays under the one chosen, instead of refusing the record."""
    record = ">a: 8G KOT +10 10\n>b: - +0 0\n"
    page.goto(web_url + "/games?lang=pl")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#gcg").fill(record)
    assert page.locator("#ruleSetChoice").is_visible()
    assert page.locator("#ruleSet").input_value() == "pl-scrabble"
    assert "cs-scrabble" in page.locator("#ruleSet option").all_inner_texts()
    page.keyboard.press("Control+Enter")
    page.wait_for_selector("body[data-shown='1']")
    assert page.locator("#board svg g.tile").count() == 3
    assert page.locator("#status.error").count() == 0
    page.screenshot(path=str(artifacts / "games-rule-set-choice.png"), full_page=True)

    page.locator("#gcg").fill("#rules pl-scrabble\n" + record)  # the record names its rules: no choice
    assert not page.locator("#ruleSetChoice").is_visible()
    page.locator("#gcg").fill(record)
    page.locator("#lexicon").select_option("pl-scrabble")  # a lexicon brings its rule set
    assert not page.locator("#ruleSetChoice").is_visible()


def test_game_viewer_end_rack_option(page, web_url):
    """A record of the two-player 2x end (the PFS convention) agrees once the page's option says so."""
    page.goto(web_url + "/games?lang=pl")
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#gcg").fill("#rules pl-scrabble\n>a: 8G KOT +10 10\n>b: H7 O. +2 2\n>a: (ŹA) +20 30\n")
    page.keyboard.press("Control+Enter")
    page.wait_for_selector("body[data-shown='1']")
    assert page.locator("#summary p.problem").count() == 1
    page.evaluate("() => { delete document.body.dataset.shown; }")
    page.locator("#end2x").check()
    page.locator("#show").click()
    page.wait_for_selector("body[data-shown='1']")
    assert page.locator("#summary p.problem").count() == 0 and "20" in page.locator("#lines li").last.inner_text()


@pytest.mark.parametrize("lang, origin", [("cs", "z seznamu slov"), ("pl", "z listy słów")])
def test_lookup_and_judge_speak_the_page_language_and_show_the_server_reason(page, web_url, artifacts, lang, origin):
    """/lookup: the reading's origin in the page's language, a refused query said whole in the page's
    language (an unknown letter, with the letter and its position: the refusal's reason and values, not
    just INVALID_ARGUMENT nor the server's English); /judge and /lookup without English words in cs and pl."""
    from tests.e2e.english import assert_no_english

    page.goto(web_url + f"/lookup?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#lexicon", "cs-scrabble")
    page.locator("#word").fill("kočka")
    page.locator("#word").press("Enter")
    page.wait_for_selector("#explanation table")
    assert origin in page.locator("#explanation").inner_text()
    assert_no_english(page, allowed=["scrabble", "kriskros"])
    page.locator("#query").fill("@@@")
    page.locator("#query").press("Enter")
    page.wait_for_selector("#found-status.error")
    shown = page.locator("#found-status").inner_text()
    assert shown == {"cs": "Chyba: neznámé písmeno @ na pozici 1", "pl": "Błąd: nieznana litera @ na pozycji 1"}[lang], shown
    assert_no_english(page, allowed=["scrabble", "kriskros"])
    page.screenshot(path=str(artifacts / f"lookup-refusal-{lang}.png"))
    page.goto(web_url + f"/judge?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    assert_no_english(page, allowed=["scrabble", "kriskros"])


@pytest.mark.parametrize("lang", ["cs", "pl"])
def test_every_page_fits_a_phone_in_its_language(page, web_url, artifacts, lang):
    """At 390×844 nothing on /games (the lobby and the record panel), /judge, /lookup or /director is wider
    than the screen (the header's links wrap, the record's form stacks), and no English shows: the GCG file
    is opened by a label in the page's language, not by the browser's own "Choose File" button."""
    from tests.e2e.english import assert_no_english

    page.set_viewport_size({"width": 390, "height": 844})
    for path in ("games", "judge", "lookup", "director"):
        page.goto(web_url + f"/{path}?lang={lang}")
        page.wait_for_selector("body[data-ready='1']")
        wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > innerWidth + 0.5)
            .map(e => e.tagName + (e.id ? '#' + e.id : ''))""")
        assert not wide and page.evaluate("() => document.documentElement.scrollWidth") <= 390, (path, wide)
        assert_no_english(page)
        page.screenshot(path=str(artifacts / f"phone-{path}-{lang}.png"), full_page=True)
    page.goto(web_url + f"/games?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#file").bounding_box()["width"] <= 1   # the browser's button is not shown
    assert page.locator("label.file-button").inner_text() == {"cs": "Otevřít soubor GCG", "pl": "Otwórz plik GCG"}[lang]


BROKEN_RECORD_SAID = {
    "cs": ["Chyba: řádek 3 záznamu: chybné body „10x“ (čeká se např. +24 nebo -10)",
           "Chyba: záznam je podle pravidel cs-scrabble, ne pl-scrabble"],
    "pl": ["Błąd: wiersz 3 zapisu: błędne punkty „10x” (oczekiwano np. +24 lub -10)",
           "Błąd: zapis jest według zasad cs-scrabble, a nie pl-scrabble"],
}


@pytest.mark.parametrize("lang", ["cs", "pl"])
def test_game_viewer_says_why_a_record_is_refused_in_the_page_language(page, web_url, artifacts, lang):
    """A record the server cannot read (a bad score on line 3) or refuses (another rule set's): the reason
    is said whole in the page's language from the refusal's code and values, not the server's English."""
    from tests.e2e.english import assert_no_english

    page.goto(web_url + f"/games?lang={lang}")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#lexicon", "pl-scrabble")
    for record, said in zip(("#player1 a Ann\n#player2 b Bob\n>a: 8G KOT 10x 10\n",
                             "#rules cs-scrabble\n>a: 8G PES +10 10\n"), BROKEN_RECORD_SAID[lang]):
        page.locator("#gcg").fill(record)
        page.evaluate("() => { document.getElementById('status').textContent = ''; }")
        page.keyboard.press("Control+Enter")
        page.wait_for_function("() => document.getElementById('status').textContent.startsWith(t('error') + ': ')")
        assert page.locator("#status").inner_text() == said
        assert_no_english(page, allowed=["scrabble"])
    page.locator("#gcg").fill("#player1 a Ann\nxyz\n")
    page.locator("#show").click()
    page.wait_for_function("() => document.getElementById('status').textContent.includes('xyz')")
    page.screenshot(path=str(artifacts / f"games-record-refused-{lang}.png"))
