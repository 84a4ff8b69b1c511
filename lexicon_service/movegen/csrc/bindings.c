/* The Python module lexicon_service.movegen._core: argument parsing and Python errors around the
 * plain C of graph_build.c, graph_check.c, lookup.c and movegen.c. Nothing here searches or builds. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "movegen.h"
#include "selfplay.h"
#include "simulate.h"
#include "endgame.h"
#include "word_prune.h"
#include "ridge.h"

/* build_gaddag(words: bytes, n_tiles: int, max_len: int) -> bytes
 * words: tile numbers 1..n_tiles, each word ended by a 0 byte; words longer than max_len are left
 * out (they cannot be played). Returns the arc array (little-endian uint32), arc 0 pointing at the root. */
static PyObject *build_gaddag(PyObject *self, PyObject *args) {
    Py_buffer words;
    int n_tiles, max_len, rc;
    if (!PyArg_ParseTuple(args, "y*ii", &words, &n_tiles, &max_len)) return NULL;
    uint32_t *arcs = NULL;
    size_t n = 0;
    const char *why = NULL;
    Py_BEGIN_ALLOW_THREADS
    rc = graph_build(words.buf, (size_t)words.len, n_tiles, max_len, &arcs, &n, &why);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&words);
    PyObject *result = NULL;
    if (rc == GRAPH_BAD) PyErr_Format(PyExc_ValueError, "build_gaddag: %s", why);
    else if (rc == GRAPH_TOO_BIG) PyErr_SetString(PyExc_ValueError, "build_gaddag: the graph needs more than 2^24 arcs");
    else if (rc) PyErr_NoMemory();
    else result = PyBytes_FromStringAndSize((const char *)arcs, (Py_ssize_t)(n * sizeof(uint32_t)));
    free(arcs);
    return result;
}

/* check_graph(arcs: bytes, n_tiles: int, longest: int) -> None: raises ValueError naming the first bad
 * arc; `longest`: the most tiles a path from the root may spell (the longest word and the separator). */
static PyObject *check_graph(PyObject *self, PyObject *args) {
    Py_buffer buf;
    int n_tiles, longest;
    if (!PyArg_ParseTuple(args, "y*ii", &buf, &n_tiles, &longest)) return NULL;
    const char *why = NULL;
    size_t at = 0;
    int rc = buf.len % 4 ? (why = "the arc array is empty or not whole arcs", GRAPH_BAD)
                         : graph_check(buf.buf, (size_t)buf.len / 4, n_tiles, longest, &why, &at);
    PyBuffer_Release(&buf);
    if (rc == GRAPH_NO_MEMORY) return PyErr_NoMemory();
    if (rc) {
        if (at || strncmp(why, "longest", 7)) PyErr_Format(PyExc_ValueError, "%s (arc %zu)", why, at);
        else PyErr_Format(PyExc_ValueError, "check_graph: %s", why);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* search_layout(arcs: bytes) -> bytes: the search layout (graph.h) of a checked arc array. ValueError
 * if a node's tiles are not in strictly rising order or an arc leads into the middle of a node. */
static PyObject *search_layout(PyObject *self, PyObject *args) {
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    PyObject *result = NULL;
    const uint32_t *a = buf.buf;
    size_t n = (size_t)buf.len / 4, nw = 0, at = 0;
    const char *why = NULL;
    uint32_t *newpos = NULL;
    if (buf.len % 4) { PyErr_SetString(PyExc_ValueError, "not an array of 32-bit words"); goto done; }
    newpos = calloc(n ? n : 1, sizeof(uint32_t));
    if (!newpos) { PyErr_NoMemory(); goto done; }
    if (layout_size(a, n, newpos, &nw, &why, &at) == GRAPH_OK) {
        result = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(nw * sizeof(uint32_t)));  /* filled in place */
        if (result && layout_fill(a, n, newpos, (uint32_t *)PyBytes_AS_STRING(result), &why, &at)) Py_CLEAR(result);
    }
    if (why) PyErr_Format(PyExc_ValueError, "%s (arc %zu)", why, at);
done:
    free(newpos);
    PyBuffer_Release(&buf);
    return result;
}

/* arcs_of_layout(layout: bytes) -> bytes: the arc array a search layout was made from. */
static PyObject *py_arcs_of_layout(PyObject *self, PyObject *args) {
    Py_buffer buf;
    if (!PyArg_ParseTuple(args, "y*", &buf)) return NULL;
    uint32_t *arcs = NULL;
    size_t n = 0;
    int whole = buf.len % 4 == 0;
    int rc = whole ? arcs_of_layout(buf.buf, (size_t)buf.len / 4, &arcs, &n) : GRAPH_BAD;
    PyBuffer_Release(&buf);
    PyObject *result = NULL;
    if (rc == GRAPH_NO_MEMORY) PyErr_NoMemory();
    else if (rc) PyErr_SetString(PyExc_ValueError, whole ? "arcs_of_layout: not a search layout"
                                                         : "not an array of 32-bit words");
    else result = PyBytes_FromStringAndSize((const char *)arcs, (Py_ssize_t)(n * sizeof(uint32_t)));
    free(arcs);
    return result;
}

/* lookup_keys(layout, table, text, min_len, max_len) -> bytes or None: for each word of `text`
 * (tile keys separated by "\n"), 1 when the move graph holds it, 0 when not, 2 when its length in
 * tiles is outside min_len..max_len (not looked up). `table[c]` is the tile number of key character c
 * (0: none). None when any character is no tile (the caller then checks the words one by one). The
 * interpreter lock is released: only immutable inputs are read. */
static PyObject *lookup_keys(PyObject *self, PyObject *args) {
    Py_buffer layout_buf, table_buf;
    PyObject *text;
    int min_len, max_len;
    if (!PyArg_ParseTuple(args, "y*y*Uii", &layout_buf, &table_buf, &text, &min_len, &max_len)) return NULL;
    PyObject *result = NULL;
    const uint32_t *w = layout_buf.buf;
    size_t nw = (size_t)layout_buf.len / 4;
    const uint8_t *table = table_buf.buf;
    Py_ssize_t n_table = table_buf.len, n_text = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    size_t n_words = 1;
    for (Py_ssize_t i = 0; i < n_text; i++) n_words += PyUnicode_READ(kind, data, i) == '\n';
    uint8_t *out = NULL;
    int stray = 0;
    if (nw < 2 || layout_buf.len % 4) { PyErr_SetString(PyExc_ValueError, "not a search layout"); goto done; }
    out = malloc(n_words);
    if (!out) { PyErr_NoMemory(); goto done; }
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t start = 0;
    uint8_t tiles[2 * MAX_DIM + 2];
    for (size_t k = 0; k < n_words && !stray; k++) {
        Py_ssize_t end = start;
        while (end < n_text && PyUnicode_READ(kind, data, end) != '\n') end++;
        Py_ssize_t len = end - start;
        for (Py_ssize_t i = start; i < end && !stray; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, data, i);
            unsigned tile = c < (Py_UCS4)n_table ? table[c] : 0;
            stray = !tile || tile > MAX_TILES;
            if (i - start < (Py_ssize_t)sizeof tiles) tiles[i - start] = (uint8_t)tile;
        }
        if (len < min_len || len > max_len) out[k] = 2;
        else out[k] = !stray && len <= (Py_ssize_t)sizeof tiles && layout_holds_word(w, nw, tiles, (size_t)len);
        start = end + 1;
    }
    Py_END_ALLOW_THREADS
    result = stray ? Py_NewRef(Py_None) : PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)n_words);
