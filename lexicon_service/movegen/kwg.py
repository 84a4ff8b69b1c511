"""KWG export: a lexicon's words as the word graph MAGPIE and wolges read, with MAGPIE's letter
distribution CSV beside it (`lexicon-service export-kwg`).

The KWG file is a bare array of little-endian 32-bit arcs (no header). In the common (22-bit)
layout an arc is::

    bits 0-21   arc_index: first arc of the node the arc leads to (0: none)
    bit  22     is_end: the last arc of its node (a node is a run of arcs sorted by tile)
    bit  23     accepts: the string spelled up to and including this arc is a word
    bits 24-31  tile

wolges' 24-bit variant (``--kwg24``) keeps the same fields as tile in bits 0-5, is_end bit 6, accepts
bit 7 and arc_index in bits 8-31. Arc 0 points to the DAWG root (the words left to right), arc 1
to the GADDAG root (both with tile 0, is_end set); in the GADDAG tile 0 is the separator, as in our
own move graph (``graph.py``): for a word w of n tiles it holds reverse(w[:i]) + "^" + w[i:] for
i < n and reverse(w). The GADDAG's node after "c^" is the DAWG of the words starting with c, so
the DAWG costs one extra root node: its arc c accepts when c alone is a word and leads where the
GADDAG's "c^" leads. The GADDAG is our move graph re-encoded (the lexicon's own when it has one,
else built from its tile keys), so it holds the words that fit on the rule set's board.

Tile numbers are those of the CSV: 0 the blank ("?"), then the rule set's alphabet in order from 1
(the same numbers as our move graph). A CSV row is "label,lowercase label,count,score,vowel flag";
a multi-letter tile is written plain ("CH,ch", as MAGPIE's own "L·L,l·l"; the engines bracket it in
racks and plays, "[CH]ATA"), letters only a blank can show have count 0.

Worked example: alphabet "A B" (A = 1, B = 2), words AB and B. GADDAG strings A^B, B and BA;
DAWG words AB and B. The file (index: tile, flags, -> arc_index; "^" is tile 0)::

    0: ^  end          -> 7     DAWG pointer
    1: ^  end          -> 2     GADDAG pointer
    2: A  -            -> 4     GADDAG root: A ...
    3: B  end accepts  -> 5     ... or B (the word B), then on leftwards
    4: ^  end          -> 6     after "A": the separator, then the DAWG of words starting with A
    5: A  end accepts  -> 0     "BA": AB reversed
    6: B  end accepts  -> 0     "A^B", and in the DAWG "AB"
    7: A  -            -> 6     DAWG root: A leads where the GADDAG's "A^" leads ...
    8: B  end accepts  -> 0     ... B is a word of its own

and the CSV (A: 9 tiles worth 1, B: 2 worth 3, two blanks)::

    ?,?,2,0,0
    A,a,9,1,1
    B,b,2,3,0
"""

from __future__ import annotations

from array import array

from lexicon_service.tiles import BLANK
from lexicon_service.movegen.graph import _encode_keys, alphabet, max_word_tiles
from lexicon_service.movegen import _core

KWG22 = 22
KWG24 = 24
MAX_ARCS = {KWG22: 1 << 22, KWG24: 1 << 24}
VOWELS = frozenset("AÁĄEÉĚĘIÍOÓUÚŮYÝ")

# Our move graph's arc (graph.py): child index, end, accepts, tile.
_CHILD, _END, _ACCEPTS, _TILE_SHIFT = 0xFFFFFF, 1 << 24, 1 << 25, 26


class KwgTooLarge(ValueError):
    """The graph needs more arcs than the KWG layout can address."""


def _pack(variant: int):
    if variant == KWG22:
        return lambda tile, end, accepts, index: (tile << 24) | (accepts << 23) | (end << 22) | index
    return lambda tile, end, accepts, index: (index << 8) | (accepts << 7) | (end << 6) | tile


def _unpack(variant: int):
    if variant == KWG22:
        return lambda a: (a >> 24, (a >> 22) & 1, (a >> 23) & 1, a & 0x3FFFFF)
    return lambda a: (a & 0x3F, (a >> 6) & 1, (a >> 7) & 1, a >> 8)


