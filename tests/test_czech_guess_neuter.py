"""A guessed -í headword is the neuter noun when the dictionary has its -ní adjective or the hard
adjective it names (issue 38 item 2): pohlaví beside pohlavní is inflected as záhlaví, not as the -aví
animal adjectives kraví, paví, pěnkaví."""

from __future__ import annotations

from pathlib import Path

from build_tools.cli import main as build_main
from build_tools.czech.dictionary import shipped_paths
from lexicon_service.lexicon import load_lexicon


def test_a_guessed_i_headword_with_an_ni_adjective_is_a_neuter_noun(tmp_path: Path):
    lines = ["kraví/Y", "paví/Y", "pěnkaví/Y", "záhlaví/S", "pohlavní/YKRN"]
    assert set(lines) <= set(shipped_paths()[0].read_text(encoding="utf-8").splitlines())
    par = tmp_path / "par.dic"
    par.write_text(f"{len(lines)}\n" + "\n".join(lines) + "\n", encoding="utf-8")
    par.with_suffix(".aff").write_bytes(shipped_paths()[1].read_bytes())
    heads = tmp_path / "heads.txt"
    heads.write_text("pohlaví\n", encoding="utf-8")
    out = tmp_path / "g.lex"
    assert build_main(["--rules", "cs-kriskros", "--quiet", "--workers", "1", "--headwords", str(heads),
                       "--paradigms", str(par), "-o", str(out)]) == 0
    with load_lexicon(out) as lex:
        readings = lex.explain("pohlaví")
        assert readings and all(r.model == "záhlaví" for r in readings)
        assert all(r.tag.split(";")[-1] != "ADJ" and "ADJ" not in r.tag.split(";") for r in readings)
        assert "pohlavího" not in lex          # no adjective forms
