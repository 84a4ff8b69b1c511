"""Czech and Polish choose a noun's form by the number before it (1 kámen, 2 kameny, 5 kamenů, 1,5 kamene;
1 płytka, 2 płytki, 5 płytek, 22 płytki, 1,5 płytki), English too (1 tile, 2 tiles). Every text of
static/i18n.js that puts a count beside a noun holds the noun's forms in ICU MessageFormat's plural
("{n, plural, one {{n} kámen} few {...} many {...} other {...}}"), one form for each plural category of
its language, each with the count; the page picks the form with Intl.PluralRules (i18n.js pluralText;
tests/e2e/test_plurals.py renders them and checks that the browser's categories are these)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "lexicon_service" / "http" / "static" / "i18n.js"

# CLDR's cardinal plural categories, as Intl.PluralRules(lang).resolvedOptions().pluralCategories gives them
CATEGORIES = {"en": {"one", "other"}, "cs": {"one", "few", "many", "other"}, "pl": {"one", "few", "many", "other"}}

# The nouns the pages count, every form; a placeholder followed by one of them (at most two words between:
# "{n} scoreless turns", "{n} tahů") outside a plural is a count whose noun does not agree with it.
NOUNS = {
    "en": r"(?:tiles?|points?|words?|turns?|rounds?|characters?|lines?|digits?|players?)\b",
    "cs": r"(?:kámen|kamen\w*|bod\w*|slov[oaůu]?|tah\w*|znak\w*|řád(?:e)?k\w*|číslic\w*|hráč\w*)\b",
    "pl": r"(?:płyt\w*|punkt\w*|słow\w*|słów|ruch\w*|znak\w*|wiersz\w*|cyfr\w*|gracz\w*)\b",
}
# placeholders that are never a count: names, words, plays, racks, letters, reasons
NOT_COUNTS = {"name", "player", "words", "play", "move", "rack", "letter", "rule", "rule_set", "why", "reason",
              "text", "event", "headword", "model", "origin", "place", "how", "nickname", "pragma", "declared"}
COLUMN = {"en": 1, "cs": 2, "pl": 3}
STRING = r'"((?:[^"\\]|\\.)*)"'


def texts(language: str) -> list[str]:
    """Every text of `language` in i18n.js: its STRINGS section and the [code, en, cs, pl] tables' column."""
    source = I18N.read_text(encoding="utf-8")
    section = source.split(f"\n  {language}: {{", 1)[1].split("\n  },", 1)[0]
    found = re.findall(r"[\w\"-]+: " + STRING, section)
    for row in re.findall(r"^\s*\[(" + STRING + r"(?:,\s*" + STRING + r"){3})\],?\s*$", source, re.MULTILINE):
        found.append(re.findall(STRING, row[0])[COLUMN[language]])
    return found


def plurals(text: str) -> tuple[list[tuple[str, dict[str, str]]], str]:
    """The plurals of `text` ((count variable, {category: form}), as i18n.js pluralText reads them) and the
    text outside them; a plural that does not parse raises ValueError."""
    found, outside, at = [], [], 0
    for m in re.finditer(r"\{(\w+), plural,", text):
        if m.start() < at:
            continue
        forms, i = {}, m.end()
        while True:
            head = re.compile(r"\s*(?:(\w+)\s*\{|\})").match(text, i)
            if not head:
                raise ValueError(f"a plural that does not parse at {i}: {text!r}")
            if not head.group(1):
                break
            depth, j = 1, head.end()
            while depth and j < len(text):
                depth += {"{": 1, "}": -1}.get(text[j], 0)
                j += 1
            if depth or head.group(1) in forms:
                raise ValueError(f"unbalanced or repeated form {head.group(1)}: {text!r}")
            forms[head.group(1)] = text[head.end():j - 1]
            i = j
        found.append((m.group(1), forms))
        outside.append(text[at:m.start()])
        at = head.end()
    return found, "".join(outside) + text[at:]


def uncounted(language: str, text: str) -> list[str]:
    """The counts of `text` outside its plurals that a noun follows."""
    _, outside = plurals(text)
    pattern = r"\{(\w+)\}((?:\s+[^\s{}():;,.]+){0,2}?\s+" + NOUNS[language] + ")"
    return [m.group(0) for m in re.finditer(pattern, outside) if m.group(1) not in NOT_COUNTS]


def test_the_tables_are_read_with_their_plurals():
    for language in CATEGORIES:
        said = texts(language)
        assert len(said) > 300, language
        counted = [text for text in said if plurals(text)[0]]
        assert len(counted) >= 15, (language, len(counted))
        assert any(text.startswith(("Bag: {n,", "V sáčku: {n,", "W worku: {n,")) for text in counted), language


def test_every_plural_has_each_form_its_language_needs_with_the_count():
    for language, categories in CATEGORIES.items():
        for text in texts(language):
            for count, forms in plurals(text)[0]:
                assert set(forms) == categories, (language, text)
                for category, form in forms.items():
                    assert "{" + count + "}" in form, (language, category, text)
                    assert not plurals(form)[0], ("a plural inside a plural", language, text)


def test_no_count_stands_beside_a_noun_outside_a_plural():
    for language in CATEGORIES:
        found = [(said, text) for text in texts(language) for said in uncounted(language, text)]
        assert found == [], (language, found)


def test_the_check_finds_what_it_looks_for():
    """The wording the pages had: "1 kamenů", "3 płytek", "1 points"."""
    for language, text in (("cs", "V sáčku: {n} kamenů"), ("cs", "Vítězí {name} s {score} body"),
                           ("cs", "zapsáno {recorded} bodů, spočteno {computed}"), ("pl", "stojak ma {n} płytek"),
                           ("pl", "{n} ruchów bez punktów z rzędu"), ("en", "{n} scoreless turns in a row"),
                           ("en", "{n} points penalty.")):
        assert uncounted(language, text), (language, text)
    assert not uncounted("cs", "stojan {rack} má kámen, který pravidla neznají")  # a rack is no count
    assert not uncounted("pl", "straconych punktów: {n}")  # the noun before the count, as a label
    with_plural = "Bag: {n, plural, one {{n} tile} other {{n} tiles}}; {m} expected"
    assert plurals(with_plural) == ([("n", {"one": "{n} tile", "other": "{n} tiles"})], "Bag: ; {m} expected")
    assert not uncounted("en", with_plural)
    for broken in ("{n, plural, one {{n} tile} other {{n} tiles}", "{n, plural, one {x} one {y}}"):
        try:
            plurals(broken)
        except ValueError:
            continue
        raise AssertionError(broken)
