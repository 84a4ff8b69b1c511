"""`lexicon-build --models FILE` (Polish): the SGJP lemmas of a headword list serve as analogy
models for the headwords SGJP does not know, so that a build from a short list of new words
inflects them; the models' own forms are not admitted. Small builds in tmp_path."""

import pytest

pytest.importorskip("morfeusz2")

from build_tools.cli import main as build_main  # noqa: E402
from lexicon_service.cli import main as service_main  # noqa: E402
from lexicon_service.lexicon import load_lexicon  # noqa: E402

# SGJP lemmas ending like the new words (-ar nouns, -ować verbs), and lines that give no model
MODELS = """# models
radar
hangar
nektar
browar
malować
budować
sterować
kierować
pracować
rysować
formować
sudanka
xqzvwk
Kraków
zły\tadj\tx
"""
AR_MODELS = {"radar", "hangar", "nektar", "browar"}
OWAC_MODELS = {"malować", "budować", "sterować", "kierować", "pracować", "rysować", "formować"}
NEW = "kot\nlidar\nstreamować\n"
NEW_FORMS = ("lidarem", "lidary", "lidarów", "streamowałem", "streamujemy", "streamował")


# an affix file for feminine -ka nouns (abadanka: abadanki, abadankę, abadanek, abadankami)
KA_AFF = """SET UTF-8

SFX X Y 4
SFX X   a     i       ka
SFX X   a     ę       ka
SFX X   ka    ek      ka
SFX X   ka    kami    ka
"""


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def build(tmp_path, name, *args):
    out = tmp_path / f"{name}.lex"
    code = build_main(["--rules", "pl-scrabble", "--quiet", "--workers", "1", "-o", str(out), *map(str, args)])
    return out, code


def test_new_headwords_are_inflected_after_the_given_models(tmp_path, capsys):
    heads = write(tmp_path / "new.txt", NEW)
    models = write(tmp_path / "models.txt", MODELS)
    lex, code = build(tmp_path, "with", "--headwords", heads, "--models", models)
    assert code == 0
    out = capsys.readouterr().out
    assert "analogy models from --models: 12 SGJP lemmas of 15 entries" in out
    assert "not used (no SGJP lemma, or a bad line): 3" in out and "xqzvwk (models.txt:14)" in out
    with load_lexicon(lex) as L:
        for form in NEW_FORMS:
            assert form in L, form
            readings = L.explain(form)
            assert readings and all(r.rule == "guessed" and r.model in AR_MODELS | OWAC_MODELS for r in readings), form
        assert {r.headword for r in L.explain("lidarem")} == {"lidar"}
        assert {r.model for r in L.explain("lidarem")} <= AR_MODELS
        assert {r.model for r in L.explain("streamujemy")} <= OWAC_MODELS
        # a model lends its paradigm, not its forms; the list's own SGJP lemma is expanded
        for form in ("radar", "radarem", "malować", "malowałem", "sudanka"):
            assert form not in L, form
        assert "kotem" in L and L.explain("kotem")[0].model == ""
        m = L.manifest
        assert m["counts"]["guessed_headwords"] == 2
        assert m["counts"]["models"] == 12 and m["counts"]["models_not_used"] == 3
        (rec,) = [s for s in m["sources"] if s["kind"] == "models"]
        assert rec["name"] == "models.txt" and rec["bytes"] == models.stat().st_size and len(rec["sha256"]) == 64
    assert service_main(["explain", "--lexicon", str(lex), "streamowałem"]) == 0
    assert "guessed from " in capsys.readouterr().out

    # without --models the only model is kot: nothing is guessed, and the build says what to pass
    lex2, code = build(tmp_path, "without", "--headwords", heads)
    assert code == 0
    captured = capsys.readouterr()
    assert "--models data/pl/headwords.txt" in captured.err
    with load_lexicon(lex2) as L:
        assert not any(form in L for form in NEW_FORMS)
        assert "kotem" in L
        assert "models" not in L.manifest["counts"]
        assert all(s["kind"] != "models" for s in L.manifest["sources"])
    assert "unknown-lemma" in captured.out and "lidar (new.txt:2)" in captured.out


