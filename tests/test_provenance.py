"""Where every admitted form came from, end to end through small builds in tmp_path: `explain` says
SGJP, Hunspell affix form or "guessed from <model>" for Polish, the Czech paradigm engine or "guessed
from <model>" for Czech; one mechanism for both languages (rule guessed, the model in tables.json
"models"); lexicons of the former Czech format (rule "guessed:<model>") read the same way."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from build_tools.cli import main as build_main
from build_tools.czech.dictionary import shipped_paths
from lexicon_service.cli import main as service_main
from lexicon_service.lexicon import load_lexicon
from test_polish_build import KA_NOUNS  # the -ka noun paradigm in the style of pl_PL.aff


def build(tmp_path: Path, rules: str, name: str, *args) -> Path:
    out = tmp_path / f"{name}.lex"
    assert build_main(["--rules", rules, "--quiet", "--workers", "1", "-o", str(out), *map(str, args)]) == 0
    return out


def explain_lines(capsys, lex: Path, word: str) -> list[list[str]]:
    capsys.readouterr()
    assert service_main(["explain", "--lexicon", str(lex), word]) == 0
    return [line.split("\t") for line in capsys.readouterr().out.splitlines()]


def tables(lex: Path) -> dict:
    return json.loads((lex / "tables.json").read_text(encoding="utf-8"))


# --- Czech ---------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def czech_build(tmp_path_factory) -> Path:
    """cs-kriskros from the headwords lajkovat (not in the paradigm source: guessed) and žena, with a
    paradigm source of the shipped -ovat verbs and žena."""
    tmp = tmp_path_factory.mktemp("cs")
    heads = tmp / "heads.txt"
    heads.write_text("lajkovat\nžena\n", encoding="utf-8")
    dic_text = shipped_paths()[0].read_text(encoding="utf-8").splitlines()[1:]
    lines = [line for line in dic_text if line.partition("/")[0].endswith("ovat")] + ["žena/ZQ"]
    dic = tmp / "par.dic"
    dic.write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    dic.with_suffix(".aff").write_bytes(shipped_paths()[1].read_bytes())
    return build(tmp, "cs-kriskros", "cs", "--headwords", heads, "--paradigms", dic)


def test_czech_guessed_readings_name_their_model_in_the_models_table(czech_build, capsys):
    t = tables(czech_build)
    model = t["models"]["lajkovat"]
    assert model.endswith("ovat") and model != "lajkovat"
    assert set(t["models"]) == {"lajkovat"}                 # žena is in the paradigm source
    assert "guessed" in t["rules"] and not any(r.startswith("guessed:") for r in t["rules"])
    with load_lexicon(czech_build) as lex:
        for form in ("lajkuji", "lajkovala", "nelajkujte"):
            readings = lex.explain(lex.rule_set.tile_set.key_of_text(form))
            assert readings, form
            for r in readings:
                assert (r.headword, r.rule, r.model, r.origin) == ("lajkovat", "guessed", model, "guessed")
                assert "GUESSED" in r.tag.split(";")
        (r,) = lex.explain("ženy")
        assert (r.headword, r.rule, r.model, r.origin) == ("žena", "noun-nominative", "", "Czech paradigm engine")
    assert explain_lines(capsys, czech_build, "lajkuji")[0][-1] == f"guessed from {model}"
    ((form, head, _tag, rule, origin),) = explain_lines(capsys, czech_build, "ženy")
    assert (form, head, rule, origin) == ("ženy", "headword žena", "rule noun-nominative", "from Czech paradigm engine")


def test_a_lexicon_with_the_former_czech_guessed_rule_explains_the_same(czech_build, tmp_path, capsys):
    """Czech lexicons built before the models table named the model in the rule ("guessed:<model>")."""
    old = tmp_path / "old.lex"
    old.mkdir()
    for p in czech_build.iterdir():
        (old / p.name).write_bytes(p.read_bytes())
    t = tables(old)
    model = t.pop("models")["lajkovat"]
    t["rules"] = [f"guessed:{model}" if r == "guessed" else r for r in t["rules"]]
    data = json.dumps(t, ensure_ascii=False, sort_keys=True).encode("utf-8")
    (old / "tables.json").write_bytes(data)
    manifest = json.loads((old / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"]["tables.json"] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    (old / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    with load_lexicon(old) as lex, load_lexicon(czech_build) as new:
        assert lex.explain("lajkuji") == new.explain("lajkuji")
        assert {(r.rule, r.model) for r in lex.explain("lajkuji")} == {("guessed", model)}
    assert explain_lines(capsys, old, "lajkuji")[0][-1] == f"guessed from {model}"


# --- Polish --------------------------------------------------------------------------------------
AFF = KA_NOUNS + """
SFX T Y 9
SFX T   0     a       .
SFX T   0     u       .
SFX T   0     em      .
SFX T   0     owi     .
SFX T   0     ami     .
SFX T   0     ach     .
SFX T   0     om      .
SFX T   0     e       .
SFX T   0     ów      .
"""


@pytest.fixture(scope="module")
def polish_build(tmp_path_factory) -> Path:
    """SGJP headwords (kot, bal: balów attests the ending of abisalów, zrobić, sudanka, radar), a headword SGJP lacks (lidar: guessed from the
    headwords), a Hunspell stem SGJP lacks (abadanka: guessed from sudanka, which has its flags) and
    one SGJP knows whose affix forms SGJP's paradigm lacks (abisal: abisalów)."""
    pytest.importorskip("morfeusz2")
    tmp = tmp_path_factory.mktemp("pl")
    return build(tmp, "pl-scrabble", "pl", *polish_sources(tmp))


