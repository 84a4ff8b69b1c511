"""The move graph of a lexicon: ``moves.gaddag``, a minimised GADDAG as an array of 32-bit arcs, in our
own format ``CZPLGDG1`` (not a KWG: ``kwg.py`` writes that format for other engines). Lexicons built
before the file had its name hold the same bytes as ``moves.kwg``; they load as they are.

Written by ``lexicon-build`` beside ``forms.marisa`` (and by ``lexicon-build --move-graph-only
LEX.lex`` into an existing lexicon), listed in the manifest's ``files`` like every other file, and
checked at load (``lexicon_service/lexicon.py``). It is made from the lexicon's own tile keys, so it
holds exactly the words ``is_admissible`` accepts that fit on the board.

File layout (little-endian)::

    0   8 bytes   magic b"CZPLGDG1"
    8   uint32    n_arcs
    12  uint32    max_len: words longer than this many tiles (the board's longer side) are left out
    16  uint32    alphabet_bytes: length of the alphabet text
    20  ...       the rule set's alphabet (TileSet.alphabet), letters joined by " ", UTF-8, padded
                  with NUL bytes to a multiple of 4
    ..  n_arcs x uint32 arcs

Tile numbers: 0 is the GADDAG separator (written "^" below), the alphabet's i-th letter is i + 1
(so a multi-letter tile such as Kris Kros CH is one number, like any other). An arc is::

    bits 0-23   index of the first arc of the node the arc leads to (0: no node)
    bit  24     end: the last arc of its node (a node is a run of arcs sorted by tile)
    bit  25     accepts: the string spelled up to and including this arc is in the graph
    bits 26-31  tile number

Arc 0 is the root pointer: its index is the root node. The GADDAG holds, for each word w of n tiles
and each i in 1..n, the string reverse(w[:i]) + "^" + w[i:] (for i = n: reverse(w) alone), so a
word can be grown from any of its tiles: leftwards first, then, after "^", rightwards. Equal
suffix structures are stored once (the automaton is minimal), nodes are emitted children first.

Worked example: alphabet "A B" (A = 1, B = 2), words AB and B. The strings are "A^B", "BA" (from
AB) and "B" (from B). Nodes are laid out breadth-first from the root (index: tile, flags, -> child)::

    0: ^  end            -> 1      root pointer
    1: A                 -> 3      root node: A ...
    2: B  end accepts    -> 4      ... or B: the word B itself (the string "B")
    3: ^  end            -> 5      after A: the separator
    4: A  end accepts    -> 0      after B: A completes "BA", AB read leftwards from its B
    5: B  end accepts    -> 0      after "A^": B completes "A^B", AB grown from its A

Move generation (``csrc/movegen.c``) starts at an anchor square, follows board tiles and rack tiles
leftwards through this graph, then takes "^" and goes right; cross-checks of a square are found by
reading the crossing word reversed (the i = n strings) from the root.
"""

from __future__ import annotations

import struct

from lexicon_service.movegen import _core

MAGIC = b"CZPLGDG1"
FILE_NAME = "moves.gaddag"
OLD_FILE_NAME = "moves.kwg"  # the same file in lexicons built before it was named for its format
_HEADER = struct.Struct("<8sIII")


class MoveGraphError(ValueError):
    """A move graph that does not fit its rule set or is damaged."""


def alphabet(tile_set) -> tuple[str, ...]:
    """The letters of the tile numbers 1, 2, ... (the rule set's alphabet)."""
    return tuple(tile_set.alphabet)


def max_word_tiles(rule_set) -> int:
    return max(rule_set.rows, rule_set.columns)


def tile_of_key_character(tile_set) -> dict[int, int]:
    """Code point of a tile key's character (lexicon_service.tiles) -> tile number."""
    key_of = tile_set._key_of_letter
    return {ord(key_of[letter]): i + 1 for i, letter in enumerate(alphabet(tile_set))}


def key_table(tile_set) -> bytes:
    """``tile_of_key_character`` as a table indexed by code point (0: no tile), for ``lookup_keys``."""
    tiles = tile_of_key_character(tile_set)
    table = bytearray(max(tiles, default=0) + 1)
    for code, tile in tiles.items():
        table[code] = tile
    return bytes(table)


