"""Polish admission rules end to end, through small builds in tmp_path (issue #11): neuter fused
forms, abbreviations and foreign words, Hunspell overgeneration, guessed headwords, bad input."""

import json

import pytest

pytest.importorskip("morfeusz2")

from build_tools.cli import main as build_main  # noqa: E402
from build_tools.profiles import PROFILE_DIR  # noqa: E402
from lexicon_service.cli import main as service_main  # noqa: E402
from lexicon_service.lexicon import load_lexicon  # noqa: E402

# a noun paradigm in the style of pl_PL.aff (-ka nouns: abadanka, sudanka)
KA_NOUNS = """SET UTF-8

SFX X Y 9
SFX X   a     i       ka
SFX X   a     ę       ka
SFX X   a     ą       ka
SFX X   a     o       ka
SFX X   ka    ek      ka
SFX X   ka    ce      ka
SFX X   ka    kom     ka
SFX X   ka    kami    ka
SFX X   ka    kach    ka
"""
AFF = KA_NOUNS + """
SFX B Y 1
SFX B   0     m       .
"""


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def build(tmp_path, name, *args):
    out = tmp_path / f"{name}.lex"
    assert build_main(["--rules", "pl-scrabble", "--quiet", "--workers", "1", "-o", str(out),
                       *map(str, args)]) == 0
    return out


def test_neuter_past_and_conditional_with_person_endings(tmp_path, capsys):
    heads = write(tmp_path / "h.txt", "zrobić\nnieść\n")
    lex = build(tmp_path, "n", "--headwords", heads)
    with load_lexicon(lex) as L:
        for form in ("zrobiłom", "zrobiłoś", "zrobiłobym", "zrobiłobyś", "niosłom", "niosłobyś",
                     "zrobiłem", "zrobiłabym"):
            assert L.is_admissible(form), form
        (r,) = L.explain("zrobiłom")
        assert r.rule == "fused-form" and {"NEUT", "1", "SG", "PST"} <= set(r.tag.split(";"))
        assert not L.is_admissible("zrobiłm")


def test_abbreviations_and_uninflected_foreign_words_are_not_admitted(tmp_path, capsys):
    write(tmp_path / "a.aff", AFF)
    dic = write(tmp_path / "a.dic", "5\nnp\nitd\nculture\nabsentes\nkot\n")
    lex = build(tmp_path, "a", "--hunspell", dic)
    out = capsys.readouterr().out
    assert "abbreviation" in out and "a.dic:2" in out
    assert "unflagged-unknown" in out and "culture (a.dic:4)" in out
    with load_lexicon(lex) as L:
        assert not {"np", "itd", "culture", "absentes"} & set(L.keys())
        assert "kot" in L


def test_hunspell_affix_forms_sgjp_lacks_are_admitted_only_as_real_endings(tmp_path, capsys):
    """An affix form of a lemma SGJP knows that SGJP's paradigm lacks (the genitive plural
    abisalów) is admitted, tagged HUNSPELL; one whose ending ends no word made (kotm, skorom)
    and a nie- form (nieabisal: negation is the build's rule) are not."""
    noun = "".join(f"SFX T   0     {e}      .\n" for e in ("a", "u", "em", "owi", "ami", "ach", "om", "e", "ów"))
    write(tmp_path / "o.aff", AFF + "\nSFX T Y 9\n" + noun + "\nPFX N N 1\nPFX N   0     nie     .\n")
    # kot/T attests kotem (an SGJP form the dictionary lacks is UNATTESTED: test_polish_attested)
    dic = write(tmp_path / "o.dic", "3\nskoro/B\nkot/BT\nabisal/TN\n")
    heads = write(tmp_path / "h.txt", "bal\n")
    lex = build(tmp_path, "o", "--headwords", heads, "--hunspell", dic)
    with load_lexicon(lex) as L:
        assert "skoro" in L and "kot" in L and "kotem" in L and "abisala" in L
        assert "skorom" not in L and "kotm" not in L
        assert "nieabisal" not in L
        assert "abisalów" in L
        assert [r.rule for r in L.explain("abisalów")] == ["hunspell-affix-form"]
        assert all(r.rule != "hunspell-affix-form" for r in L.explain("kot"))


def test_guessed_headwords_name_their_model(tmp_path, capsys, monkeypatch):
    write(tmp_path / "g.aff", AFF)
    # sudanka: an SGJP lemma with the same flags (the model); abadanka: SGJP does not know it
    dic = write(tmp_path / "g.dic", "2\nsudanka/X\nabadanka/X\n")
    heads = write(tmp_path / "h.txt", "sudanka\nkot\nradar\nlidar\n")
    lex = build(tmp_path, "g", "--headwords", heads, "--hunspell", dic)
    out = capsys.readouterr().out
    assert "inflected by analogy" in out and "): 2 headwords" in out
    with load_lexicon(lex) as L:
        assert L.manifest["counts"]["guessed_headwords"] == 2
        for form in ("abadanka", "abadanki", "abadankę", "abadanek", "abadankami"):
            assert form in L, form
            for r in L.explain(form):
                assert (r.headword, r.rule, r.model) == ("abadanka", "guessed", "sudanka")
                assert "GUESSED" in r.tag.split(";")
        # lidar: a headword-list entry SGJP does not know, inflected like its nearest models
        assert {"lidar", "lidaru", "lidarem", "lidarami"} <= set(L.keys())
        assert L.explain("lidarem")[0].model
        assert "kot" in L and L.explain("kot")[0].model == ""
    assert service_main(["explain", "--lexicon", str(lex), "abadankami"]) == 0
    assert "guessed from sudanka" in capsys.readouterr().out
    assert service_main(["explain", "--lexicon", str(lex), "--json", "abadankami"]) == 0
    assert json.loads(capsys.readouterr().out)["readings"][0]["model"] == "sudanka"

    # the profile can exclude guessed readings
    text = (PROFILE_DIR / "pl.profile").read_text(encoding="utf-8")
    strict = text.replace("allow     guessed ", "deny      guessed ")
    assert strict != text
    write(tmp_path / "strict.profile", strict.replace("name = pl", "name = strict"))
    lex2 = build(tmp_path, "s", "--profile", tmp_path / "strict.profile", "--headwords", heads,
                 "--hunspell", dic)
    with load_lexicon(lex2) as L:
        assert "abadanka" not in L and "lidar" not in L and "sudanka" in L