def polish_sources(tmp: Path) -> list[str]:
    """The source options of `polish_build`, their files written into `tmp`."""
    (tmp / "p.aff").write_text(AFF, encoding="utf-8")
    dic = tmp / "p.dic"
    dic.write_text("3\nsudanka/X\nabadanka/X\nabisal/T\n", encoding="utf-8")
    heads = tmp / "h.txt"
    heads.write_text("kot\nbal\nzrobić\nsudanka\nradar\nlidar\n", encoding="utf-8")
    return ["--headwords", str(heads), "--hunspell", str(dic)]


@pytest.mark.parametrize("word,headword,rule,origin", [
    ("kotami", "kot", "noun", "from SGJP"),
    ("zrobiłom", "zrobić", "fused-form", "from SGJP"),          # the build's rule over SGJP's segments
    ("abisalów", "abisal", "hunspell-affix-form", "from Hunspell affix form"),
    ("abadankami", "abadanka", "guessed", "guessed from sudanka"),
])
def test_polish_explain_says_where_a_form_came_from(polish_build, capsys, word, headword, rule, origin):
    lines = explain_lines(capsys, polish_build, word)
    assert lines and all(line[1] == f"headword {headword}" and line[3] == f"rule {rule}" and line[4] == origin
                         for line in lines), lines


def test_polish_every_admitted_form_has_an_origin(polish_build):
    with load_lexicon(polish_build) as lex:
        models = tables(polish_build)["models"]
        assert models["abadanka"] == "sudanka" and models["lidar"] in {"kot", "radar", "sudanka"} | set(models)
        seen = set()
        for key in lex.keys():
            for r in lex.explain(key):
                seen.add(r.origin)
                guessed = "GUESSED" in r.tag.split(";")
                assert (r.origin == "guessed") == guessed == (r.rule == "guessed"), r
                assert bool(r.model) == guessed and (not guessed or r.model == models[r.headword]), r
                assert r.origin != "Hunspell affix form" or r.rule == "hunspell-affix-form", r
        assert seen == {"SGJP", "guessed", "Hunspell affix form"}
        assert {r.origin for r in lex.explain("lidarem")} == {"guessed"}


def explain_over_grpc(lex: Path, tmp_path: Path, *words: str) -> list:
    """ExplainWord of each word, from a real server serving the lexicon `lex` (under its own name)."""
    import grpc

    from lexicon_service.grpc_gen import lexicon_pb2, lexicon_pb2_grpc
    from lexicon_service.server import create_server

    served = tmp_path / "lexicons"
    served.mkdir()
    (served / lex.name).symlink_to(lex, target_is_directory=True)
    name = json.loads((lex / "manifest.json").read_text(encoding="utf-8"))["name"]
    srv, port = create_server("localhost:0", served, workers=2)
    srv.start()
    try:
        with grpc.insecure_channel(f"localhost:{port}") as channel:
            stub = lexicon_pb2_grpc.LexiconServiceStub(channel)
            return [stub.ExplainWord(lexicon_pb2.ExplainWordRequest(lexicon=name, word=w), timeout=10) for w in words]
    finally:
        srv.stop(None).wait()