def test_a_hunspell_stem_sgjp_lacks_is_guessed_after_a_given_model(tmp_path, capsys):
    write(tmp_path / "d.aff", KA_AFF)
    dic = write(tmp_path / "d.dic", "1\nabadanka/X\n")
    models = write(tmp_path / "models.txt", "sudanka\n")
    lex, code = build(tmp_path, "h", "--hunspell", dic, "--models", models)
    assert code == 0
    with load_lexicon(lex) as L:
        assert {(r.headword, r.rule, r.model) for r in L.explain("abadankami")} == {
            ("abadanka", "guessed", "sudanka")}
        assert "sudanka" not in L
    # without --models nothing is guessed: the build admits no form, so it writes nothing and says why
    lex2, code = build(tmp_path, "h2", "--hunspell", dic)
    err = capsys.readouterr().err
    assert code != 0 and "--models" in err and "no form was admitted" in err
    assert not lex2.exists()


@pytest.mark.parametrize("content, message", [
    (None, "no such file"),
    (b"radar\n\x00\x01\x02", "models.bin:2: NUL byte"),
    ("radar\nżółw\n".encode("iso-8859-2"), "models.bin:2: not UTF-8"),
])
def test_a_models_file_that_is_not_a_text_headword_list_stops_the_build(tmp_path, capsys, content, message):
    heads = write(tmp_path / "new.txt", NEW)
    models = tmp_path / "models.bin"
    if content is not None:
        models.write_bytes(content)
    lex, code = build(tmp_path, "bad", "--headwords", heads, "--models", models)
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err
    assert str(models) in err and not lex.exists()


def test_models_are_for_polish_builds(tmp_path, capsys):
    models = write(tmp_path / "models.txt", "radar\n")
    heads = write(tmp_path / "h.txt", "kočka\n")
    code = build_main(["--rules", "cs-scrabble", "--quiet", "--workers", "1", "-o", str(tmp_path / "c.lex"),
                       "--headwords", str(heads), "--models", str(models)])
    assert code == 2 and "--models is for Polish builds" in capsys.readouterr().err
    assert not (tmp_path / "c.lex").exists()


def test_the_models_file_is_not_overwritten_by_the_rejected_log(tmp_path, capsys):
    heads = write(tmp_path / "new.txt", NEW)
    models = write(tmp_path / "models.txt", MODELS)
    _lex, code = build(tmp_path, "r", "--headwords", heads, "--models", models, "--rejected", models)
    assert code == 2 and "--rejected" in capsys.readouterr().err
    assert models.read_text(encoding="utf-8") == MODELS


def test_paradigms_inflect_a_headword_sgjp_lacks_as_its_dictionary_entry_would_be(tmp_path, capsys):
    """Polish --paradigms: a headword SGJP does not know gets the paradigm its flagged entry in the
    dictionary would get from --hunspell (guessed, corroborated by the entry's affix forms); the
    dictionary's other entries give nothing."""
    write(tmp_path / "d.aff", KA_AFF)
    dic = write(tmp_path / "d.dic", "3\nbebka/X\nbebadanka/X\nkot\n")
    models = write(tmp_path / "models.txt", "sudanka\n")
    heads = write(tmp_path / "h.txt", "bebka\nkot\n")
    lex, code = build(tmp_path, "p", "--headwords", heads, "--paradigms", dic, "--models", models)
    assert code == 0
    with load_lexicon(lex) as L:
        # bebka shares only -ka with the model: its entry's affix forms (bebki, bebkę, bebek,
        # bebkami) corroborate the paradigm, which the headword alone does not earn
        assert {(r.headword, r.rule, r.model) for r in L.explain("bebkami")} == {("bebka", "guessed", "sudanka")}
        assert "bebce" in L and "kotem" in L
        assert "bebadanka" not in L and "bebadankami" not in L      # not a headword
        kinds = {s["kind"]: s for s in L.manifest["sources"]}
        assert kinds["paradigms"]["name"] == "d.dic" and kinds["paradigms-aff"]["name"] == "d.aff"
        assert kinds["paradigms"]["sha256"] and kinds["paradigms"]["bytes"] == dic.stat().st_size
    lex2, code = build(tmp_path, "q", "--headwords", heads, "--models", models)
    assert code == 0
    with load_lexicon(lex2) as L:
        assert "bebka" in L and "bebkami" not in L


def test_polish_paradigms_must_be_a_hunspell_dictionary(tmp_path, capsys):
    heads = write(tmp_path / "h.txt", "kot\n")
    dic = write(tmp_path / "lone.dic", "1\nkot\n")             # no .aff beside it
    lex, code = build(tmp_path, "x", "--headwords", heads, "--paradigms", dic)
    err = capsys.readouterr().err
    assert code == 2 and "no affix file" in err and "Traceback" not in err and not lex.exists()
