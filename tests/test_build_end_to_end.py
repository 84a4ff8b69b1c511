"""lexicon-build -> lexicon directory -> load -> check / explain / dump / diff, for each source kind."""

import json
from pathlib import Path

import pytest

from build_tools.cli import main as build_main
from lexicon_service.cli import main as service_main
from lexicon_service.lexicon import Reading, load_lexicon


def build(tmp_path, name, *args):
    out = tmp_path / f"{name}.lex"
    rc = build_main(["--rules", "pl-scrabble", "--quiet", "--workers", "1", "-o", str(out), *args])
    assert rc == 0
    return out


def write(path, text, encoding="utf-8"):
    path.write_bytes(text.encode(encoding))
    return str(path)


def check(capsys, monkeypatch, lex, words):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("".join(w + "\n" for w in words)))
    capsys.readouterr()
    code = service_main(["check", "--lexicon", str(lex)])
    out = capsys.readouterr().out.splitlines()
    result = dict(line.split("\t") for line in out)
    assert code == (1 if "invalid" in result.values() else 0)  # exit 1 when any word is invalid
    return result


def test_word_list(tmp_path, capsys, monkeypatch):
    src = write(tmp_path / "w.txt", "kot\nżółw\nKot\nqubit\na\nźdźbło\nbiało-czerwony\n")
    lex = build(tmp_path, "w", "--words", src)
    summary = capsys.readouterr().out
    for reason in ("capitalised", "letter-not-in-profile", "too-short", "non-letter"):
        assert reason in summary
    result = check(capsys, monkeypatch, lex, ["kot", "ŻÓŁW", "źdźbło", "qubit", "pies", "ab1"])
    assert result == {"kot": "valid", "ŻÓŁW": "valid", "źdźbło": "valid", "qubit": "invalid",
                      "pies": "invalid", "ab1": "invalid"}
    with load_lexicon(lex) as L:
        assert len(L) == 3 and "kot" in L and L.is_admissible("żółw")
        assert L.explain("kot") == [Reading("kot", "kot", "", "word-list")]
        assert L.keys() == sorted(["kot", "żółw", "źdźbło"])
        assert L.keys("k") == ["kot"] and L.has_prefix("żó") and not L.has_prefix("x")
        assert L.rule_set.id == "pl-scrabble"
        assert L.manifest["sources"][0]["name"] == "w.txt"
        assert len(L.manifest["sources"][0]["sha256"]) == 64


def test_tagged_list_is_admitted_by_the_profile(tmp_path, capsys, monkeypatch):
    src = write(tmp_path / "t.tsv", "kota\tkot\tN;GEN;SG\nWarszawy\tWarszawa\tsubst:sg:gen:f\n"
                                    "ul\tulica\tbrev:pun\nkocie\tkot\tsubst:sg:loc:m2\nzłe\n")
    lex = build(tmp_path, "t", "--tagged", src)
    summary = capsys.readouterr().out
    assert "bad-tagged-line" in summary and "proper-name" in summary and "abbreviation" in summary
    with load_lexicon(lex) as L:
        assert L.keys() == ["kocie", "kota"]
        (r,) = L.explain("kocie")
        assert (r.headword, r.tag, r.rule) == ("kot", "ANIM;ESS;MASC;N;SG", "noun")