done:
    free(out);
    PyBuffer_Release(&layout_buf);
    PyBuffer_Release(&table_buf);
    return result;
}

/* ---- Rules: a rule set as the generator needs it (movegen.h, MgRules), made once per rule set ---- */

typedef struct {
    PyObject_HEAD
    MgRules rules;
} RulesObject;

/* Copy a bytes-like argument of exactly `size` bytes (or at most, when `at_most`) into `out`. */
static int copy_bytes(Py_buffer *b, uint8_t *out, Py_ssize_t size, int at_most, const char *name) {
    int ok = at_most ? b->len <= size : b->len == size;
    if (ok) memcpy(out, b->buf, (size_t)b->len);
    else PyErr_Format(PyExc_ValueError, "%s: %zd bytes, expected %s%zd", name, b->len, at_most ? "at most " : "", size);
    PyBuffer_Release(b);
    return ok ? 0 : -1;
}

static int Rules_init(RulesObject *self, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"n_tiles", "rows", "cols", "letter_mult", "word_mult", "points", "bag", "blank_mask",
                         "bingo_tiles", "bingo_bonus", "min_word_len", "first_cover", "first_min_tiles",
                         "must_connect", "forbid_dup", NULL};
    MgRules r = {0};
    Py_buffer lm, wm, pts, bag;
    unsigned long long blank_mask;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "$iiiy*y*y*y*Kiiiiiii", kw, &r.n_tiles, &r.rows, &r.cols, &lm, &wm,
                                     &pts, &bag, &blank_mask, &r.bingo_tiles, &r.bingo_bonus, &r.min_word_len,
                                     &r.first_cover, &r.first_min_tiles, &r.must_connect, &r.forbid_dup))
        return -1;
    int bad = r.rows < 1 || r.cols < 1 || r.rows > MAX_DIM || r.cols > MAX_DIM || r.n_tiles < 1 || r.n_tiles > MAX_TILES;
    Py_ssize_t squares = bad ? 0 : (Py_ssize_t)r.rows * r.cols;
    int failed = copy_bytes(&lm, r.letter_mult, squares, 0, "letter_mult");
    failed |= copy_bytes(&wm, r.word_mult, squares, 0, "word_mult");
    failed |= copy_bytes(&pts, r.points, MAX_TILES + 1, 0, "points");
    failed |= copy_bytes(&bag, r.bag, MAX_TILES + 1, 0, "bag");
    if (bad && !failed) PyErr_SetString(PyExc_ValueError, "Rules: rows and cols must be 1-32, n_tiles 1-63");
    if (bad || failed) return -1;
    r.blank_mask = (uint64_t)blank_mask;
    self->rules = r;
    return 0;
}

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lexicon_service.movegen._core.Rules",
    .tp_doc = PyDoc_STR("Rules(*, n_tiles, rows, cols, letter_mult, word_mult, points, bag, blank_mask, bingo_tiles, "
                        "bingo_bonus, min_word_len, first_cover, first_min_tiles, must_connect, forbid_dup): "
                        "a rule set as the move generator needs it (movegen.h, MgRules)"),
    .tp_basicsize = sizeof(RulesObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Rules_init,
};

