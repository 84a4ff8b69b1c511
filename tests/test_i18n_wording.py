"""Czech and Polish say a person's sex in the past tense ("Anna zahrála", "Jan zahrál"; "sprawdziłeś",
"sprawdziłaś"), and the pages cannot know a player's, the director's or the reader's: no text of
static/i18n.js that names a person (a player's {name}, a note's {player}) or speaks to the reader uses a
past-tense form agreeing with that person. A past tense agreeing with a noun of the text ("tah propadl",
"czas minął") is fine: those are listed in AGREES_WITH_A_NOUN."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "lexicon_service" / "http" / "static" / "i18n.js"

# The past tense: Czech l-participles (zahrál, napadl, ukončil; -la, -li), Polish ł-forms (zagrał,
# sprawdził, cofnął; -ła, -li, and the persons -łeś, -łaś, -łem, -łam, -liście).
PAST = {
    "cs": re.compile(r"\b\w*(?:[aeiouyáéěíýůú]|[dhkpt])l[aiy]?\b"),
    "pl": re.compile(r"\b\w*(?:ł(?:[ao]|eś|aś|em|am)?|li(?:śmy|ście)?)\b"),
}
# a past tense whose subject is a noun of the text, not the person (the turn was lost, the time ran out)
AGREES_WITH_A_NOUN = {"propadl", "vypršel", "przepadł", "minął"}
# speaking to the reader in the past: "Napadli jste", "Sprawdziłeś"
TO_THE_READER = {"cs": re.compile(r"\b\w+l[aiy]? jste\b"), "pl": re.compile(r"\b\w+ł(?:eś|aś)\b|\b\w+liście\b")}


def texts(language: str) -> list[str]:
    """Every text of `language` in i18n.js: its STRINGS section and the [code, en, cs, pl] tables' column."""
    source = I18N.read_text(encoding="utf-8")
    section = source.split(f"\n  {language}: {{", 1)[1].split("\n  },", 1)[0]
    found = re.findall(r'"((?:[^"\\]|\\.)*)"', section)
    column = {"cs": 2, "pl": 3}[language]
    for row in re.findall(r'^\s*\[("(?:[^"\\]|\\.)*"(?:,\s*"(?:[^"\\]|\\.)*"){3})\],?\s*$', source, re.MULTILINE):
        found.append(re.findall(r'"((?:[^"\\]|\\.)*)"', row)[column])
    return found


def test_the_tables_are_read():
    for language in ("cs", "pl"):
        said = texts(language)
        assert len(said) > 300 and any("{player}" in text for text in said), language


def past_tense_of_a_person(language: str) -> list[tuple[str, str]]:
    out = []
    for text in texts(language):
        text = text.replace(", plural,", ",")  # the syntax of a counted noun's forms (test_i18n_plurals.py)
        if "{name}" in text or "{player}" in text:
            for word in PAST[language].findall(text):
                if word not in AGREES_WITH_A_NOUN:
                    out.append((word, text))
        out += [(m, text) for m in TO_THE_READER[language].findall(text)]
    return out


def test_no_past_tense_says_a_players_sex():
    for language in ("cs", "pl"):
        assert past_tense_of_a_person(language) == [], language


def test_the_check_finds_what_it_looks_for():
    """The patterns catch the wording the pages had ("{name} zahrál", "Sprawdziłeś", "Napadli jste")."""
    for language, text in (("cs", "{name} zahrál {move} za {score}"), ("cs", "{player} dohrála"),
                           ("pl", "{name} sprawdził ruch"), ("pl", "{player} spasowała")):
        assert PAST[language].findall(text), (language, text)
    for language, text in (("cs", "Napadli jste tah"), ("pl", "Sprawdziłeś: {words}")):
        assert TO_THE_READER[language].findall(text), (language, text)
