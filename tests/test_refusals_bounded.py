"""A refusal lookup in refused.tsv does bounded work and takes bounded memory whatever the file holds
(its sha256 recomputed by whoever made it)."""

from __future__ import annotations

import tracemalloc

from lexicon_service.lexicon_format import MAX_REFUSALS_FOUND, find_refusals, refusals_bytes


def _peak_of(call):
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_hostile_refusals_file_costs_one_lookup_little_memory():
    huge_line = b"kot\tinterjection\t" + b"x" * (48 << 20) + b"\n"  # one line of 48 MB, of the key looked up
    many = b"kota\tnoun\tkot\n" * 400_000  # 400,000 refusals of one key
    no_newline = b"\xff" * (8 << 20)
    for data in (b"a\tnoun\ta\n" + huge_line + b"zzz\tnoun\tzzz\n", b"a\tnoun\ta\n" + many + no_newline,
                 no_newline + huge_line + many):
        for key in ("kot", "kota", "zzz", "a", "kotek"):
            found, peak = _peak_of(lambda: find_refusals(data, key))
            assert peak < 1 << 20, (key, peak)  # under 1 MB: before, a slice of the 48 MB line was copied
            assert len(found) <= MAX_REFUSALS_FOUND
    assert find_refusals(b"a\tnoun\ta\n" + huge_line + b"zzz\tnoun\tzzz\n", "kot") == []  # too long: skipped
    found = find_refusals(b"a\tnoun\ta\n" + many + no_newline, "kota")
    assert found[0] == ("noun", "kot", "") and len(found) == MAX_REFUSALS_FOUND


def test_the_builds_own_file_is_read_as_before():
    data = refusals_bytes({"haf": {("interjection", "haf")}, "ostravská": {("place-name-adjective", "ostravský")},
                           "kot": {("a", "b"), ("c", "d")}}, {"ostravský": "place name Ostrava"})
    assert find_refusals(data, "ostravská") == [("place-name-adjective", "ostravský", "place name Ostrava")]
    assert sorted(find_refusals(data, "kot")) == [("a", "b", ""), ("c", "d", "")]
    assert find_refusals(data, "haf") == [("interjection", "haf", "")] and find_refusals(data, "ha") == []