/* The request's options (keywords) into `q`; -1 with a Python error. */
static int parse_request(PyObject *args, PyObject *kwds, Py_buffer *layout, RulesObject **rules, MgRequest *q,
                         Py_buffer *board) {
    static char *kw[] = {"layout", "rules", "board", "rack", "mode", "limit", "min_main_len", "must_use",
                         "must_contain", "deadline", "nth", NULL};
    Py_buffer rack, must_use = {0}, must_contain = {0};
    int mode = 0;
    Py_ssize_t limit = 0, nth = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*O!y*y*|$iniy*y*dn", kw, layout, &RulesType, rules, board, &rack,
                                     &mode, &limit, &q->min_main_len, &must_use, &must_contain, &q->deadline,
                                     &nth))
        return -1;
    const MgRules *r = &(*rules)->rules;
    int failed = copy_bytes(&rack, q->rack, MAX_TILES + 1, 0, "rack");
    failed |= must_use.obj && must_use.len ? copy_bytes(&must_use, q->must_use, MAX_TILES + 1, 0, "must_use")
                                           : (PyBuffer_Release(&must_use), 0);
    q->must_contain_len = must_contain.obj ? (int)must_contain.len : 0;
    failed |= must_contain.obj ? copy_bytes(&must_contain, q->must_contain, MAX_DIM, 1, "must_contain") : 0;
    if (failed) goto bad;
    if (board->len != (Py_ssize_t)r->rows * r->cols || mode < 0 || mode > 3 || nth < 0 || limit < 0 || limit > MAX_LISTED
        || layout->len < 8 || layout->len % 4) {
        PyErr_SetString(PyExc_ValueError, "generate: bad arguments");
        goto bad;
    }
    q->mode = (MgMode)mode;
    q->limit = (size_t)limit;
    q->nth = (size_t)nth;
    q->board = board->buf;
    return 0;
bad:
    PyBuffer_Release(layout);
    PyBuffer_Release(board);
    return -1;
}

/* The plays as a list of (score, down, row, col, tiles bytes, n_new). */
static PyObject *moves_list(const MgResult *res) {
    PyObject *result = PyList_New((Py_ssize_t)res->n_moves);
    for (size_t i = 0; result && i < res->n_moves; i++) {
        const MgMove *m = &res->moves[i];
        int row = m->dir ? m->start : m->line, col = m->dir ? m->line : m->start;
        PyObject *item = Py_BuildValue("(iiiiy#i)", m->score, m->dir, row, col, (const char *)m->tiles,
                                       (Py_ssize_t)m->len, m->n_new);
        if (!item) { Py_CLEAR(result); break; }
        PyList_SET_ITEM(result, (Py_ssize_t)i, item);
    }
    return result;
}

/* generate(layout, rules, board, rack, *, mode=0, limit=0, min_main_len=0, must_use=b"", must_contain=b"",
 *          deadline=0.0, nth=0)
 * layout: a search layout; rules: a Rules; board: rows * cols squares (tile | 0x40 blank, 0 empty);
 * rack, must_use: 64 bytes of tile counts ([0] blanks); must_contain: tile numbers.
 * mode 0: sorted list of (score, down, row, col, tiles bytes, n_new), at most `limit` (0 = all;
 *         OverflowError past MAX_LISTED);
 * mode 1: the number of moves; mode 2: whether there is one; mode 3: a list of the play numbered `nth`
 * (from 0) in the search's order, as mode 1 counts them, or an empty list past the count. Raises TimeoutError past `deadline`
 * (time.monotonic() seconds; <= 0: none). */
static PyObject *generate(PyObject *self, PyObject *args, PyObject *kwds) {
    Py_buffer layout, board;
    RulesObject *rules;
    MgRequest q = {0};
    if (parse_request(args, kwds, &layout, &rules, &q, &board) < 0) return NULL;
    MgResult res;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = mg_generate(layout.buf, &rules->rules, &q, &res);
    Py_END_ALLOW_THREADS
    PyObject *result = NULL;
    if (rc == MG_BAD_REQUEST) PyErr_SetString(PyExc_ValueError, "generate: bad board square");
    else if (rc == MG_NO_MEMORY) PyErr_NoMemory();
    else if (rc == MG_TOO_MANY) PyErr_Format(PyExc_OverflowError, "more than %d plays", MAX_LISTED);
    else if (rc == MG_TIMED_OUT) PyErr_SetString(PyExc_TimeoutError, "move generation passed its deadline");
    else if (q.mode == MG_COUNT) result = PyLong_FromLongLong(res.count);
    else if (q.mode == MG_ANY) result = PyBool_FromLong(res.count > 0);
    else result = moves_list(&res);
    mg_result_free(&res);
    PyBuffer_Release(&layout);
    PyBuffer_Release(&board);
    return result;
}

/* A play from (down, row, col, tiles bytes) as the core gives it (tile | 0x40 blank | 0x80 new); 0 or -1
 * with a Python error. */
static int move_of(PyObject *item, const MgRules *r, MgMove *m) {
    int down, row, col;
    Py_buffer tiles;
    memset(m, 0, sizeof *m);
    if (!PyArg_ParseTuple(item, "iiiy*;a play is (down, row, col, tiles)", &down, &row, &col, &tiles)) return -1;
    int ok = (down == 0 || down == 1) && row >= 0 && col >= 0 && row < r->rows && col < r->cols && tiles.len <= MAX_DIM;
    if (ok) {
        m->dir = (uint8_t)down; m->line = (uint8_t)(down ? col : row); m->start = (uint8_t)(down ? row : col);
        m->len = (uint8_t)tiles.len;
        memcpy(m->tiles, tiles.buf, (size_t)tiles.len);
        for (int i = 0; i < m->len; i++) m->n_new += (m->tiles[i] & SQ_NEW) != 0;
    }
    PyBuffer_Release(&tiles);
    if (!ok) PyErr_SetString(PyExc_ValueError, "check_state: a play is off the board");
    return ok ? 0 : -1;
}

/* check_state(layout, rules, plays, racks) -> None, or (index, what) of the first play after which a
 * generator state moved on by plays disagreed with one made afresh (movegen.h, mg_state_check). plays:
 * (down, row, col, tiles) from the empty board; racks: 64 tile counts each, one per play. */