def test_the_explain_rpc_names_the_model_and_the_origin(czech_build, tmp_path):
    model = tables(czech_build)["models"]["lajkovat"]
    guessed, known = explain_over_grpc(czech_build, tmp_path, "lajkuji", "ženy")
    assert guessed.readings and {(r.rule, r.model, r.origin) for r in guessed.readings} == {
        ("guessed", model, "guessed")}
    assert [(r.model, r.origin) for r in known.readings] == [("", "Czech paradigm engine")]


# --- why a word is not in the lexicon ----------------------------------------------------------
@pytest.fixture(scope="module")
def kriskros_build(tmp_path_factory) -> Path:
    """cs-kriskros of a small dictionary: the town Ostrava and its adjective (seed 004 refuses it as a
    place-name adjective), the common noun most (admitted in the nominative only), the interjection haf
    (refused by the rule interjection)."""
    tmp = tmp_path_factory.mktemp("kk")
    lines = ["Ostrava/ZQ", "ostravský/YR", "most/HR", "haf"]
    dic = tmp / "small.dic"
    dic.write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    dic.with_suffix(".aff").write_bytes(shipped_paths()[1].read_bytes())
    return build(tmp, "cs-kriskros", "kk", "--hunspell", dic)


def test_explain_names_the_profile_rule_that_refused_a_word(kriskros_build, capsys):
    with load_lexicon(kriskros_build) as lex:
        assert "ostravská" not in lex and "mosty" in lex
        assert lex.refusals("ostravská") == [("place-name-adjective", "ostravský", "place name Ostrava, rule regular: regular derivation")]
        assert lex.refusals("haf") == [("interjection", "haf", "")]
        assert lex.refusals("mostu") == []          # refused by the catch-all (a genitive): not recorded
        assert lex.refusals("mosty") == []          # admitted
        assert lex.refusals("ostrava") == []        # a capitalised name is no tile key of the game
    capsys.readouterr()
    assert service_main(["explain", "--lexicon", str(kriskros_build), "ostravská", "mostu"]) == 1
    assert capsys.readouterr().out.splitlines() == [
        "ostravská: invalid (not in lexicon kk; refused by rule place-name-adjective, headword ostravský "
        "(place name Ostrava, rule regular: regular derivation))",
        "mostu: invalid (not in lexicon kk)"]
    assert service_main(["explain", "--lexicon", str(kriskros_build), "--json", "ostravská"]) == 1
    assert json.loads(capsys.readouterr().out)["refusals"] == [
        {"rule": "place-name-adjective", "headword": "ostravský", "detail": "place name Ostrava, rule regular: regular derivation"}]


def test_the_explain_rpc_names_the_refusing_rule(kriskros_build, tmp_path):
    refused, unknown = explain_over_grpc(kriskros_build, tmp_path, "ostravský", "mostu")
    assert not refused.result.valid and not refused.readings
    assert [(f.rule, f.headword, f.detail) for f in refused.refusals] == [
        ("place-name-adjective", "ostravský", "place name Ostrava, rule regular: regular derivation")]
    assert not unknown.refusals


def test_a_lexicon_without_the_refusal_table_and_a_damaged_one_explain_without_failing(kriskros_build, tmp_path):
    """A lexicon built before refused.tsv existed (no such file in its manifest) says only "not in
    lexicon"; a refused.tsv damaged in ways that pass its checksum (the manifest rewritten) answers
    what parses, and never fails."""
    import shutil

    from lexicon_service.lexicon_format import MANIFEST, REFUSALS, file_entry

    old = tmp_path / "old.lex"
    shutil.copytree(kriskros_build, old)
    manifest = json.loads((old / MANIFEST).read_text(encoding="utf-8"))
    del manifest["files"][REFUSALS]
    (old / REFUSALS).unlink()
    (old / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    with load_lexicon(old) as lex:
        assert lex.refusals("ostravská") == [] and "mosty" in lex
    for damage in (b"", b"\n\n\t\t\n", b"ostravsk\xc3", b"zzz\tx\n" + b"ostravsk\xc3\xa1\tr\n" + b"\xff" * 100,
                   (kriskros_build / REFUSALS).read_bytes()[::-1]):
        (old / REFUSALS).write_bytes(damage)
        manifest["files"][REFUSALS] = file_entry(damage)
        (old / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
        with load_lexicon(old) as lex:
            for word in ("ostravská", "a", "zzz", "mosty"):
                assert isinstance(lex.refusals(word), list)