def test_headwords_polish_end_to_end(tmp_path, capsys, monkeypatch):
    src = write(tmp_path / "h.txt", "kot\nzrobić\nWarszawa\nxyzzyq\nzły\tadj\tx\n")
    lex = build(tmp_path, "h", "--headwords", src)
    summary = capsys.readouterr().out
    assert "unknown-lemma" in summary and "h.txt:4" in summary
    assert "proper-name" in summary and "bad-headword-line" in summary
    result = check(capsys, monkeypatch, lex, ["kot", "kotami", "zrobiłbym", "zrobiliśmy", "zróbże",
                                              "Warszawa", "warszawy", "xyzzyq"])
    assert result == {"kot": "valid", "kotami": "valid", "zrobiłbym": "valid", "zrobiliśmy": "valid",
                      "zróbże": "valid", "Warszawa": "invalid", "warszawy": "invalid",
                      "xyzzyq": "invalid"}
    assert service_main(["explain", "--lexicon", str(lex), "zrobiłbym"]) == 0
    out = capsys.readouterr().out
    assert "headword zrobić" in out and "rule fused-form" in out and "COND" in out
    assert service_main(["explain", "--lexicon", str(lex), "kotx"]) == 1
    assert service_main(["explain", "--lexicon", str(lex), "--json", "kot"]) == 0
    data = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert data["valid"] and data["readings"][0]["headword"] == "kot"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_hunspell_polish_affix_forms(tmp_path, capsys, monkeypatch, workers):
    """A Polish Hunspell stem SGJP knows gets SGJP's paradigm, not the affixes' forms."""
    aff = "SET ISO8859-2\n\nSFX A Y 2\nSFX A   0   a     .\nSFX A   0   ami   .\n"
    write(tmp_path / "p.aff", aff, "iso-8859-2")
    dic = write(tmp_path / "p.dic", "3\nżółw/A\nŁódź\nkot/A\n", "iso-8859-2")
    lex = build(tmp_path, "hs", "--hunspell", dic, "--workers", workers)
    assert "capitalised" in capsys.readouterr().out
    with load_lexicon(lex) as L:
        # (kocie, żółwiami: SGJP forms this dictionary lacks are UNATTESTED, see test_polish_attested)
        assert {"kot", "kota", "kotami", "żółw"} <= set(L.keys())
        assert "żółwami" not in L and "żółwa" not in L       # the affixes' forms, not SGJP's
        assert L.explain("kotami")[0].rule == "noun"
        assert L.manifest["sources"][1]["kind"] == "hunspell-aff"


def test_hunspell_does_not_admit_what_sgjp_denies(tmp_path, capsys):
    """A stem SGJP knows as a combining form (or abbreviation, ...) is not admitted from
    Hunspell, with or without a headword list."""
    write(tmp_path / "v.aff", "SET UTF-8\n", "utf-8")
    # abstrakcyjnego: the witness of the SGJP form checked below (an unattested one is denied)
    dic = write(tmp_path / "v.dic", "3\nabstrakcyjno\nabstrakcyjny\nabstrakcyjnego\n")
    heads = write(tmp_path / "h.txt", "abstrakcyjny\n")
    lex = build(tmp_path, "v", "--headwords", heads, "--hunspell", dic)
    assert "known-to-sgjp" in capsys.readouterr().out
    with load_lexicon(lex) as L:
        assert "abstrakcyjno" not in L and "abstrakcyjny" in L
    lex = build(tmp_path, "w", "--hunspell", dic)
    with load_lexicon(lex) as L:
        assert "abstrakcyjno" not in L and "abstrakcyjnego" in L


def test_hunspell_drops_abbreviations_listed_without_their_dot(tmp_path, capsys):
    """pl_PL.dic lists np, itd, godz bare; SGJP knows them only as "np." (brev): not words.
    Words SGJP knows bare (dom, ul) stay."""
    write(tmp_path / "a.aff", "SET UTF-8\n", "utf-8")
    dic = write(tmp_path / "a.dic", "5\nnp\nitd\ngodz\ndom\nul\n")
    lex = build(tmp_path, "a", "--hunspell", dic)
    assert "abbreviation" in capsys.readouterr().out
    with load_lexicon(lex) as L:
        assert not {"np", "itd", "godz"} & set(L.keys())
        # (domu, ula: SGJP forms this dictionary lacks are UNATTESTED, see test_polish_attested)
        assert {"dom", "ul"} <= set(L.keys())