static PyObject *check_state(PyObject *self, PyObject *args) {
    Py_buffer layout;
    RulesObject *rules;
    PyObject *plays, *racks, *result = NULL;
    if (!PyArg_ParseTuple(args, "y*O!O!O!", &layout, &RulesType, &rules, &PyList_Type, &plays, &PyList_Type, &racks))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(plays);
    MgMove *moves = calloc((size_t)n + 1, sizeof *moves);
    uint8_t (*rack)[MAX_TILES + 1] = calloc((size_t)n + 1, MAX_TILES + 1);
    int ok = moves && rack && PyList_GET_SIZE(racks) == n && layout.len >= 8;
    if (!moves || !rack) PyErr_NoMemory();
    else if (!ok) PyErr_SetString(PyExc_ValueError, "check_state: one rack per play");
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        Py_buffer b;
        ok = move_of(PyList_GET_ITEM(plays, i), &rules->rules, &moves[i]) == 0
             && PyArg_Parse(PyList_GET_ITEM(racks, i), "y*", &b)
             && copy_bytes(&b, rack[i], MAX_TILES + 1, 0, "rack") == 0;
    }
    int failed_at = -1, rc = MG_OK;
    const char *what = NULL;
    if (ok) {
        Py_BEGIN_ALLOW_THREADS
        rc = mg_state_check(layout.buf, &rules->rules, moves, (const uint8_t (*)[MAX_TILES + 1])rack, (int)n, &failed_at, &what);
        Py_END_ALLOW_THREADS
        if (rc) PyErr_Format(PyExc_ValueError, "check_state: error %d", rc);
        else result = failed_at < 0 ? Py_NewRef(Py_None) : Py_BuildValue("(is)", failed_at, what);
    }
    free(moves); free(rack);
    PyBuffer_Release(&layout);
    return result;
}

/* ---- play_games: self-play games in C (selfplay.h), Python called once per request ---- */

/* `leaves`: (size, tile, pair, keys, values) as bytes of doubles (9, 64, 64 * 64) and of sorted uint64
 * keys (sp_leave_key) with their doubles; NULL with a Python error when malformed. */
static SpLeaves *leaves_of(PyObject *leaves, Py_buffer *keys, Py_buffer *values) {
    Py_buffer size, tile, pair;
    if (!PyArg_ParseTuple(leaves, "y*y*y*y*y*;leaves must be (size, tile, pair, keys, values) bytes", &size, &tile,
                          &pair, keys, values))
        return NULL;
    SpLeaves *L = NULL;
    if (size.len != sizeof L->size || tile.len != sizeof L->tile || pair.len != sizeof L->pair
        || keys->len % 8 || values->len != keys->len) {
        PyErr_SetString(PyExc_ValueError, "leaves: sizes do not match (9, 64, 64 x 64 doubles; a value per key)");
    } else if (!(L = calloc(1, sizeof *L))) {
        PyErr_NoMemory();
    } else {
        memcpy(L->size, size.buf, sizeof L->size);
        memcpy(L->tile, tile.buf, sizeof L->tile);
        memcpy(L->pair, pair.buf, sizeof L->pair);
        L->keys = keys->buf; L->values = values->buf; L->n_entries = (size_t)keys->len / 8;
    }
    PyBuffer_Release(&size); PyBuffer_Release(&tile); PyBuffer_Release(&pair);
    if (!L) { PyBuffer_Release(keys); PyBuffer_Release(values); }
    return L;
}

static PyObject *play_tuple(const MgMove *m) {
    int row = m->dir ? m->start : m->line, col = m->dir ? m->line : m->start;
    return Py_BuildValue("(iiiiy#i)", m->score, m->dir, row, col, (const char *)m->tiles, (Py_ssize_t)m->len, m->n_new);
}

/* A game as (scores, final racks (64 counts each), went_out, turns); a turn is (player, kind, score,
 * bag_before, rack, leave, given, play or None), racks and leaves as tile numbers (0 a blank). */
static PyObject *game_tuple(const SpGame *game, int players) {
    PyObject *turns = PyList_New((Py_ssize_t)game->n_turns), *scores = PyTuple_New(players), *racks = PyTuple_New(players);
    for (int p = 0; scores && racks && p < players; p++) {
        PyTuple_SET_ITEM(scores, p, PyLong_FromLong(game->scores[p]));
        PyTuple_SET_ITEM(racks, p, PyBytes_FromStringAndSize((const char *)game->racks[p], MAX_TILES + 1));
    }
    for (size_t i = 0; turns && i < game->n_turns; i++) {
        const SpTurn *t = &game->turns[i];
        PyObject *play = t->kind == SP_PLAY ? play_tuple(&t->move) : Py_NewRef(Py_None);
        PyObject *item = play ? Py_BuildValue("(iiiiy#y#y#N)", t->player, t->kind, t->score, t->bag_before,
                                              (const char *)t->rack, (Py_ssize_t)t->n_rack, (const char *)t->leave,
                                              (Py_ssize_t)t->n_leave, (const char *)t->given, (Py_ssize_t)t->n_given,
                                              play) : NULL;
        if (!item) { Py_CLEAR(turns); break; }
        PyList_SET_ITEM(turns, (Py_ssize_t)i, item);
    }
    if (!turns || !scores || !racks || PyErr_Occurred()) {
        Py_XDECREF(turns); Py_XDECREF(scores); Py_XDECREF(racks);
        return NULL;
    }
    return Py_BuildValue("(NNiN)", scores, racks, game->went_out, turns);
}

static PyObject *games_list(SpGame *games, Py_ssize_t n, int players) {
    PyObject *result = PyList_New(n);
    for (Py_ssize_t i = 0; result && i < n; i++) {
        PyObject *game = game_tuple(&games[i], players);
        if (!game) { Py_CLEAR(result); break; }
        PyList_SET_ITEM(result, i, game);
    }
    return result;
}

