"""Compiler.finish: the forked trie process and the in-process fallback give the same artifact;
a form with several records; the distinct-rejected count only with a rejection log."""

import os

from build_tools.cli import main as build_main
from build_tools.compile import Compiler
from build_tools.profiles import load_profile
from lexicon_service.rules import load_rule_set

WORDS = ["kot", "kota", "kotu", "żółw", "żółwia", "pies", "psa", "dom", "domu", "koty"]


def compiled(monkeypatch=None, no_fork=False):
    if no_fork:
        monkeypatch.delattr(os, "fork")
    c = Compiler(load_profile("pl"), load_rule_set("pl-scrabble").tile_set)
    rows = [("kot", [(w, (("N;SG", "noun"),)) for w in WORDS[:3]] + [("koty", (("N;PL", "noun"),))]),
            ("pies", [("pies", (("N;SG", "noun"),)), ("psa", (("N;SG", "noun"),))]),
            ("żółw", [("żółw", (("N;SG", "noun"),)), ("żółwia", (("N;SG", "noun"),))]),
            ("kotek", [("kota", (("N;GEN", "noun"), ("V", "verb"))), ("kot", (("N;SG", "noun"),))]),
            ("dom", [("dom", (("N;SG", "noun"),)), ("domu", (("N;SG", "noun"),)), ("kota", (("N;SG", "noun"),))])]
    for head, items in rows:
        c.add_admitted_flat([head], [len(items)], [k for k, _ in items], [c.tagset_id(p) for _, p in items])
    forms, heads, tables, readings, total = c.finish()
    return sorted(forms.items()), sorted(heads.items()), tables, readings, total, c.report


def test_fork_and_in_process_tries_agree(monkeypatch):
    forked = compiled()
    here = compiled(monkeypatch, no_fork=True)
    assert forked[:5] == here[:5]
    # kota has three records (kot, kotek, dom), kot two: 13 records for 10 forms
    assert forked[4] == 13 and len(forked[0]) == 10
    assert forked[5].admitted_by_rule == here[5].admitted_by_rule
    assert sum(forked[5].admitted_by_rule.values()) == 10


def test_rejected_count_only_with_a_log(tmp_path, capsys):
    src = tmp_path / "w.txt"
    src.write_text("kot\nKot\nqubit\na\n", encoding="utf-8")
    out = tmp_path / "w.lex"
    args = ["--rules", "pl-scrabble", "--quiet", "--workers", "1", "--words", str(src), "-o", str(out)]
    assert build_main(args) == 0
    assert "distinct forms were rejected" not in capsys.readouterr().out
    assert build_main(args + ["--rejected", str(tmp_path / "rej.tsv")]) == 0
    # Kot, qubit, a rejected; Kot lowercased is kot, which is in the lexicon
    assert "2 distinct forms were rejected and are not in the lexicon" in capsys.readouterr().out


def test_a_trie_process_failing_before_or_after_saving_changes_nothing(monkeypatch):
    import build_tools.compile as compile_mod

    expected = compiled()[:5]
    parent = os.getpid()
    real_trie, real_islice = compile_mod._trie, compile_mod.islice

    def trie_failing_in_child(keys):
        if os.getpid() != parent:
            raise RuntimeError("child")
        return real_trie(keys)

    def lookups_dying_in_child(it, *args):
        if os.getpid() != parent:
            os._exit(3)             # after the trie was saved: this process looks up every key
        return real_islice(it, *args)

    with monkeypatch.context() as m:
        m.setattr(compile_mod, "_trie", trie_failing_in_child)
        assert compiled()[:5] == expected
    with monkeypatch.context() as m:
        m.setattr(compile_mod, "islice", lookups_dying_in_child)
        assert compiled()[:5] == expected
