"""The endgame's own word graph (`csrc/word_prune.c`, `_core.endgame_words`): the words a play to the end of
this endgame could form. It must lose nothing: at every node of whole endgame trees, and for every sub-rack
of both racks at the start, it gives exactly the plays the full graph gives, and the C search on it visits
the same nodes and finds the same answer as on the full graph."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from lexicon_service.lexicon import load_lexicon
from lexicon_service.movegen import _core
from lexicon_service.rules.board import Board
from lexicon_service.movegen.endgame import MAX_DEPTH, TABLE_BITS, _c_params, _counts, _Search, _start
from test_service import write_lexicon
from tests.game_helpers import small_endgames

# Words the endgame racks (tiles of AKOTDME) can make, some only where the board's tiles help, and words
# of other letters that no endgame here can form (the graph must drop them).
WORDS = ["kot", "kod", "kat", "tak", "dom", "tom", "mak", "kto", "oko", "tam", "dam", "akt", "kato", "kota",
         "koda", "data", "tama", "mata", "domek", "tok", "ok", "to", "ta", "od", "do", "ko", "kotek", "tomek",
         "motek", "dama", "mama", "tata", "kadet", "makao", "metka", "kotem", "domem", "atom", "akta", "oda",
         "dekada", "motto", "kokoda", "pies", "lis", "rzeka", "zupa", "ryba", "sowa", "las", "nos", "ul"]
NODES_PER_ENDGAME = 2000


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory):
    directory: Path = tmp_path_factory.mktemp("endgame-words")
    write_lexicon(directory, "pl-endgame-words", "pl-scrabble", WORDS)
    return load_lexicon(directory / "pl-endgame-words.lex")


def endgames(lexicon):
    """Small endgames, every third with a blank on the mover's rack."""
    for i, (board, mine, theirs) in enumerate(small_endgames(lexicon, 12, 21, tiles=(2, 4))):
        yield board, ("?" + mine[1:] if i % 3 == 0 else mine), theirs


def same_plays_everywhere(full: _Search, pruned: _Search, board: bytes, racks: tuple, budget: list) -> None:
    """Walk the endgame tree from this node (at most budget[0] nodes in all): both graphs give the mover
    the same plays at each node."""
    if budget[0] <= 0 or not racks[0]:
        return
    budget[0] -= 1
    plays = full.moves(board, racks[0])
    assert pruned.moves(board, racks[0]) == plays
    for play in plays:
        after, left = full.play(board, racks[0], play)
        same_plays_everywhere(full, pruned, after, (racks[1], left), budget)


def sub_racks(rack: tuple):
    return {combo for size in range(1, len(rack) + 1) for combo in itertools.combinations(rack, size)}


def test_the_endgame_graph_gives_the_full_graph_plays_at_every_node(lexicon):
    rs = lexicon.rule_set
    dropped = nodes = 0
    for board, mine, theirs in endgames(lexicon):
        full, _board, board_bytes, a, b = _start(rs, board, mine, lexicon, theirs, None)
        pruned = _Search(rs, lexicon, None)
        pruned.graph, kept = _core.endgame_words(full.graph, full.static.core_rules, board_bytes, _counts(a),
                                                 _counts(b))
        dropped += kept < len(WORDS)
        for rack in sub_racks(a) | sub_racks(b):
            assert pruned.moves(board_bytes, rack) == full.moves(board_bytes, rack)
        budget = [NODES_PER_ENDGAME]
        same_plays_everywhere(full, pruned, board_bytes, (a, b), budget)
        same_plays_everywhere(full, pruned, board_bytes, (b, a), budget)
        nodes += 2 * NODES_PER_ENDGAME - budget[0]
    assert dropped == 12 and nodes > 1000


def test_the_search_on_the_endgame_graph_is_the_search_on_the_full_graph(lexicon):
    rs = lexicon.rule_set
    for board, mine, theirs in endgames(lexicon):
        search, _board, board_bytes, a, b = _start(rs, board, mine, lexicon, theirs, None)
        answers = [_core.solve_endgame(search.graph, search.static.core_rules, board_bytes, _counts(a), _counts(b),
                                       max_depth=MAX_DEPTH, table_bits=TABLE_BITS, prune_words=prune,
                                       **_c_params(rs))
                   for prune in (False, True)]
        assert answers[0] == answers[1]  # value, exact, depth, nodes and the sequence


def test_racks_that_form_no_word_give_an_empty_graph(lexicon):
    rs = lexicon.rule_set
    board = Board.empty(rs)
    search, _board, board_bytes, a, b = _start(rs, board, "EE", lexicon, "E", None)
    graph, kept = _core.endgame_words(search.graph, search.static.core_rules, board_bytes, _counts(a), _counts(b))
    assert kept == 0 and search.moves(board_bytes, a) == []
    search.graph = graph
    assert search.moves(board_bytes, a) == []