/* play_games(layout, rules, *, games, seed, rack_size, exchange_min_bag, levels, leaves=None) -> list of
 * games (game_tuple); game i is played from the seed seed + i (selfplay.h, sp_play_game). levels: a
 * tuple of 0 (best) / 1 (equity) per player; equity needs leaves. */
static PyObject *play_games(PyObject *self, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"layout", "rules", "games", "seed", "rack_size", "exchange_min_bag", "levels", "leaves", NULL};
    Py_buffer layout, keys = {0}, values = {0};
    RulesObject *rules;
    Py_ssize_t n_games = -1;
    unsigned long long seed = 0;
    SpParams P = {0};
    PyObject *levels = NULL, *leaves = Py_None, *result = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*O!|$nKiiO!O", kw, &layout, &RulesType, &rules, &n_games, &seed,
                                     &P.rack_size, &P.exchange_min_bag, &PyTuple_Type, &levels, &leaves))
        return NULL;
    SpLeaves *L = NULL;
    SpGame *games = NULL;
    P.players = levels ? (int)PyTuple_GET_SIZE(levels) : 0;
    int bad = n_games < 0 || n_games > 10000000 || P.players < 2 || P.players > SP_MAX_PLAYERS || layout.len < 8;
    for (int p = 0; !bad && p < P.players; p++) {
        long level = PyLong_AsLong(PyTuple_GET_ITEM(levels, p));
        bad = level != SP_BEST && level != SP_EQUITY;
        P.level[p] = (SpLevel)level;
    }
    if (bad) { PyErr_Clear(); PyErr_SetString(PyExc_ValueError, "play_games: bad games, levels or layout"); goto done; }
    if (leaves != Py_None && !(L = leaves_of(leaves, &keys, &values))) goto done;
    P.leaves = L;
    if (!(games = calloc((size_t)(n_games ? n_games : 1), sizeof(SpGame)))) { PyErr_NoMemory(); goto done; }
    int rc = MG_OK;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < n_games && rc == MG_OK; i++)
        rc = sp_play_game(layout.buf, &rules->rules, &P, (uint64_t)seed + (uint64_t)i * 0x2545F4914F6CDD1Dull, &games[i]);
    Py_END_ALLOW_THREADS
    if (rc == MG_NO_MEMORY) PyErr_NoMemory();
    else if (rc) PyErr_SetString(PyExc_ValueError, "play_games: the rules, levels or leaves do not fit");
    else result = games_list(games, n_games, P.players);
done:
    for (Py_ssize_t i = 0; games && i < n_games; i++) sp_game_free(&games[i]);
    free(games);
    if (L) { free(L); PyBuffer_Release(&keys); PyBuffer_Release(&values); }
    PyBuffer_Release(&layout);
    return result;
}

/* ---- simulate: the play-outs of a simulation in C (simulate.h), Python called once per request ---- */

/* A candidate from (score, squares (uint16 little-endian each), tiles, kept, given, leave value); 0 or -1
 * with a Python error. */
static int candidate_of(PyObject *item, int cells, SimCandidate *c) {
    Py_buffer sq, tiles, kept, given;
    memset(c, 0, sizeof *c);
    if (!PyArg_ParseTuple(item, "iy*y*y*y*d;a candidate is (score, squares, tiles, kept, given, leave value)",
                          &c->score, &sq, &tiles, &kept, &given, &c->leave_value))
        return -1;
    int ok = sq.len == 2 * tiles.len && tiles.len <= MAX_DIM && kept.len <= SP_MAX_RACK && given.len <= SP_MAX_RACK;
    if (ok) {
        c->n_placed = (int)tiles.len;
        for (int i = 0; i < c->n_placed; i++) {
            const uint8_t *b = (const uint8_t *)sq.buf + 2 * i;
            c->squares[i] = (uint16_t)(b[0] | b[1] << 8);
            c->tiles[i] = ((const uint8_t *)tiles.buf)[i];
            ok = ok && c->squares[i] < cells && (c->tiles[i] & SQ_TILE) && !(c->tiles[i] & SQ_NEW);
        }
        memcpy(c->kept, kept.buf, (size_t)kept.len); c->n_kept = (uint8_t)kept.len;
        memcpy(c->given, given.buf, (size_t)given.len); c->n_given = (uint8_t)given.len;
        for (int i = 0; i < c->n_kept; i++) ok = ok && c->kept[i] <= MAX_TILES;
        for (int i = 0; i < c->n_given; i++) ok = ok && c->given[i] <= MAX_TILES;
    }
    PyBuffer_Release(&sq); PyBuffer_Release(&tiles); PyBuffer_Release(&kept); PyBuffer_Release(&given);
    if (!ok) PyErr_SetString(PyExc_ValueError, "simulate: a candidate's squares, tiles or racks do not fit");
    return ok ? 0 : -1;
}

static PyObject *sim_results(const SimCandidate *c, int n) {
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        PyObject *item = Py_BuildValue("((ddddd)ii)", c[i].sums[0], c[i].sums[1], c[i].sums[2], c[i].sums[3],
                                       c[i].sums[4], c[i].iterations, c[i].pruned);
        if (!item) { Py_CLEAR(list); break; }
        PyList_SET_ITEM(list, i, item);
    }
    return list;
}