def test_combined_sources_and_determinism(tmp_path, capsys):
    words = write(tmp_path / "w.txt", "abc\nkot\n")
    heads = write(tmp_path / "h.txt", "kot\n")
    a = build(tmp_path, "a", "--words", words, "--headwords", heads, "--name", "same")
    b = tmp_path / "b.lex"
    assert build_main(["--rules", "pl-scrabble", "--quiet", "--workers", "2", "-o", str(b),
                       "--words", words, "--headwords", heads, "--name", "same"]) == 0
    for f in sorted(p.name for p in a.iterdir()):
        assert (a / f).read_bytes() == (b / f).read_bytes(), f
    with load_lexicon(a) as L:
        rules = {r.rule for r in L.explain("kot")}
        assert rules == {"word-list", "noun"}
        assert "abc" in L


def test_rebuild_replaces_atomically(tmp_path, capsys):
    w1 = write(tmp_path / "w1.txt", "kot\n")
    w2 = write(tmp_path / "w2.txt", "pies\n")
    out = build(tmp_path, "x", "--words", w1)
    build(tmp_path, "x", "--words", w2)
    with load_lexicon(out) as L:
        assert L.keys() == ["pies"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w1.txt", "w2.txt", "x.lex"]


def test_rejected_log_lists_every_rejection(tmp_path, capsys):
    src = write(tmp_path / "h.txt", "Warszawa\n")
    log = tmp_path / "rej.tsv"
    # every form refused: no lexicon is written (an empty one would be served), the log is
    rc = build_main(["--rules", "pl-scrabble", "--quiet", "--workers", "1", "-o", str(tmp_path / "r.lex"),
                     "--headwords", src, "--rejected", str(log)])
    assert rc == 2 and "no form was admitted" in capsys.readouterr().err
    assert not (tmp_path / "r.lex").exists()
    lines = log.read_text(encoding="utf-8").splitlines()
    assert len(lines) >= 20 and all("\tproper-name\th.txt:1\t" in l for l in lines)


def test_dump_and_diff(tmp_path, capsys):
    a = build(tmp_path, "a", "--words", write(tmp_path / "a.txt", "kot\npies\n"))
    b = build(tmp_path, "b", "--words", write(tmp_path / "b.txt", "kot\nżółw\n"))
    capsys.readouterr()
    assert service_main(["dump", "--lexicon", str(a)]) == 0
    assert capsys.readouterr().out == "kot\npies\n"
    assert service_main(["diff", str(a), str(b)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "- pies\n+ żółw\n"
    assert "1 added, 1 removed" in captured.err
    assert service_main(["diff", str(a), str(a)]) == 0


@pytest.mark.parametrize("args, message", [
    (["--rules", "no-such-rules", "--words", "x"], "rule set"),
    (["--rules", "pl-scrabble"], "no sources"),
    (["--rules", "pl-scrabble", "--words", "/nonexistent/w.txt"], "no such file"),
    (["--rules", "pl-scrabble", "--profile", "cs-box", "--words", __file__], "language"),
])
def test_build_errors_are_one_line(tmp_path, capsys, args, message):
    assert build_main([*args, "-o", str(tmp_path / "e.lex")]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not (tmp_path / "e.lex").exists()


def test_czech_build_does_not_depend_on_the_worker_count(tmp_path):
    """Byte-identical lexicons with 1 and 2 workers (in one process; tests/test_build_determinism.py
    also varies the hash seed): provenance ids are renumbered canonically when the build finishes,
    never left in the order worker processes happen to meet a tag set. 12,000 lines = 3 chunks."""
    root = Path(__file__).resolve().parent.parent / "build_tools" / "czech" / "hunspell"
    lines = (root / "cs_CZ.dic").read_text(encoding="utf-8").splitlines()[1:12001]
    dic = tmp_path / "cs.dic"
    dic.write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "cs.aff").write_bytes((root / "cs_CZ.aff").read_bytes())
    outs = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}" / "cs.lex"
        assert build_main(["--rules", "cs-kriskros", "--quiet", "--workers", workers, "--hunspell",
                           str(dic), "-o", str(out)]) == 0
        outs.append({p.name: p.read_bytes() for p in sorted(out.iterdir())})
    assert outs[0] == outs[1]
