"""The lexicon format has one owner (lexicon_service/lexicon_format.py): its worked example, its
files entries, and no other module of the builder or the loader hashing or packing on its own."""

import ast
import json
import shutil
from pathlib import Path

import pytest

from lexicon_service import lexicon_format as fmt
from lexicon_service.lexicon import load_lexicon
from tests.lexicon_helpers import build_word_list_lexicon

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    out = build_word_list_lexicon(tmp_path_factory.mktemp("lex"), "kot\nkoty\npies\n")
    return out, out.parent / "w.txt"


def test_worked_example_of_the_docstring():
    # "kot" (form 0) and "koty" (form 1), one reading each, both of headword 0
    records = [0 << fmt.HEADWORD_SHIFT | 1, 0 << fmt.HEADWORD_SHIFT | 0]
    data = fmt.pack_readings([1, 1], records)
    assert data == bytes.fromhex("00000000" "01000000" "02000000" "0100000000000000" "0000000000000000")
    assert "00000000 01000000 02000000 0100000000000000 0000000000000000" in fmt.__doc__
    assert fmt.pack_readings(None, records) == data      # one reading a form: offsets 0..n
    offsets, unpacked = fmt.unpack_readings(Path("readings.bin"), memoryview(data), 2)
    assert list(offsets) == [0, 1, 2] and list(unpacked) == records
    assert [fmt.record_fields(r) for r in unpacked] == [(0, 1), (0, 0)]
    assert fmt.file_entry(data) == {"bytes": 28, "sha256": fmt.checksum(data)}


@pytest.mark.parametrize("size", [0, 8, 13, 27, 29])
def test_readings_of_another_size_are_refused(size):
    with pytest.raises(fmt.LexiconCorruptError, match="readings.bin: truncated"):
        fmt.unpack_readings(Path("readings.bin"), memoryview(bytes(size)), 2)


def test_manifest_entries_are_the_formats(built):
    out, words = built
    manifest = fmt.read_manifest(out)
    files = fmt.listed_files(out, manifest)
    assert set(files) == {*fmt.FILES, fmt.MOVE_GRAPH}    # a word list refuses nothing by rule: no refused.tsv
    for name, entry in files.items():
        assert entry == fmt.file_entry_of(out / name) == fmt.file_entry((out / name).read_bytes())
    assert manifest["sources"] == [fmt.source_entry("words", words)]
    assert (out / fmt.MANIFEST).read_bytes() == fmt.manifest_bytes(
        {k: v for k, v in manifest.items() if k not in ("format", "format_version", "files")}, files)
    assert (out / fmt.TABLES).read_bytes() == fmt.tables_bytes(json.loads((out / fmt.TABLES).read_text("utf-8")))
    fmt.verify_files(out, manifest)


def test_verify_names_the_altered_file(built, tmp_path):
    out, _ = built
    copy = tmp_path / "copy.lex"
    shutil.copytree(out, copy)
    data = bytearray((copy / fmt.READINGS).read_bytes())
    data[-1] ^= 1
    (copy / fmt.READINGS).write_bytes(bytes(data))
    with pytest.raises(fmt.LexiconCorruptError, match="readings.bin: checksum mismatch"):
        fmt.verify_files(copy, fmt.read_manifest(copy))
    with pytest.raises(fmt.LexiconCorruptError, match="readings.bin: checksum mismatch"):
        load_lexicon(copy)


def test_readings_round_trip_through_the_loader(built):
    out, _ = built
    with load_lexicon(out) as lexicon:
        n = len(lexicon)
        offsets, records = fmt.unpack_readings(out / fmt.READINGS, memoryview((out / fmt.READINGS).read_bytes()), n)
        lengths = [offsets[i + 1] - offsets[i] for i in range(n)]
        assert fmt.pack_readings(lengths, list(records)) == (out / fmt.READINGS).read_bytes()
        assert sum(len(lexicon.explain(key)) for key in lexicon.keys()) == len(records)


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_only_the_format_module_hashes_or_packs_lexicon_files():
    """Checksums and records are made in one place: the builder and the loader import no hashlib
    (lexicon_format.checksum, file_entry, source_entry) and pack no uint64 arrays (pack_readings)."""
    modules = [*sorted((ROOT / "build_tools").rglob("*.py")), ROOT / "lexicon_service" / "lexicon.py"]
    offenders = [str(p.relative_to(ROOT)) for p in modules
                 if "hashlib" in _imports(p) or 'array("Q"' in p.read_text(encoding="utf-8")]
    assert offenders == []


def test_refusals_round_trip_and_find_by_key():
    """refused.tsv's worked example (the module doc) and lookups: every key's pairs, none for a key
    that is only a prefix or an extension of one, any bytes searched without failing."""
    refused = {"mostecký": {("place-name-adjective", "mostecký")}, "most": {("r", "a"), ("q", "b")},
               "mostecká": {("place-name-adjective", "mostecký")}, "haf": {("interjection", "haf")}}
    details = {"mostecký": "place name Most, rule irregular: irregular derivation"}
    data = fmt.refusals_bytes(refused, details)
    assert data.splitlines()[0] == b"haf\tinterjection\thaf"
    assert "mostecká\tplace-name-adjective\tmostecký\tplace name Most, rule irregular: irregular derivation" \
        in data.decode("utf-8").splitlines()
    assert data == b"".join(sorted(data.splitlines(keepends=True)))
    for key, pairs in refused.items():
        assert sorted(fmt.find_refusals(data, key)) == sorted((r, h, details.get(h, "")) for r, h in pairs)
    assert fmt.find_refusals(data, "mos") == fmt.find_refusals(data, "mosteckýx") == []
    assert fmt.find_refusals(b"", "a") == [] and fmt.find_refusals(b"a\tb", "a") == []
    assert fmt.find_refusals(b"\xff\xfe\n\n\ta\tb\n", "a") == []