/* Checks the board, unseen tiles and win table of a simulate call; 0 or -1 with a Python error. */
static int sim_inputs_fit(const RulesObject *rules, const Py_buffer *board, const Py_buffer *unseen,
                          const Py_buffer *spreads, const Py_buffer *chances, SimParams *S, SimWinTable *W) {
    const MgRules *R = &rules->rules;
    int ok = board->len == (Py_ssize_t)R->rows * R->cols && unseen->len <= SIM_MAX_UNSEEN;
    for (Py_ssize_t i = 0; ok && i < board->len; i++) {
        uint8_t b = ((const uint8_t *)board->buf)[i];
        ok = !(b & SQ_NEW) && (b & SQ_TILE) <= R->n_tiles;
    }
    for (Py_ssize_t i = 0; ok && i < unseen->len; i++) ok = ((const uint8_t *)unseen->buf)[i] <= R->n_tiles;
    if (ok && spreads->buf) {
        W->spreads = spreads->buf; W->n_columns = (int)(spreads->len / 4); W->chances = chances->buf;
        ok = spreads->len % 4 == 0 && W->n_columns >= 2 && chances->len % (8 * W->n_columns) == 0 && chances->len > 0;
        W->n_rows = ok ? (int)(chances->len / (8 * W->n_columns)) : 0;
        for (int i = 1; ok && i < W->n_columns; i++) ok = W->spreads[i] > W->spreads[i - 1];
        S->win = W;
    }
    if (!ok) PyErr_SetString(PyExc_ValueError, "simulate: the board, unseen tiles or win table do not fit");
    return ok ? 0 : -1;
}

static PyObject *sim_answer(int rc, int iterations, SimStop stopped, const SimCandidate *c, int n, PyObject *draws) {
    if (rc == MG_NO_MEMORY) return PyErr_NoMemory();
    if (rc) return PyErr_Format(PyExc_ValueError, "simulate: the rules, settings or leaves do not fit (%d)", rc);
    PyObject *results = sim_results(c, n);
    return results ? Py_BuildValue("(iiNO)", iterations, (int)stopped, results, draws ? draws : Py_None) : NULL;
}

/* simulate(layout, rules, board, candidates, unseen, *, rack_size, plies, iterations, min_iterations,
 *          check_every, z, rollout_limit, spread, opponent_rack, seed, deadline, leaves, win=None,
 *          blank_points, subtract_own, out_bonus, record_draws=False)
 *   -> (iterations, stopped, [((spread, spread², win, key, key²), iterations, pruned)], draws or None)
 * candidates: (score, squares, tiles, kept, given, leave value) each (candidate_of); unseen: tile numbers;
 * win: (spreads as int32 bytes, chances as double bytes by bag row) or None; stopped: SimStop; draws:
 * each iteration's shuffle of the unseen tiles, when recorded (the first iterations x len(unseen) bytes). */
static PyObject *simulate(PyObject *self, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"layout", "rules", "board", "candidates", "unseen", "rack_size", "plies", "iterations",
                         "min_iterations", "check_every", "z", "rollout_limit", "spread", "opponent_rack", "seed",
                         "deadline", "leaves", "win", "blank_points", "subtract_own", "out_bonus", "record_draws", NULL};
    Py_buffer layout, board, unseen, keys = {0}, values = {0}, spreads = {0}, chances = {0};
    RulesObject *rules;
    PyObject *candidates, *leaves, *win = Py_None, *draws = NULL, *result = NULL;
    SpParams P = {0};
    SimParams S = {0};
    SimWinTable W = {0};
    Py_ssize_t rollout_limit = 0;
    unsigned long long seed = 0;
    int record = 0, n = 0, iterations = 0, rc = MG_OK;
    SimStop stopped = SIM_STOP_ITERATIONS;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*O!y*O!y*|$iiiiidniiKdOOiiip", kw, &layout, &RulesType, &rules,
                                     &board, &PyList_Type, &candidates, &unseen, &P.rack_size, &S.plies, &S.iterations,
                                     &S.min_iterations, &S.check_every, &S.z, &rollout_limit, &S.spread,
                                     &S.opponent_rack, &seed, &S.deadline, &leaves, &win, &S.blank_points, &S.subtract_own,
                                     &S.out_bonus, &record))
        return NULL;
    SpLeaves *L = NULL;
    SimCandidate *c = NULL;
    n = (int)PyList_GET_SIZE(candidates);
    if (layout.len < 8 || n < 1 || n > SIM_MAX_CANDIDATES || S.plies < 0 || S.plies > 64 || S.iterations < 0
        || S.iterations > 1000000 || rollout_limit < 0 || rollout_limit > MAX_LISTED || S.out_bonus < 0 || S.out_bonus > 2
        || P.rack_size < 1 || P.rack_size > SP_MAX_RACK) {
        PyErr_SetString(PyExc_ValueError, "simulate: bad layout, candidates or settings");
        goto done;
    }
    if (win != Py_None && !PyArg_ParseTuple(win, "y*y*;win is (spreads, chances) bytes", &spreads, &chances)) goto done;
    if (sim_inputs_fit(rules, &board, &unseen, &spreads, &chances, &S, &W) < 0) goto done;
    if (!(L = leaves_of(leaves, &keys, &values))) goto done;
    if (!(c = calloc((size_t)n, sizeof *c))) { PyErr_NoMemory(); goto done; }
    for (int i = 0; i < n; i++)
        if (candidate_of(PyList_GET_ITEM(candidates, i), (int)board.len, &c[i]) < 0) goto done;
    if (record && !(draws = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)S.iterations * unseen.len))) goto done;
    P.players = 2; P.level[0] = P.level[1] = SP_EQUITY; P.exchange_min_bag = -1; P.leaves = L;
    P.play_limit = (size_t)rollout_limit; P.deadline = S.deadline;
    S.unseen = unseen.buf; S.n_unseen = (int)unseen.len; S.seed = seed;
    S.draws = draws ? (uint8_t *)PyBytes_AS_STRING(draws) : NULL;
    Py_BEGIN_ALLOW_THREADS
    rc = sim_run(layout.buf, &rules->rules, &P, board.buf, c, n, &S, &iterations, &stopped);
    Py_END_ALLOW_THREADS
    result = sim_answer(rc, iterations, stopped, c, n, draws);
