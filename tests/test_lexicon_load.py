"""Loading a lexicon: checksum, truncation, unknown formats (lexicon_service/lexicon.py)."""

import json
import shutil

import pytest

from build_tools.cli import main as build_main
from lexicon_service.cli import main as service_main
from lexicon_service.judge import WordJudge
from lexicon_service.lexicon import (
    FORMAT_VERSION, LexiconCorruptError, LexiconError, LexiconFormatError, load_lexicon,
)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    d = tmp_path_factory.mktemp("lex")
    words = d / "w.txt"
    words.write_text("kot\nkota\npies\nżółw\n", encoding="utf-8")
    out = d / "small.lex"
    assert build_main(["--rules", "pl-scrabble", "--quiet", "--words", str(words), "-o", str(out)]) == 0
    return out


@pytest.fixture
def copy(built, tmp_path):
    dst = tmp_path / "copy.lex"
    shutil.copytree(built, dst)
    return dst


def test_loads_and_is_a_word_judge(built):
    lex = load_lexicon(built)
    assert isinstance(lex, WordJudge)
    assert lex.name == "small" and len(lex) == 4
    assert lex.manifest["format_version"] == FORMAT_VERSION
    assert lex.manifest["counts"]["forms"] == 4
    assert lex.is_admissible("kota") and not lex.is_admissible("kotb")
    assert 5 not in lex
    assert lex.explain("nope") == []
    lex.close()


def test_truncated_file_is_refused(copy):
    p = copy / "forms.marisa"
    p.write_bytes(p.read_bytes()[:-10])
    with pytest.raises(LexiconCorruptError, match="truncated"):
        load_lexicon(copy)


def test_flipped_byte_is_refused(copy):
    p = copy / "readings.bin"
    data = bytearray(p.read_bytes())
    data[0] ^= 0xFF
    p.write_bytes(bytes(data))
    with pytest.raises(LexiconCorruptError, match="checksum"):
        load_lexicon(copy)


def test_missing_file_is_refused(copy):
    (copy / "tables.json").unlink()
    with pytest.raises(LexiconCorruptError, match="missing"):
        load_lexicon(copy)


def test_corrupt_manifest_is_refused(copy):
    (copy / "manifest.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(LexiconCorruptError, match="manifest"):
        load_lexicon(copy)


def test_unknown_format_version_is_refused(copy):
    m = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    m["format_version"] = 99
    (copy / "manifest.json").write_text(json.dumps(m), encoding="utf-8")
    with pytest.raises(LexiconFormatError, match="format version 99 is not supported"):
        load_lexicon(copy)


def test_not_a_lexicon(tmp_path):
    f = tmp_path / "plain.lex"
    f.write_text("kot\n")
    with pytest.raises(LexiconFormatError, match="not a lexicon"):
        load_lexicon(f)
    (tmp_path / "empty.lex").mkdir()
    with pytest.raises(LexiconFormatError, match="no manifest"):
        load_lexicon(tmp_path / "empty.lex")
    with pytest.raises(LexiconError, match="no such lexicon"):
        load_lexicon(tmp_path / "missing.lex")


def test_cli_reports_corruption_in_one_line(copy, capsys):
    (copy / "headwords.marisa").write_bytes(b"junk")
    assert service_main(["check", "--lexicon", str(copy), "kot"]) == 2
    err = capsys.readouterr().err
    assert "truncated or altered" in err and "Traceback" not in err


def test_lexicon_name_lookup_in_directory(built, capsys):
    assert service_main(["check", "--lexicons", str(built.parent), "--lexicon", "small", "kot", "kotx"]) == 1  # one invalid
    assert capsys.readouterr().out == "kot\tvalid\nkotx\tinvalid\n"
