"""A count's noun in the form the count needs, in the browser: the page's tables say a counted noun in
ICU MessageFormat's plural and i18n.js picks the form with Intl.PluralRules (tests/test_i18n_plurals.py
checks the tables). Rendered by the pages' own t() with 1, 2, 5, 22 and 1.5 in Czech and Polish, and a real
search's count on /lookup."""

from __future__ import annotations

import pytest

from tests.test_i18n_plurals import CATEGORIES

COUNTS = [1, 2, 5, 22, 1.5]
SAID = {
    "cs": {
        "bagCount": ["V sáčku: 1 kámen", "V sáčku: 2 kameny", "V sáčku: 5 kamenů", "V sáčku: 22 kamenů",
                     "V sáčku: 1,5 kamene"],
        "evPenalty": ["Trest 1 bod.", "Trest 2 body.", "Trest 5 bodů.", "Trest 22 bodů.", "Trest 1,5 bodu."],
        "pointsGivenAway": ["1 ztracený bod", "2 ztracené body", "5 ztracených bodů", "22 ztracených bodů",
                            "1,5 ztraceného bodu"],
        "found": ["1 slovo", "2 slova", "5 slov", "22 slov", "1,5 slova"],
    },
    "pl": {
        "bagCount": ["W worku: 1 płytka", "W worku: 2 płytki", "W worku: 5 płytek", "W worku: 22 płytki",
                     "W worku: 1,5 płytki"],
        "evPenalty": ["Kara 1 punkt.", "Kara 2 punkty.", "Kara 5 punktów.", "Kara 22 punkty.", "Kara 1,5 punktu."],
        "pointsGivenAway": ["1 stracony punkt", "2 stracone punkty", "5 straconych punktów", "22 stracone punkty",
                            "1,5 straconego punktu"],
        "found": ["1 słowo", "2 słowa", "5 słów", "22 słowa", "1,5 słowa"],
    },
}
# a search on the tiny lexicons of conftest.WORDS: the pattern and the count it finds, said
SEARCHES = {
    "cs": ("cs-scrabble", [("PES", "1 slovo"), ("P*", "2 slova"), ("*", "6 slov")]),
    "pl": ("pl-scrabble", [("KOT", "1 słowo"), ("K*", "2 słowa"), ("*", "8 słów")]),
}


def _said(page, key, vars_):
    return page.evaluate("([key, vars]) => t(key, vars)", [key, vars_])


@pytest.mark.parametrize("lang", ["cs", "pl"])
def test_a_count_says_its_noun_in_the_form_it_needs(page, web_url, artifacts, lang):
    lexicon, searches = SEARCHES[lang]
    page.goto(web_url + f"/lookup?lang={lang}&lexicon={lexicon}")
    page.wait_for_selector("body[data-ready='1']")
    categories = page.evaluate("lang => new Intl.PluralRules(lang).resolvedOptions().pluralCategories", lang)
    assert set(categories) == CATEGORIES[lang]
    assert set(page.evaluate("() => new Intl.PluralRules('en').resolvedOptions().pluralCategories")) == CATEGORIES["en"]
    for key, expected in SAID[lang].items():
        assert [_said(page, key, {"n": n}) for n in COUNTS] == expected, key
    # a server note's count (values as strings), a record's refusal with a large count formatted
    assert _said(page, "rn_rack-count", {"tiles": "22", "expected": "7"}).startswith(
        {"cs": "stojan má 22 kamenů;", "pl": "stojak ma 22 płytki;"}[lang])
    refusal = page.evaluate("() => recordErrorText({reason: 'GCG_TOO_LONG', values: {chars: '1024', max: '1000'}})")
    assert refusal.startswith({"cs": "záznam má 1\u00a0024 znaků", "pl": "zapis ma 1024 znaki"}[lang]), refusal

    page.select_option("#lexicon", lexicon)
    page.locator("#mode").select_option("pattern")
    for pattern, said in searches:
        page.locator("#query").fill(pattern)
        page.locator("#query").press("Enter")
        page.wait_for_function("said => document.querySelector('#found-status').innerText === said", arg=said)
    page.screenshot(path=str(artifacts / f"lookup-found-{lang}.png"))


def test_english_says_one_and_many(page, web_url):
    page.goto(web_url + "/lookup?lang=en")
    page.wait_for_selector("body[data-ready='1']")
    assert [_said(page, "bagCount", {"n": n}) for n in (1, 2, 0)] == ["Bag: 1 tile", "Bag: 2 tiles", "Bag: 0 tiles"]
    assert _said(page, "evPenalty", {"n": 1}) == "A penalty of 1 point."
