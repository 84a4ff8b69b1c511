"""Loading a lexicon: checksum, truncation, unknown formats (lexicon_service/lexicon.py)."""

import json
import mmap
import os
import shutil

import pytest

from lexicon_service.cli import main as service_main
from lexicon_service.rules.admissible_words import AdmissibleWords
from lexicon_service.lexicon import (
    FORMAT_VERSION, LexiconCorruptError, LexiconError, LexiconFormatError, load_lexicon,
)
from lexicon_service.lexicon_copies import SharedFiles
from tests.lexicon_helpers import build_word_list_lexicon


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    return build_word_list_lexicon(tmp_path_factory.mktemp("lex"), "kot\nkota\npies\nżółw\n")


@pytest.fixture
def copy(built, tmp_path):
    dst = tmp_path / "copy.lex"
    shutil.copytree(built, dst)
    return dst


def test_loads_and_answers_for_admissible_words(built):
    lex = load_lexicon(built)
    assert isinstance(lex, AdmissibleWords)
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


def _mapped_from(lex) -> str:
    return os.readlink(f"/proc/self/fd/{lex._file.fileno()}")


def _mapped_names() -> set[str]:
    """The files this process maps (/proc/self/maps), " (deleted)" cut off."""
    with open("/proc/self/maps") as maps:
        return {line.split(None, 5)[5].strip().removesuffix(" (deleted)") for line in maps if len(line.split()) > 5}


def test_move_graph_is_read_from_a_private_copy(copy):
    """Without shared copies the move graph is made from an unlinked private copy, as readings.bin is
    mapped from one: a file rewritten on disk changes nothing, and a damaged one is refused."""
    with load_lexicon(copy) as lex:
        arcs = bytes(lex.move_graph)
        (copy / "moves.gaddag").write_bytes(b"\xff" * (copy / "moves.gaddag").stat().st_size)
        assert bytes(lex.move_graph) == arcs
        with pytest.raises(LexiconCorruptError, match="moves.gaddag"):
            load_lexicon(copy)


@pytest.mark.skipif(not hasattr(os, "memfd_create"), reason="sealed copies need memfd_create (Linux)")
def test_shared_sealed_copies_are_mapped_and_never_change(copy):
    """serve --processes: the supervisor reads the files once into sealed memfds and the children map
    those; a file rewritten on disk changes nothing served, and nobody can write the sealed copy."""
    shared = SharedFiles.read_directory(copy.parent)
    try:
        with load_lexicon(copy) as alone:
            layout = bytes(alone.search_graph)
        # by content: here the forms and the headwords are the same four words, one trie, held once;
        # and the move graph's search layout, made once here
        assert len(shared.files) == 3 and shared.total_bytes() == len(layout) + sum(
            (copy / name).stat().st_size for name in ("headwords.marisa", "readings.bin"))
        inherited = SharedFiles.from_environment(shared.environment())
        lex = load_lexicon(copy, shared=inherited, check_structure=True)
        assert _mapped_from(lex).startswith("/memfd:lexicon:")
        # the search layout is a view of the sealed copy's mapping, not a copy on this process's heap
        assert "/memfd:lexicon:copy.lex/moves.gaddag:search-layout" in _mapped_names()
        assert isinstance(lex.search_graph.obj, mmap.mmap) and bytes(lex.search_graph) == layout
        arcs = bytes(lex.move_graph)
        for name in ("forms.marisa", "headwords.marisa", "readings.bin", "moves.gaddag"):  # rewritten in place
            p = copy / name
            p.write_bytes(b"\xff" * p.stat().st_size)
        assert lex.is_admissible("kota") and not lex.is_admissible("kotb")
        assert [r.headword for r in lex.explain("kota")] == ["kota"]
        assert bytes(lex.move_graph) == arcs
        for fd in inherited.fds():
            with pytest.raises(PermissionError):  # F_SEAL_WRITE
                os.pwrite(fd, b"x", 0)
            with pytest.raises(PermissionError):  # F_SEAL_SHRINK
                os.ftruncate(fd, 0)
        lex.close()
        with pytest.raises(LexiconCorruptError):  # a copy of its own from the damaged files: refused
            load_lexicon(copy)
    finally:
        shared.close()


def test_only_sealed_copies_of_the_manifests_bytes_are_shared(copy, tmp_path):
    """A descriptor that is not a sealed memfd of the file's size (a plain file, a copy that could still
    change) is not used: the loader makes its private copy, as without sharing."""
    manifest = json.loads((copy / "manifest.json").read_text())
    files = manifest["files"]
    plain = {name: open(copy / name, "rb") for name in ("forms.marisa", "headwords.marisa", "readings.bin")}
    try:
        given = SharedFiles({files[name]["sha256"]: (fh.fileno(), files[name]["bytes"])
                             for name, fh in plain.items()})
        with load_lexicon(copy, shared=given) as lex:
            assert not _mapped_from(lex).startswith("/memfd:") and lex.is_admissible("kota")
        garbage = SharedFiles.from_environment("nonsense,abc:1:2," + "0" * 64 + ":999999:5")
        assert len(garbage.files) == 1
        with load_lexicon(copy, shared=garbage) as lex:
            assert lex.is_admissible("kota")
    finally:
        for fh in plain.values():
            fh.close()