def kwg_of_move_graph(move_graph: bytes, variant: int = KWG22) -> bytes:
    """The KWG bytes (DAWG and GADDAG) of a move graph's arc array (``parse_move_graph``'s result).
    KwgTooLarge, naming the limit, when the graph needs more arcs than the layout addresses."""
    if variant not in MAX_ARCS:
        raise ValueError(f"KWG variant must be {KWG22} or {KWG24} bits")
    ours = array("I")
    ours.frombytes(move_graph)
    pack = _pack(variant)
    # Our arc i (i >= 1) becomes KWG arc i + 1; arc 0 (our root pointer) becomes the two pointers.
    root = ours[0] & _CHILD if ours else 0
    dawg_root = []
    i = root
    while root:
        arc = ours[i]
        tile, child, accepts = arc >> _TILE_SHIFT, arc & _CHILD, bool(arc & _ACCEPTS)
        after_separator = 0
        if child and ours[child] >> _TILE_SHIFT == 0:   # a node is sorted by tile: "^" comes first
            after_separator = ours[child] & _CHILD
        if accepts or after_separator:
            dawg_root.append((tile, accepts, after_separator))
        if arc & _END:
            break
        i += 1
    n_arcs = 2 + max(len(ours) - 1, 0) + len(dawg_root)
    if n_arcs > MAX_ARCS[variant]:
        hint = " (wolges' 24-bit variant addresses 2^24: --kwg24)" if variant == KWG22 else ""
        raise KwgTooLarge(f"the graph needs {n_arcs:,} arcs; the {variant}-bit KWG layout addresses at most "
                          f"2^{variant} = {MAX_ARCS[variant]:,}{hint}")
    dawg_at = 1 + len(ours) if ours else 2
    out = array("I", [pack(0, 1, 0, dawg_at if dawg_root else 0), pack(0, 1, 0, root + 1 if root else 0)])
    out.extend(pack(arc >> _TILE_SHIFT, (arc >> 24) & 1, (arc >> 25) & 1,
                    (arc & _CHILD) + 1 if arc & _CHILD else 0) for arc in ours[1:])
    for k, (tile, accepts, child) in enumerate(dawg_root):
        out.append(pack(tile, int(k == len(dawg_root) - 1), int(accepts), child + 1 if child else 0))
    if out.itemsize != 4:  # pragma: no cover - array("I") is 32-bit on every platform we build for
        raise RuntimeError("array('I') is not 32-bit here")
    if array("I", [1]).tobytes() != b"\x01\0\0\0":  # pragma: no cover - big-endian hosts
        out.byteswap()
    return out.tobytes()


def letter_distribution_csv(tile_set) -> str:
    """MAGPIE's letter distribution CSV for a tile set: the blank first, then the alphabet."""
    rows = [f"{BLANK},{BLANK},{tile_set.blank_count},{tile_set.blank_points},0"]
    with_tiles = set(tile_set.letters)
    for letter in tile_set.alphabet:
        tile = tile_set.tile(letter) if letter in with_tiles else None
        count, points = (tile.count, tile.points) if tile else (0, 0)
        rows.append(f"{letter},{letter.lower()},{count},{points},{int(letter in VOWELS)}")
    return "\n".join(rows) + "\n"


def move_graph_of(lexicon) -> bytes:
    """The lexicon's move graph arcs, built from its tile keys when the lexicon has none."""
    arcs = getattr(lexicon, "move_graph", None)
    if arcs is not None:
        return arcs
    rule_set = lexicon.rule_set
    return _core.build_gaddag(_encode_keys(lexicon.keys(), rule_set.tile_set), len(alphabet(rule_set.tile_set)),
                              max_word_tiles(rule_set))


def kwg_export(lexicon, variant: int = KWG22) -> tuple[bytes, str]:
    """A lexicon's NAME.kwg bytes and NAME.csv text (the command writes them: commands/export_kwg.py)."""
    return kwg_of_move_graph(move_graph_of(lexicon), variant), letter_distribution_csv(lexicon.rule_set.tile_set)


def read_kwg(data: bytes, variant: int = KWG22) -> list[tuple[int, int, int, int]]:
    """The arcs of a KWG file as (tile, is_end, accepts, arc_index)."""
    arcs = array("I")
    arcs.frombytes(data[:len(data) - len(data) % 4])
    if array("I", [1]).tobytes() != b"\x01\0\0\0":  # pragma: no cover
        arcs.byteswap()
    unpack = _unpack(variant)
    return [unpack(a) for a in arcs]


def kwg_strings(arcs, start: int):
    """Every string (a tuple of tile numbers) the graph accepts from node `start`, in sorted order."""
    out = []

    def walk(node, prefix):  # depth first, an arc's strings before its next sibling's: sorted

        i = node
        while True:
            tile, end, accepts, child = arcs[i]
            spelled = prefix + (tile,)
            if accepts:
                out.append(spelled)
            if child:
                walk(child, spelled)
            if end:
                return
            i += 1
    if start:
        walk(start, ())
    return out