done:
    Py_XDECREF(draws);
    free(c);
    if (L) { free(L); PyBuffer_Release(&keys); PyBuffer_Release(&values); }
    if (spreads.buf) PyBuffer_Release(&spreads);
    if (chances.buf) PyBuffer_Release(&chances);
    PyBuffer_Release(&layout); PyBuffer_Release(&board); PyBuffer_Release(&unseen);
    return result;
}

/* ---- solve_endgame: exact endgames in C (endgame.h), Python called once per request ---- */

/* (value, exact, depth, nodes, plies): plies as play tuples (generate's), None for a pass. */
static PyObject *endgame_tuple(const EgResult *r) {
    PyObject *plies = PyList_New(r->n_plies);
    for (int i = 0; plies && i < r->n_plies; i++) {
        PyObject *item = r->plies[i].is_pass ? Py_NewRef(Py_None) : play_tuple(&r->plies[i].move);
        if (!item) { Py_CLEAR(plies); break; }
        PyList_SET_ITEM(plies, i, item);
    }
    return plies ? Py_BuildValue("(iiiLN)", r->value, r->exact, r->depth, r->nodes, plies) : NULL;
}

/* solve_endgame(layout, rules, board, mover, other, *, passes, passes_to_end, blank_points, subtract_own,
 *               out_multiplier, out_twice, max_depth, table_bits, deadline=0.0, cpu_seconds=0.0, max_nodes=0,
 *               prune_words=1)
 * mover, other: 64 bytes of tile counts ([0] blanks). -> (value, exact, depth, nodes, plies) (endgame_tuple);
 * TimeoutError when the deadline, cpu_seconds or max_nodes came before a whole depth; ValueError: bad arguments. */
static PyObject *solve_endgame(PyObject *self, PyObject *args, PyObject *kwds) {
    static char *kw[] = {"layout", "rules", "board", "mover", "other", "passes", "passes_to_end", "blank_points",
                         "subtract_own", "out_multiplier", "out_twice", "max_depth", "table_bits", "deadline",
                         "cpu_seconds", "max_nodes", "prune_words", NULL};
    Py_buffer layout, board, mover_buf, other_buf;
    RulesObject *rules;
    EgParams P = {.prune_words = 1};
    int passes = 0;
    uint8_t mover[MAX_TILES + 1], other[MAX_TILES + 1];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "y*O!y*y*y*|$iiiiiiiiddLp", kw, &layout, &RulesType, &rules, &board,
                                     &mover_buf, &other_buf, &passes, &P.passes_to_end, &P.blank_points,
                                     &P.subtract_own, &P.out_multiplier, &P.out_twice, &P.max_depth, &P.table_bits,
                                     &P.deadline, &P.cpu_seconds, &P.max_nodes, &P.prune_words))
        return NULL;
    int failed = copy_bytes(&mover_buf, mover, MAX_TILES + 1, 0, "mover");
    failed |= copy_bytes(&other_buf, other, MAX_TILES + 1, 0, "other");
    PyObject *result = NULL;
    if (!failed && (board.len != (Py_ssize_t)rules->rules.rows * rules->rules.cols || layout.len < 8 || layout.len % 4))
        PyErr_SetString(PyExc_ValueError, "solve_endgame: bad arguments");
    else if (!failed) {
        EgResult *r = malloc(sizeof *r);
        int rc = r ? MG_OK : MG_NO_MEMORY;
        Py_BEGIN_ALLOW_THREADS
        if (r) rc = eg_solve(layout.buf, &rules->rules, &P, board.buf, mover, other, passes, r);
        Py_END_ALLOW_THREADS
        if (rc == MG_BAD_REQUEST) PyErr_SetString(PyExc_ValueError, "solve_endgame: bad board, rack or parameters");
        else if (rc == MG_NO_MEMORY) PyErr_NoMemory();
        else if (rc == EG_NO_RESULT) PyErr_SetString(PyExc_TimeoutError, "the endgame search found no whole depth in time");
        else if (rc) PyErr_Format(PyExc_ValueError, "solve_endgame: the move generator failed (%d)", rc);
        else result = endgame_tuple(r);
        free(r);
    }
    PyBuffer_Release(&layout);
    PyBuffer_Release(&board);
    return result;
}

/* endgame_words(layout, rules, board, rack_a, rack_b) -> (layout, words): the search layout of the words a
 * play could form to the end of this endgame (word_prune.h) and how many; racks as 64 bytes of tile counts. */
static PyObject *endgame_words(PyObject *self, PyObject *args) {
    Py_buffer layout, board, a_buf, b_buf;
    RulesObject *rules;
    uint8_t rack_a[MAX_TILES + 1], rack_b[MAX_TILES + 1];
    if (!PyArg_ParseTuple(args, "y*O!y*y*y*", &layout, &RulesType, &rules, &board, &a_buf, &b_buf)) return NULL;
    int failed = copy_bytes(&a_buf, rack_a, MAX_TILES + 1, 0, "rack_a");
    failed |= copy_bytes(&b_buf, rack_b, MAX_TILES + 1, 0, "rack_b");
    PyObject *result = NULL;
    if (!failed && (board.len != (Py_ssize_t)rules->rules.rows * rules->rules.cols || layout.len < 8 || layout.len % 4))
        PyErr_SetString(PyExc_ValueError, "endgame_words: bad arguments");
    else if (!failed) {
        uint32_t *pruned = NULL;
        size_t n_words = 0;
        long long kept = 0;
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = wp_endgame_layout(layout.buf, &rules->rules, board.buf, rack_a, rack_b, &pruned, &n_words, &kept);
        Py_END_ALLOW_THREADS
        if (rc == GRAPH_NO_MEMORY) PyErr_NoMemory();
        else if (rc) PyErr_SetString(PyExc_ValueError, "endgame_words: the graph needs more than 2^24 arcs");
        else result = Py_BuildValue("(y#L)", (const char *)pruned, (Py_ssize_t)(n_words * sizeof(uint32_t)), kept);
        free(pruned);
    }
    PyBuffer_Release(&layout);
    PyBuffer_Release(&board);
    return result;
}

