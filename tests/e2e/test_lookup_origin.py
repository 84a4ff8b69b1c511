"""The lookup page names where each reading came from, as `lexicon-service explain` and ExplainWord do:
"guessed from <model lemma>", "from SGJP", "from Hunspell affix form". A small Polish build (the
inputs of tests/test_provenance.py) served over HTTP, the page in headless chromium."""

from __future__ import annotations

import subprocess

import pytest

from test_provenance import polish_sources

from .conftest import BUILD


@pytest.fixture(scope="module")
def polish_web(serve_pages, tmp_path_factory):
    # built by lexicon-build in its own process, as web_url does: this process runs the browser's
    # and the HTTP server's threads, so an in-process build would not fork (build_tools/parallel.py)
    pytest.importorskip("morfeusz2")
    served = tmp_path_factory.mktemp("e2e-provenance")
    sources = polish_sources(tmp_path_factory.mktemp("pl"))
    subprocess.run([BUILD, "--rules", "pl-scrabble", "--quiet", "--workers", "1", "-o", str(served / "pl.lex"),
                    *sources], check=True, capture_output=True)
    return serve_pages(served)


def origins(page, word: str) -> list[str]:
    """The Origin column of the readings table after explaining `word` (typed, Enter)."""
    page.locator("#word").fill("")
    page.locator("#word").focus()
    page.keyboard.type(word)
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"() => [...document.querySelectorAll('#explanation td')].some(td => td.textContent === {word!r})")
    headers = page.locator("#explanation th").all_inner_texts()
    column = len(headers) - 1
    rows = page.locator("#explanation tr").evaluate_all("rows => rows.slice(1).map(r => [...r.cells].map(c => c.textContent))")
    return headers[column], [row[column] for row in rows]


def test_lookup_shows_each_readings_origin(page, polish_web, artifacts):
    page.goto(polish_web + "/lookup?lang=en&lexicon=pl")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#lexicon", "pl")
    title, column = origins(page, "abadankami")
    assert title == "Origin" and column and set(column) == {"guessed from sudanka"}
    page.screenshot(path=str(artifacts / "lookup-origin-guessed.png"))
    assert set(origins(page, "abisalów")[1]) == {"from Hunspell affix form"}
    assert set(origins(page, "kotami")[1]) == {"from SGJP"}
    page.goto(polish_web + "/lookup?lang=pl&lexicon=pl")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#lexicon", "pl")
    title, column = origins(page, "abadankami")
    assert title == "Pochodzenie" and set(column) == {"odgadnięte według sudanka"}


@pytest.fixture(scope="module")
def kriskros_web(serve_pages, tmp_path_factory):
    """cs-kriskros of a small dictionary (the town Ostrava and its adjective, which seed 004 refuses)."""
    from build_tools.czech.dictionary import shipped_paths

    served = tmp_path_factory.mktemp("e2e-refusals")
    src = tmp_path_factory.mktemp("kk")
    lines = ["Ostrava/ZQ", "ostravský/YR", "most/HR"]
    (src / "small.dic").write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    (src / "small.aff").write_bytes(shipped_paths()[1].read_bytes())
    subprocess.run([BUILD, "--rules", "cs-kriskros", "--quiet", "--workers", "1", "-o", str(served / "kk.lex"),
                    "--hunspell", str(src / "small.dic")], check=True, capture_output=True)
    return serve_pages(served)


def test_lookup_says_which_rule_refused_a_word(page, kriskros_web, artifacts):
    """A word the build refused by a rule of the profile: the page names the rule (by its parts, from the
    tables), the headword and how the headword got the refused tag (the refusal's detail), in the page's
    language; a word the build never met has no such line. The Polish page gives a Czech lexicon's verdict
    in Polish, the tags and rule names of its readings in Polish."""
    from tests.e2e.english import assert_no_english

    for lang, text in (("en", "Refused when the lexicon was built: rule from a place name, adjective (headword "
                              "ostravský). Place name Ostrava: regular derivation."),
                       ("cs", "Vyřazeno při sestavení slovníku: pravidlo od místního jména, přídavné jméno (heslo "
                              "ostravský). Místní jméno Ostrava: pravidelné odvození."),
                       ("pl", "Odrzucone przy budowaniu słownika: reguła od nazwy miejscowej, przymiotnik (hasło "
                              "ostravský). Nazwa miejscowa Ostrava: regularne derywowanie.")):
        page.goto(kriskros_web + f"/lookup?lang={lang}&lexicon=kk")
        page.wait_for_selector("body[data-ready='1']")
        page.select_option("#lexicon", "kk")
        page.locator("#word").fill("ostravská")
        page.keyboard.press("Enter")
        page.wait_for_selector("#explanation .refusal")
        assert page.locator("#explanation .refusal").all_inner_texts() == [text]
        if lang != "en":
            assert_no_english(page)
        page.screenshot(path=str(artifacts / f"lookup-refused-{lang}.png"))
    assert page.locator("#verdict").inner_text() == "✗ NIEDOPUSZCZALNE"  # not the lexicon's Czech NEPLATNÉ
    page.locator("#word").fill("mostu")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector('#explanation .refusal') && "
                           "document.querySelector('#explanation p')")
    assert page.locator("#explanation .refusal").count() == 0
    page.locator("#word").fill("most")
    page.keyboard.press("Enter")
    page.wait_for_selector("#explanation td")
    row = page.locator("#explanation tr").nth(1).locator("td").all_inner_texts()
    assert row[:2] == ["most", "most"] and row[2].startswith("rzeczownik, mianownik") and "liczba" in row[2]
    assert row[3] == "rzeczownik, mianownik" and page.locator("#verdict").inner_text() == "✓ DOPUSZCZALNE"
    assert_no_english(page)
    page.screenshot(path=str(artifacts / "lookup-readings-pl.png"))


def test_every_profile_rule_and_tag_feature_is_said_in_each_language(page, kriskros_web):
    """The tables cover the build's vocabulary: every rule name of the shipped profiles is said by its parts,
    every tag feature (build_tools/tags.py) by its entry, none left as the build wrote it."""
    import re
    from pathlib import Path

    from build_tools.czech.place_rules import RULES as PLACE_RULES
    from build_tools.tags import FEATURES

    profiles = Path(__file__).parents[2] / "build_tools" / "profiles"
    rules = sorted({m.group(1) for p in profiles.glob("*.profile")
                    for m in re.finditer(r"^(?:allow|deny)\s+(\S+)", p.read_text(encoding="utf-8"), re.M)})
    assert "noun-nominative" in rules and len(rules) > 30
    for lang in ("cs", "pl", "en"):
        page.goto(kriskros_web + f"/lookup?lang={lang}")
        page.wait_for_selector("body[data-ready='1']")
        said = page.evaluate("([rules, features]) => [rules.map(ruleText), features.map(tagText)]",
                             [rules, sorted(FEATURES)])
        raw = [r for r, s in zip(rules, said[0]) if any(part in s.split(", ") for part in r.split("-"))
               and lang != "en"]
        raw += [f for f, s in zip(sorted(FEATURES), said[1]) if s == f]
        assert not raw, (lang, raw)
        if lang != "en":  # every place-name derivation rule but an ending change ("-ník -> -nický") from the tables
            details = {rule: f"place name Ostrava, rule {rule}: {text}" for rule, text in PLACE_RULES.items()}
            shown = page.evaluate("details => details.map(refusalDetailText)", list(details.values()))
            english = [rule for rule, text in zip(details, shown)
                       if PLACE_RULES[rule] in text and not re.fullmatch(r"-\S+ -> -\S+", PLACE_RULES[rule])]
            assert not english, (lang, english)