def test_a_headword_sgjp_does_not_know_is_inflected_or_admitted_alone(tmp_path, capsys):
    """The lemmas by analogy of make_pl_headwords (headwords-sjp-growy-guessed.txt) through a
    build: glabutek (SGJP: ign) is inflected like smutek; glandyk resembles no lemma by more
    than -yk, so the guess is uncertain and only the headword itself is admitted."""
    heads = write(tmp_path / "h.txt", "smutek\npatyk\n")
    guessed = write(tmp_path / "g.txt", "glabutek\nglandyk\n")
    lex = build(tmp_path, "u", "--headwords", heads, "--headwords", guessed)
    with load_lexicon(lex) as L:
        assert L.manifest["counts"]["guessed_headwords"] == 2
        assert {"glabutek", "glabutku", "glabutkiem", "glabutków", "glabutkami"} <= set(L.keys())
        assert {(r.headword, r.rule, r.model) for r in L.explain("glabutków")} == {
            ("glabutek", "guessed", "smutek")}
        assert [k for k in L.keys() if k.startswith("glandy")] == ["glandyk"]
        assert {(r.headword, r.rule, r.model) for r in L.explain("glandyk")} == {
            ("glandyk", "guessed", "patyk")}


def test_bad_input_is_counted_with_file_and_line(tmp_path, capsys):
    heads = write(tmp_path / "h.txt", "kot\nzły\tadj\tx\nxqzvw\n")
    build(tmp_path, "b", "--headwords", heads)
    out = capsys.readouterr().out
    assert "bad-headword-line" in out and "h.txt:2" in out
    assert "unknown-lemma" in out and "xqzvw (h.txt:3)" in out
    # a source that is not text in its declared encoding stops the build, naming file and line
    (tmp_path / "b.aff").write_text("SET UTF-8\n", encoding="ascii")
    (tmp_path / "b.dic").write_bytes(b"2\nkot\n\xff\xfebad\n")
    assert build_main(["--rules", "pl-scrabble", "--quiet", "--workers", "1", "-o", str(tmp_path / "c.lex"),
                       "--hunspell", str(tmp_path / "b.dic")]) == 2
    assert "b.dic:3" in capsys.readouterr().err and not (tmp_path / "c.lex").exists()


def test_listed_by_forms_on_particles_are_admitted_as_fused_forms(tmp_path):
    """An unflagged .dic entry SGJP reads only as particle/conjunction + -by (+ person ending)
    is a fused form (albobym); one on a past-tense host (byłażby) or on a noun (kotby) is not."""
    write(tmp_path / "f.aff", AFF)
    dic = write(tmp_path / "f.dic", "4\nalbobym\nskoroby\nbyłażby\nkotby\n")
    lex = build(tmp_path, "f", "--hunspell", dic)
    with load_lexicon(lex) as L:
        assert "albobym" in L and "skoroby" in L
        assert [r.rule for r in L.explain("albobym")] == ["fused-form"]
        assert "byłażby" not in L and "kotby" not in L


def test_words_sgjp_knows_only_inside_fixed_phrases_are_admitted_and_say_so(tmp_path):
    """PFS admits forms used only next to other words (RULES.md §7 pl): dawien (dawien dawna) and
    oścież (na oścież) are words of the lexicon, and explain names the phrase-word rule and the FIXED
    feature, so a profile can deny them (`deny phrase-fragment FIXED`; measured in
    docs/build.md: 6 off the game list per 34 on it, so not denied by default)."""
    heads = write(tmp_path / "h.txt", "dawien\nkot\n")  # kot: the strict build below still admits a word
    lex = build(tmp_path, "f", "--headwords", heads)
    with load_lexicon(lex) as L:
        assert "dawien" in L
        (r,) = L.explain("dawien")
        assert r.rule == "fixed-phrase-word" and "FIXED" in r.tag.split(";")
    profile = write(tmp_path / "strict.profile", (PROFILE_DIR / "pl.profile").read_text(encoding="utf-8")
                    .replace("# deny    phrase-fragment    FIXED", "deny      phrase-fragment    FIXED"))
    out = tmp_path / "strict.lex"
    heads = write(tmp_path / "h2.txt", "dawien\nkot\n")  # kot: the lexicon is not empty (an empty one is refused)
    assert build_main(["--rules", "pl-scrabble", "--profile", str(profile), "--quiet", "--workers", "1",
                       "-o", str(out), "--headwords", str(heads)]) == 0
    with load_lexicon(out) as L:
        assert "dawien" not in L and "kot" in L and "kot" in L