/* ridge_sweeps(start, index, weighted, x, denominator, penalty, targets, sweeps) -> (weights, predicted):
 * bytes of uint32 (start: features + 1; index) and of doubles (ridge.h), the answer as bytes of doubles. */
static PyObject *py_ridge_sweeps(PyObject *self, PyObject *args) {
    Py_buffer b[7];
    int sweeps;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*i", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &sweeps)) return NULL;
    PyObject *weights = NULL, *predicted = NULL, *result = NULL;
    size_t n_features = b[0].len / 4 ? (size_t)b[0].len / 4 - 1 : 0, n_entries = (size_t)b[1].len / 4;
    size_t n_leaves = (size_t)b[6].len / 8;
    const uint32_t *start = b[0].buf, *index = b[1].buf;
    int bad = b[0].len < 4 || b[0].len % 4 || b[1].len % 4 || (size_t)b[2].len != n_entries * 8
              || (size_t)b[3].len != n_entries * 8 || (size_t)b[4].len != n_features * 8
              || (size_t)b[5].len != n_features * 8 || b[6].len % 8 || sweeps < 0;
    for (size_t f = 0; !bad && f < n_features; f++) bad = start[f] > start[f + 1] || start[f + 1] > n_entries;
    for (size_t k = 0; !bad && k < n_entries; k++) bad = index[k] >= n_leaves;
    if (bad) { PyErr_SetString(PyExc_ValueError, "ridge_sweeps: the columns do not fit"); goto done; }
    weights = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n_features * 8));
    predicted = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(n_leaves * 8));
    if (!weights || !predicted) goto done;
    RidgeColumns c = {n_features, start, index, b[2].buf, b[3].buf, b[4].buf, b[5].buf};
    double *w = (double *)PyBytes_AS_STRING(weights), *p = (double *)PyBytes_AS_STRING(predicted);
    Py_BEGIN_ALLOW_THREADS
    ridge_sweeps(&c, b[6].buf, n_leaves, sweeps, w, p);
    Py_END_ALLOW_THREADS
    result = PyTuple_Pack(2, weights, predicted);
done:
    Py_XDECREF(weights);
    Py_XDECREF(predicted);
    for (int i = 0; i < 7; i++) PyBuffer_Release(&b[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"build_gaddag", build_gaddag, METH_VARARGS, "build_gaddag(words, n_tiles, max_len) -> arc array bytes"},
    {"check_graph", check_graph, METH_VARARGS, "check_graph(arcs, n_tiles, longest): ValueError if malformed"},
    {"search_layout", search_layout, METH_VARARGS, "search_layout(arcs) -> the search layout of a checked arc array"},
    {"arcs_of_layout", py_arcs_of_layout, METH_VARARGS, "arcs_of_layout(layout) -> the arc array it was made from"},
    {"generate", (PyCFunction)(void (*)(void))generate, METH_VARARGS | METH_KEYWORDS,
     "generate(layout, rules, board, rack, *, mode, limit, min_main_len, must_use, must_contain, deadline) -> "
     "moves, count or bool (see csrc/bindings.c)"},
    {"check_state", check_state, METH_VARARGS,
     "check_state(layout, rules, plays, racks) -> None or (index, what): a generator state moved on by plays "
     "against one made afresh (for tests)"},
    {"play_games", (PyCFunction)(void (*)(void))play_games, METH_VARARGS | METH_KEYWORDS,
     "play_games(layout, rules, *, games, seed, rack_size, exchange_min_bag, levels, leaves=None) -> games "
     "(see csrc/bindings.c)"},
    {"simulate", (PyCFunction)(void (*)(void))simulate, METH_VARARGS | METH_KEYWORDS,
     "simulate(layout, rules, board, candidates, unseen, *, ...) -> (iterations, stopped, results, draws) "
     "(see csrc/bindings.c)"},
    {"endgame_words", endgame_words, METH_VARARGS,
     "endgame_words(layout, rules, board, rack_a, rack_b) -> (layout, words): the endgame's own word graph"},
    {"solve_endgame", (PyCFunction)(void (*)(void))solve_endgame, METH_VARARGS | METH_KEYWORDS,
     "solve_endgame(layout, rules, board, mover, other, *, passes, passes_to_end, ...) -> (value, exact, depth, "
     "nodes, plies) (see csrc/bindings.c)"},
    {"ridge_sweeps", py_ridge_sweeps, METH_VARARGS,
     "ridge_sweeps(start, index, weighted, x, denominator, penalty, targets, sweeps) -> (weights, predicted)"},
    {"lookup_keys", lookup_keys, METH_VARARGS, "lookup_keys(layout, table, text, min_len, max_len) -> bytes or None"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", "Move generation core (C).", -1, methods};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&RulesType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    if (PyModule_AddObjectRef(m, "Rules", (PyObject *)&RulesType) < 0) { Py_DECREF(m); return NULL; }
    return m;
}