def lookup_keys(layout, table: bytes, text: str, min_len: int, max_len: int) -> bytes | None:
    """For each tile key of `text` (joined by "\n"): 1 when the graph (its ``search_layout``) holds it,
    0 when not, 2 when its length is outside min_len..max_len; one C call for the whole batch
    (``_core.lookup_keys``). None when a character is no tile of `table` (``key_table``)."""
    return _core.lookup_keys(layout, table, text, min_len, max_len)


def _encode_keys(keys, tile_set) -> bytes:
    """Tile keys (lexicon_service.tiles) as tile numbers, each word ended by a 0 byte."""
    table = tile_of_key_character(tile_set)
    text = "\0".join(keys)
    if not text:
        return b""
    known = {chr(c) for c in table} | {"\0"}
    stray = set(text) - known
    if stray:
        raise MoveGraphError(f"tile keys hold characters that are no tile of the rule set: {sorted(stray)[:5]}")
    return (text + "\0").translate(table).encode("latin-1")


def build_move_graph(keys, rule_set) -> bytes:
    """The bytes of ``moves.gaddag`` for these tile keys (the same keys give the same bytes)."""
    letters = alphabet(rule_set.tile_set)
    if len(letters) > 63:
        raise MoveGraphError(f"{rule_set.id} has {len(letters)} letters; a move graph holds at most 63")
    max_len = max_word_tiles(rule_set)
    if max_len > 32:
        raise MoveGraphError(f"{rule_set.id}'s board is {rule_set.rows}x{rule_set.columns}; at most 32x32")
    arcs = _core.build_gaddag(_encode_keys(keys, rule_set.tile_set), len(letters), max_len)
    text = " ".join(letters).encode("utf-8")
    padded = text + b"\0" * (-len(text) % 4)
    return _HEADER.pack(MAGIC, len(arcs) // 4, max_len, len(text)) + padded + arcs


def parse_move_graph(data: bytes, rule_set) -> memoryview:
    """The arc array of a ``moves.gaddag`` file (a view of `data`), after checking it fits the rule set
    and every arc is well formed (indices in range, tiles of the alphabet, each node's tiles in
    rising order, every arc leading to the start of a node, the last node ended) and no path from the
    root is a cycle or longer than a word and the separator; MoveGraphError if not."""
    if len(data) < _HEADER.size:
        raise MoveGraphError("truncated move graph (no header)")
    magic, n_arcs, max_len, text_len = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise MoveGraphError("not a move graph of this format (bad magic)")
    start = _HEADER.size + text_len + (-text_len % 4)
    if start + 4 * n_arcs != len(data):
        raise MoveGraphError(f"truncated or altered move graph ({len(data)} bytes, the header says "
                             f"{start + 4 * n_arcs})")
    try:
        letters = tuple(bytes(data[_HEADER.size:_HEADER.size + text_len]).decode("utf-8").split(" "))
    except UnicodeDecodeError:
        raise MoveGraphError("move graph alphabet is not UTF-8") from None
    if letters != alphabet(rule_set.tile_set):
        raise MoveGraphError(f"move graph was built for the letters {' '.join(letters)!r}, not those of "
                             f"{rule_set.id}")
    if max_len != max_word_tiles(rule_set):
        raise MoveGraphError(f"move graph keeps words of up to {max_len} tiles; {rule_set.id} needs "
                             f"{max_word_tiles(rule_set)}")
    arcs = memoryview(data)[start:]  # no copy: the loader keeps only the search layout made from it
    try:
        _core.check_graph(arcs, len(letters), max_len + 1)  # a word of max_len tiles and the separator
    except ValueError as exc:
        raise MoveGraphError(f"damaged move graph: {exc}") from None
    return arcs


def search_layout(arcs: bytes) -> bytes:
    """The arc array (as `parse_move_graph` returns it) in the layout the C search reads: per node a
    64-bit mask of its tiles, then its children in tile order (``csrc/graph.h``, "The search layout"),
    so an arc is found by a mask test and a popcount instead of a scan. About 1.8 times the arc
    array's bytes; `arcs_of_layout` gives the arc array back."""
    try:
        return _core.search_layout(arcs)
    except ValueError as exc:
        raise MoveGraphError(f"damaged move graph: {exc}") from None


def arcs_of_layout(layout: bytes) -> bytes:
    """The arc array `search_layout` made this layout from (the same bytes)."""
    return _core.arcs_of_layout(layout)
