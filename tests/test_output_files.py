"""Files commands write: whole under a temporary name, renamed; never through a link, over a lexicon's
file, or half-written on a full disk; recover-games writes nothing beside the database it reads."""

from __future__ import annotations

import errno
import hashlib
import os

import pytest

from lexicon_service.cli import main
from lexicon_service.lexicon import load_lexicon
from test_games_db_faults import play_games
from test_service import WORDS, write_lexicon


def _digests(directory) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(directory.iterdir()) if p.is_file()}


@pytest.fixture
def lexicons(tmp_path):
    directory = tmp_path / "lex"
    directory.mkdir()
    write_lexicon(directory, "pl-scrabble", "pl-scrabble", WORDS["pl-scrabble"])
    return directory


def _export(capsys, lexicons, out, *more) -> tuple[int, str]:
    code = main(["export-kwg", "--lexicons", str(lexicons), "--lexicon", "pl-scrabble", "-o", str(out), *more])
    return code, capsys.readouterr().err


def test_export_kwg_never_writes_into_a_lexicon(lexicons, capsys):
    own = lexicons / "pl-scrabble.lex"
    before = _digests(own)
    code, err = _export(capsys, lexicons, own, "--name", "moves")
    assert code == 2 and "is a lexicon" in err, err
    assert _digests(own) == before
    load_lexicon(own)  # still whole


@pytest.mark.parametrize("points_at", ["nothing", "a file"])
def test_export_kwg_never_writes_through_a_link(lexicons, tmp_path, capsys, points_at):
    out = tmp_path / "out"
    out.mkdir()
    victim = tmp_path / "victim.txt"
    if points_at == "a file":
        victim.write_text("not the export's\n")
    (out / "w.kwg").symlink_to(victim)
    code, err = _export(capsys, lexicons, out, "--name", "w")
    assert code == 2 and "symbolic link" in err, err
    assert (victim.read_text() == "not the export's\n") if points_at == "a file" else not victim.exists()
    assert sorted(p.name for p in out.iterdir()) == ["w.kwg"]  # nothing else written: the CSV neither


def test_export_kwg_on_a_full_disk_leaves_the_old_file_whole(lexicons, tmp_path, capsys, monkeypatch):
    out = tmp_path / "out"
    assert _export(capsys, lexicons, out)[0] == 0
    before = _digests(out)

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr("lexicon_service.output_files.os.fsync", full)
    code, err = _export(capsys, lexicons, out, "--kwg24")  # other bytes, were they written
    assert code == 2 and "No space left on device" in err, err
    assert _digests(out) == before  # the old files whole, no temporary left beside them


def test_recover_games_writes_nothing_beside_the_damaged_file_nor_through_a_link(tmp_path, capsys):
    damaged_dir = tmp_path / "damaged"
    damaged_dir.mkdir()
    damaged = damaged_dir / "games.db"
    play_games(damaged, 4)
    listing = sorted(p.name for p in damaged_dir.iterdir())
    dangling = tmp_path / "new.db"
    dangling.symlink_to(tmp_path / "elsewhere.db")
    assert main(["recover-games", str(damaged), str(dangling)]) == 2
    assert "exists" in capsys.readouterr().err
    assert not (tmp_path / "elsewhere.db").exists()
    new = tmp_path / "recovered.db"
    assert main(["recover-games", str(damaged), str(new)]) == 0, capsys.readouterr().err
    assert "copied 4 games" in capsys.readouterr().out
    assert sorted(p.name for p in damaged_dir.iterdir()) == listing
    assert sorted(p.name for p in tmp_path.iterdir()) == ["damaged", "new.db", "recovered.db"]
