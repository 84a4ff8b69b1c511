// The playing table of /games: the board as squares, the person's rack as tiles, and the moves made on
// them. Tiles go onto the board by a click on a rack tile and then a square, by dragging, or by the keyboard
// alone (arrows or a click choose the square, Space turns the direction, letters place tiles, board tiles
// are skipped, Backspace takes the last one back, Enter plays, Esc takes all back). CH is one tile where
// the rule set has it: typed as C then H. A blank asks for its letter among the rule set's letters (by the
// keyboard: Shift with the letter, or any letter the rack lacks). The tentative play is scored by the
// server (POST /v1/moves:score: legality and points, no word judged, so that a challenge stays a
// challenge); games.js sends the move, follows the game and calls renderTable after each state.
"use strict";

const tableState = {
  layout: null,   // view.layout of the game (premiums, tile values)
  game: null,     // the last GetGame answer (with the person's token)
  rack: [],       // [{id, tile}] in the person's own order ("A", "CH", "?")
  placed: [],     // [{id, tile, r, c, letter, blank}] the tentative play, in the order placed
  selected: null, // the rack tile chosen by a click, its id
  cursor: null,   // {r, c, down}
  exchange: null, // a Set of rack ids while tiles to exchange are chosen
  previewSeq: 0,  // the last score request; an older answer is dropped
  previous: null, // the board of the state before, to mark the last move's tiles
  lastBoard: null,
  nextId: 1,
};

// "AB[CH]?" -> ["A", "B", "CH", "?"]
function splitTiles(text) {
  const out = [];
  for (const m of String(text || "").matchAll(/\[([^\]]+)\]|./gu)) out.push(m[1] || m[0]);
  return out;
}

// GetGame board rows -> cells: "" empty, the tile text (lowercase: a blank)
function boardCellsOf(rows, layout) {
  if (!rows || !rows.length) return Array.from({ length: layout.rows }, () => Array(layout.columns).fill(""));
  return rows.map(row => splitTiles(row).map(s => (s === "." ? "" : s)));
}

const columnName = c => String.fromCharCode(65 + c);
const tileText = (letter, blank) => {
  const shown = blank ? letter.toLowerCase() : letter.toUpperCase();
  return shown.length > 1 ? `[${shown}]` : shown;
};

// The label of a premium square in the page's language: TW/DW/TL/DL and the like (QL, 5W ...).
function premiumLabel(p) {
  if (!p) return "";
  const key = "prem" + p;
  if (STRINGS.en[key]) return t(key);
  const times = { D: 2, T: 3, Q: 4 }[p[0]] || parseInt(p, 10);
  return `${times}×${p.endsWith("W") ? t("premWord") : t("premLetter")}`;
}

function premiumTitle(p) {
  if (!p) return "";
  const times = { D: 2, T: 3, Q: 4 }[p[0]] || parseInt(p, 10);
  return t(p.endsWith("W") ? "premWordTitle" : "premLetterTitle", { n: times });
}

// A new state of the game: the rack keeps the person's order for the tiles still on it; a tentative play
// is kept while the board and rack it was made on are unchanged.
function takeGameState(game, layout) {
  const changed = !tableState.game || tableState.game.version !== game.version;
  if (changed && tableState.game) tableState.previous = tableState.lastBoard;
  tableState.layout = layout;
  tableState.game = game;
  tableState.lastBoard = boardCellsOf(game.board, layout);
  const tiles = splitTiles(game.rack);
  const rackChanged = tiles.slice().sort().join() !== tableState.rack.map(x => x.tile).sort().join();
  if (rackChanged) {
    const left = tiles.slice(), kept = [];
    for (const entry of tableState.rack) {
      const i = left.indexOf(entry.tile);
      if (i >= 0) { kept.push(entry); left.splice(i, 1); }
    }
    tableState.rack = [...kept, ...left.map(tile => ({ id: tableState.nextId++, tile }))];
  }
  if (rackChanged || changed) { tableState.placed = []; tableState.selected = null; tableState.exchange = null; }
  if (!tableState.cursor) {  // the start square, else the middle of the board
    const [r, c] = layout.start || [Math.floor(layout.rows / 2), Math.floor(layout.columns / 2)];
    tableState.cursor = { r, c, down: false };
  }
}

const onBoard = (r, c) => r >= 0 && c >= 0 && r < tableState.layout.rows && c < tableState.layout.columns;
const boardTile = (r, c) => tableState.lastBoard[r][c];
const placedAt = (r, c) => tableState.placed.find(p => p.r === r && p.c === c);
const placedIds = () => new Set(tableState.placed.map(p => p.id));
const rackLeft = () => tableState.rack.filter(x => !placedIds().has(x.id));

function isMyTurn() {
  const g = tableState.game;
  return Boolean(g && g.you >= 0 && g.status !== "GAME_STATUS_ENDED" && g.turn === g.you);
}

// Places rack tile `id` on (r, c) showing `letter` (a blank's letter); a blank without one asks for it.
function placeTile(id, r, c, letter) {
  const entry = tableState.rack.find(x => x.id === id);
  if (!entry || !onBoard(r, c) || boardTile(r, c) || placedAt(r, c) || !isMyTurn()) return false;
  tableState.placed = tableState.placed.filter(p => p.id !== id);  // a placed tile moved elsewhere
  const blank = entry.tile === "?";
  if (blank && !letter) { askBlankLetter(id, r, c); return false; }
  tableState.placed.push({ id, tile: entry.tile, r, c, letter: blank ? letter : entry.tile, blank });
  tableState.selected = null;
  tableChanged();
  return true;
}

function takeBack(r, c) {
  tableState.placed = tableState.placed.filter(p => !(p.r === r && p.c === c));
  tableChanged();
}

function recallTiles() {
  tableState.placed = [];
  tableState.selected = null;
  tableChanged();
}

function shuffleRack() {
  const rack = tableState.rack;
  for (let i = rack.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [rack[i], rack[j]] = [rack[j], rack[i]];
  }
  renderRack();
}

// Moves rack tile `id` to the place of rack tile `before` (the person's own order).
function moveRackTile(id, before) {
  const rack = tableState.rack, from = rack.findIndex(x => x.id === id);
  if (from < 0 || id === before) return;
  const [entry] = rack.splice(from, 1);
  const to = before === null ? rack.length : rack.findIndex(x => x.id === before);
  rack.splice(to < 0 ? rack.length : to, 0, entry);
  renderRack();
}

// The next square from (r, c) in the cursor's direction that holds no board tile (board tiles are skipped).
function nextFree(r, c, down, step) {
  do { if (down) r += step; else c += step; } while (onBoard(r, c) && boardTile(r, c));
  return { r, c };
}

function moveCursor(dr, dc) {
  const cur = tableState.cursor || { r: 0, c: 0, down: false };
  const r = Math.max(0, Math.min(tableState.layout.rows - 1, cur.r + dr));
  const c = Math.max(0, Math.min(tableState.layout.columns - 1, cur.c + dc));
  tableState.cursor = { r, c, down: cur.down };
  renderBoard();
}

// A typed letter: a rack tile of that letter at the cursor (Shift, or none on the rack: a blank);
// "H" right after a typed "C" makes the two one CH tile where the rule set has one.
function typeLetter(key, shift) {
  const cur = tableState.cursor;
  if (!cur || !isMyTurn() || tableState.exchange) return;
  const letter = key.toUpperCase(), points = tableState.layout.points;
  const last = tableState.placed[tableState.placed.length - 1];
  const pendingC = tableState.pendingC;
  tableState.pendingC = false;
  if (pendingC && letter === "H") {  // C with no C on the rack, then H: the CH tile
    const ch = !shift && rackLeft().find(x => x.tile === "CH"), blank = rackLeft().find(x => x.tile === "?");
    if (ch || blank) { placeAtCursor(ch ? ch.id : blank.id, "CH", !ch); return; }
  }
  if (letter === "C" && points.CH !== undefined && !rackLeft().some(x => x.tile === "C" || x.tile === "?") &&
      rackLeft().some(x => x.tile === "CH")) {
    tableState.pendingC = true;  // waits for the H
    $("preview").textContent = t("typeH");
    $("preview").className = "";
    return;
  }
  if (letter === "H" && last && last.letter === "C" && points.CH !== undefined && last.typed) {
    const ch = !last.blank && rackLeft().find(x => x.tile === "CH");
    const blankCh = last.blank || rackLeft().some(x => x.tile === "?");
    if (ch || blankCh) {
      tableState.placed.pop();
      const id = ch ? ch.id : (last.blank ? last.id : rackLeft().find(x => x.tile === "?").id);
      placeTyped(id, last.r, last.c, "CH", !ch);
      return;
    }
  }
  if (points[letter] === undefined) { flashPreview(t("notALetter", { letter: key })); return; }
  const own = !shift && rackLeft().find(x => x.tile === letter);
  const blank = rackLeft().find(x => x.tile === "?");
  if (!own && !blank) { flashPreview(t("notOnRack", { letter })); return; }
  placeAtCursor(own ? own.id : blank.id, letter, !own);
}

function placeAtCursor(id, letter, blank) {
  const cur = tableState.cursor;
  let r = cur.r, c = cur.c;
  if (boardTile(r, c) || placedAt(r, c)) ({ r, c } = nextFree(r, c, cur.down, 1));
  if (onBoard(r, c)) placeTyped(id, r, c, letter, blank);
}

function placeTyped(id, r, c, letter, blank) {
  const entry = tableState.rack.find(x => x.id === id);
  tableState.placed.push({ id, tile: entry.tile, r, c, letter, blank, typed: true });
  const next = nextFree(r, c, tableState.cursor.down, 1);
  tableState.cursor = { ...tableState.cursor, r: onBoard(next.r, next.c) ? next.r : r, c: onBoard(next.r, next.c) ? next.c : c };
  tableChanged();
}

function backspace() {
  const last = tableState.placed.pop();
  if (!last) return;
  tableState.cursor = { ...tableState.cursor, r: last.r, c: last.c };
  tableChanged();
}

// The tentative play as GCG ({position, word}) or {problem}: a line of tiles from the word's first square.
function tentativePlay() {
  const placed = tableState.placed;
  if (!placed.length) return null;
  const rows = new Set(placed.map(p => p.r)), cols = new Set(placed.map(p => p.c));
  let down;
  if (placed.length === 1) {
    const { r, c } = placed[0];
    const across = (onBoard(r, c - 1) && boardTile(r, c - 1)) || (onBoard(r, c + 1) && boardTile(r, c + 1));
    const vertical = (onBoard(r - 1, c) && boardTile(r - 1, c)) || (onBoard(r + 1, c) && boardTile(r + 1, c));
    down = vertical && !across ? true : across ? false : Boolean(tableState.cursor && tableState.cursor.down);
  } else if (rows.size === 1) down = false;
  else if (cols.size === 1) down = true;
  else return { problem: "NOT_IN_LINE" };
  const at = (i) => (down ? [i, placed[0].c] : [placed[0].r, i]);
  const along = placed.map(p => (down ? p.r : p.c));
  let first = Math.min(...along), last = Math.max(...along);
  while (first > 0 && boardTile(...at(first - 1))) first--;
  const size = down ? tableState.layout.rows : tableState.layout.columns;
  while (last < size - 1 && boardTile(...at(last + 1))) last++;
  let word = "";
  for (let i = first; i <= last; i++) {
    const [r, c] = at(i), p = placedAt(r, c);
    if (p) word += tileText(p.letter, p.blank);
    else if (boardTile(r, c)) word += ".";
    else return { problem: "GAP" };
  }
  const [r, c] = at(first);
  return { position: down ? `${columnName(c)}${r + 1}` : `${r + 1}${columnName(c)}`, word };
}

// A refusal's reason in the page's language (the server's message where the language has no text).
function reasonText(reason, message) {
  const texts = ERROR_TEXTS[LANG] || {};
  if (texts[reason]) return texts[reason];
  return STRINGS.en["reason" + reason] ? t("reason" + reason) : message || reason;
}

function flashPreview(text) {
  $("preview").textContent = text;
  $("preview").className = "problem";
}

async function scorePreview() {
  const seq = ++tableState.previewSeq, play = tentativePlay(), out = $("preview");
  out.className = "";
  document.body.dataset.preview = "";
  if (!play) { out.textContent = isMyTurn() ? t("placeHelp") : ""; return; }
  if (play.problem) { flashPreview(reasonText(play.problem)); return; }
  const g = tableState.game;
  let answer;
  try {
    answer = await callApi("POST", "/v1/moves:score", { lexicon: g.lexicon, board: g.board, rack: g.rack, play });
  } catch (err) {
    if (seq === tableState.previewSeq) flashPreview(errorText(err));
    return;
  }
  if (seq !== tableState.previewSeq) return;
  if (!answer.valid) { flashPreview(reasonText(answer.reason, answer.message)); document.body.dataset.preview = "bad"; return; }
  const words = (answer.words || []).map(w => w.word.replace(/\[(\w+)\]/g, "$1")).join(", ");
  out.textContent = `${t("tentative")}: ${play.position} ${words} = ${answer.total}` + (answer.bingo ? ` (${t("bingo")} +${answer.bingoBonus})` : "");
  out.className = "ok";
  document.body.dataset.preview = String(answer.total);
}

function tableChanged() {
  renderBoard();
  renderRack();
  scorePreview();
}

// The play as SubmitMove's text, or null.
function playText() {
  const play = tentativePlay();
  return play && !play.problem ? `${play.position} ${play.word}` : null;
}

function squareNode(r, c, cells) {
  const L = tableState.layout, p = L.premiums[r][c], sq = document.createElement("div");
  const tile = cells[r][c], mine = placedAt(r, c), cur = tableState.cursor;
  sq.className = "sq" + (p ? " prem-" + p : "");
  sq.dataset.r = r; sq.dataset.c = c;
  sq.dataset.square = `${columnName(c)}${r + 1}`;
  sq.title = `${columnName(c)}${r + 1}` + (p ? ` · ${premiumTitle(p)}` : "");
  if (tile || mine) {
    const letter = mine ? mine.letter : tile.toUpperCase(), blank = mine ? mine.blank : tile !== tile.toUpperCase();
    const fresh = !mine && tableState.previous && !tableState.previous[r][c];
    sq.append(tileNode(letter, blank, mine ? "tile placed" : fresh ? "tile fresh" : "tile"));
  } else if (L.start && L.start[0] === r && L.start[1] === c) {
    sq.append(Object.assign(document.createElement("span"), { className: "lbl star", textContent: "★" }));
  } else if (p) {
    sq.append(Object.assign(document.createElement("span"), { className: "lbl", textContent: premiumLabel(p) }));
  }
  if (cur && cur.r === r && cur.c === c && isMyTurn()) {
    sq.classList.add("cursor");
    sq.append(Object.assign(document.createElement("span"), { className: "arrow", textContent: cur.down ? "↓" : "→" }));
  }
  return sq;
}

function tileNode(letter, blank, className) {
  const node = document.createElement("span");
  node.className = className + (blank ? " blank" : "");
  node.append(Object.assign(document.createElement("b"), { textContent: letter, className: letter.length > 1 ? "long" : "" }));
  const points = blank ? tableState.layout.blankPoints : tableState.layout.points[letter];
  if (points !== undefined) node.append(Object.assign(document.createElement("i"), { textContent: points }));
  return node;
}

function renderBoard() {
  const L = tableState.layout, grid = $("playBoard");
  if (!L || !tableState.game) return;
  const cells = tableState.lastBoard;
  grid.style.setProperty("--cols", L.columns);
  grid.style.setProperty("--rows", L.rows);
  const nodes = [];
  for (let r = 0; r < L.rows; r++) for (let c = 0; c < L.columns; c++) nodes.push(squareNode(r, c, cells));
  grid.replaceChildren(...nodes);
  const cur = tableState.cursor;
  grid.dataset.cursor = cur ? `${cur.r},${cur.c},${cur.down ? "down" : "across"}` : "";
  grid.setAttribute("aria-label", t("boardLabel") + (cur && isMyTurn() ? ` · ${t("cursorAt", { square: `${columnName(cur.c)}${cur.r + 1}` })} ${cur.down ? "↓" : "→"}` : ""));
  if (!document.body.dataset.boardDrawn) document.body.dataset.boardDrawn = String(Math.round(performance.now()));
}

function renderRack() {
  const holder = $("rackTiles"), used = placedIds(), ex = tableState.exchange;
  holder.replaceChildren(...tableState.rack.map(entry => {
    const node = tileNode(entry.tile === "?" ? "" : entry.tile, entry.tile === "?", "tile rack-tile");
    node.dataset.id = entry.id;
    node.dataset.tile = entry.tile;
    node.draggable = true;
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", entry.tile === "?" ? t("blank") : entry.tile);
    if (used.has(entry.id)) node.classList.add("used");
    if (tableState.selected === entry.id) node.classList.add("selected");
    if (ex && ex.has(entry.id)) node.classList.add("chosen");
    return node;
  }));
  $("exchangeGo").textContent = t("exchangeN", { n: ex ? ex.size : 0 });
  $("exchangeGo").disabled = !ex || !ex.size;
}

// The blank's letter: a dialog offering only the rule set's letters.
function askBlankLetter(id, r, c) {
  const dialog = $("blankDialog"), choices = $("blankLetters");
  choices.replaceChildren(...Object.keys(tableState.layout.points).map(letter => {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = letter;
    b.addEventListener("click", () => { dialog.close(); placeTile(id, r, c, letter); $("playBoard").focus(); });
    return b;
  }));
  $("blankTitle").textContent = t("blankAsk");
  dialog.showModal();
  choices.firstChild.focus();
}

function onSquareClick(e) {
  const sq = e.target.closest(".sq");
  if (!sq || !isMyTurn() || tableState.exchange) return;
  const r = Number(sq.dataset.r), c = Number(sq.dataset.c);
  if (placedAt(r, c)) { takeBack(r, c); return; }
  if (tableState.selected !== null && !boardTile(r, c)) {
    const next = nextFree(r, c, tableState.cursor ? tableState.cursor.down : false, 1);
    const placed = placeTile(tableState.selected, r, c);
    if (placed && onBoard(next.r, next.c)) { tableState.cursor = { ...tableState.cursor, r: next.r, c: next.c }; renderBoard(); }
    return;
  }
  const cur = tableState.cursor;
  tableState.cursor = { r, c, down: cur && cur.r === r && cur.c === c ? !cur.down : Boolean(cur && cur.down) };
  renderBoard();
  $("playBoard").focus();
}

function onRackClick(e) {
  const node = e.target.closest(".rack-tile");
  if (!node || !isMyTurn()) return;
  const id = Number(node.dataset.id);
  if (tableState.exchange) {
    if (tableState.exchange.has(id)) tableState.exchange.delete(id); else tableState.exchange.add(id);
  } else if (placedIds().has(id)) {
    const p = tableState.placed.find(x => x.id === id);
    takeBack(p.r, p.c);
    return;
  } else {
    tableState.selected = tableState.selected === id ? null : id;
  }
  renderRack();
}

function onBoardKey(e) {
  if (e.ctrlKey || e.altKey || e.metaKey || !tableState.layout) return;
  const arrows = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
  if (e.key in arrows) { e.preventDefault(); moveCursor(...arrows[e.key]); return; }
  if (!isMyTurn()) return;
  if (e.key === " ") {
    e.preventDefault();
    if (tableState.cursor) tableState.cursor.down = !tableState.cursor.down;
    renderBoard();
  } else if (e.key === "Backspace") { e.preventDefault(); backspace(); }
  else if (e.key === "Escape") recallTiles();
  else if (e.key === "Enter") { e.preventDefault(); submitTable(); }
  else if (e.key.length === 1 && /\p{L}/u.test(e.key)) { e.preventDefault(); typeLetter(e.key, e.shiftKey); }
}

function submitTable() {
  const play = playText();
  if (play) act("move", { play });
  else if (tableState.placed.length) scorePreview();
}

function startExchange() {
  tableState.placed = [];
  tableState.exchange = new Set();
  renderTable();
}

function cancelExchange() {
  tableState.exchange = null;
  renderTable();
}

function sendExchange() {
  const chosen = tableState.rack.filter(x => tableState.exchange && tableState.exchange.has(x.id));
  if (chosen.length) act("move", { exchange: chosen.map(x => (x.tile.length > 1 ? `[${x.tile}]` : x.tile)).join("") });
}

// A hint's move in words: a play as notated, an exchange ("-ABC") and a pass ("-") by their names.
function hintMoveText(play) {
  if (play === "-") return t("kindPass");
  return play.startsWith("-") ? `${t("kindExchange")} ${play.slice(1)}` : play;
}

// What looking ahead found of a hinted move (GetHint's MoveOutlook): its win chance, when the lexicon has a
// win table, and its mean spread (an endgame's: exact), as the page's language writes numbers ("62,5 %").
function outlookText(outlook, lookahead) {
  if (!outlook) return "";
  const said = [];
  if (outlook.winChance !== undefined && outlook.winChance !== null) {
    const percent = new Intl.NumberFormat(LANG, { style: "percent", minimumFractionDigits: 1, maximumFractionDigits: 1 });
    said.push(t("hintWinChance", { p: percent.format(outlook.winChance) }));
  }
  if (outlook.meanSpread !== undefined && outlook.meanSpread !== null) {
    const spread = new Intl.NumberFormat(LANG, { signDisplay: "exceptZero", minimumFractionDigits: 1, maximumFractionDigits: 1 });
    said.push(t(lookahead === "endgame" ? "hintSpread" : "hintMeanSpread", { s: spread.format(outlook.meanSpread) }));
  }
  return said.join(", ");
}

async function askHint() {
  const me = live;
  if (!me) return;
  try {
    const ahead = $("hintAhead") && $("hintAhead").checked ? "&simulate=true" : "";  // ranked by simulation
    const answer = await callApi("GET", `/v1/games/${encodeURIComponent(me.id)}/hint?limit=3${ahead}`, undefined, me.token);
    const outlooks = answer.outlooks || [];
    const moves = (answer.moves || []).map((m, i) => {
      const outlook = outlookText(outlooks[i], answer.lookahead);
      return `${hintMoveText(m.play)} (${m.score >= 0 ? "+" : ""}${m.score})` + (outlook ? `: ${outlook}` : "");
    });
    const preview = $("preview");
    preview.textContent = `${t("hint")}:` + (outlooks.length ? "" : ` ${moves.join(" · ") || "—"}`);
    for (const move of outlooks.length ? moves : []) {  // looking ahead says more of each: a move a line
      const line = document.createElement("span");
      line.className = "hint-move";
      line.textContent = move;
      preview.append(line);
    }
    preview.className = "ok";
  } catch (err) { flashPreview(errorText(err)); }
}

// Drag and drop: a rack tile onto a square or onto another rack tile (the order); a placed tile back.
function setupDragging() {
  let dragged = null;
  document.addEventListener("dragstart", e => {
    const node = e.target.closest && e.target.closest(".rack-tile");
    if (!node) return;
    dragged = Number(node.dataset.id);
    e.dataTransfer.setData("text/plain", node.dataset.tile);
    e.dataTransfer.effectAllowed = "move";
  });
  for (const id of ["playBoard", "rackTiles"]) $(id).addEventListener("dragover", e => { if (dragged !== null) e.preventDefault(); });
  $("playBoard").addEventListener("drop", e => {
    const sq = e.target.closest(".sq");
    e.preventDefault();
    if (sq && dragged !== null && !tableState.exchange) placeTile(dragged, Number(sq.dataset.r), Number(sq.dataset.c));
    dragged = null;
  });
  $("rackTiles").addEventListener("drop", e => {
    e.preventDefault();
    const target = e.target.closest(".rack-tile");
    if (dragged === null) return;
    const p = tableState.placed.find(x => x.id === dragged);
    if (p) takeBack(p.r, p.c);
    moveRackTile(dragged, target ? Number(target.dataset.id) : null);
    dragged = null;
  });
}

// The table after a new state: board, rack, the buttons the state allows, the end.
function renderTable() {
  const g = tableState.game;
  if (!g || !tableState.layout) return;
  const ended = g.status === "GAME_STATUS_ENDED", player = g.you >= 0, mine = isMyTurn();
  $("table").hidden = false;
  renderBoard();
  renderRack();
  $("rackArea").hidden = !player || ended;
  $("actions").hidden = !player || ended;
  const ex = Boolean(tableState.exchange);
  for (const id of ["playGo", "recall", "exchangeStart", "passMove"]) { $(id).hidden = ex; $(id).disabled = !mine; }
  for (const id of ["exchangeGo", "exchangeCancel"]) $(id).hidden = !ex;
  $("challengeMove").disabled = ended || !g.challengeable;
  $("hintMove").hidden = !g.hintsAllowed;
  $("hintMove").disabled = !mine;
  if ($("hintAheadBox")) { $("hintAheadBox").hidden = !g.hintsAllowed; $("hintAhead").disabled = !mine; }
  $("keysHelp").hidden = !player || ended;
  renderEnd();
  scorePreview();
}

// The end: the winner, each player's final score with the end-of-game adjustments, the way to the analysis.
function renderEnd() {
  const g = tableState.game, panel = $("endPanel");
  if (!g || g.status !== "GAME_STATUS_ENDED") { panel.hidden = true; return; }
  const best = Math.max(...g.players.map(p => p.score || 0));
  const winners = g.players.filter(p => (p.score || 0) === best);
  $("winner").textContent = winners.length > 1 ? t("draw", { score: best }) : t("winner", { name: winners[0].name, score: best });
  const lines = (view && view.replay && view.replay.lines) || [];
  const rows = g.players.map(p => {
    const adjust = lines.filter(l => l.player === p.name && (l.kind === "end-rack" || l.kind === "time"));
    const delta = adjust.reduce((s, l) => s + (l.score || 0), 0);
    return [p.name, (p.score || 0) - delta, adjust.map(l => `${l.score >= 0 ? "+" : ""}${l.score} ${kindText(l)}`).join(", ") || "0", p.score || 0];
  });
  const tbl = $("endScores");
  tbl.replaceChildren();
  const head = tbl.insertRow();
  for (const k of ["player", "beforeEnd", "endAdjustment", "finalScore"]) head.append(Object.assign(document.createElement("th"), { textContent: t(k) }));
  for (const row of rows) { const tr = tbl.insertRow(); for (const v of row) tr.insertCell().textContent = v; }
  $("endReason").textContent = endReasonText(g.endReason);
  panel.hidden = false;
}

function kindText(line) {
  const words = line.kind === "end-rack" ? line.text.match(/\(([^)]*)\)/) : null;
  return t(line.kind === "time" ? "kindTime" : "kind" + line.kind[0].toUpperCase() + line.kind.slice(1)) + (words ? ` ${words[1]}` : "");
}

// The game's end reason (out | passes | scoreless-turns | blocked | director: <why>) in the page's language.
function endReasonText(reason) {
  if (!reason) return "";
  const director = reason.match(/^director(, racks deducted)?:\s*(.*)$/);
  if (director) return t(director[1] ? "endDirectorDeducted" : "endDirector", { why: director[2] });
  return t("end_" + reason.replace(/-/g, "_"));
}

// An event of the game, said in words for the person at the table (or an observer).
function eventText(ev, you) {
  const mine = ev.player === you && you >= 0, who = ev.playerName || "";
  const words = (ev.words || []).join(", ");
  switch (ev.kind) {
    case "play": return mine ? "" : t("evPlay", { name: who, move: ev.move, score: ev.score });
    case "exchange": return mine ? "" : t("evExchange", { name: who, n: ev.move.replace(/^-/, "") });
    case "pass":
      if (ev.detail === "timeout") return mine ? t("evYouTimedOut") : t("evTimedOut", { name: who });
      if (ev.detail === "correction-timeout") return t("evCorrectionTimeout", { name: who });
      return mine ? "" : t("evPass", { name: who });
    case "challenge":
      if (ev.detail === "withdrawn") return mine ? t("evTheirWordOff", { words }) : t("evYourWordOff", { name: who, words });
      if (ev.detail === "correction") return mine ? t("evTheyCorrect", { words }) : t("evYouCorrect", { name: who, words });
      return t("evStands", { name: who }) + (ev.detail === "penalty" ? ` ${t("evPenalty", { n: -ev.score })}` :
                                             ev.detail === "challenger-loses-turn" ? ` ${t("evLosesTurn")}` : "");
    case "correction-refused": return t("evCorrectionRefused", { name: who });
    case "redraw": return t("evRedraw");
    case "end": return `${t("gameOver")}: ${endReasonText(ev.detail)}`;
    case "adjust": return t("evAdjust", { name: who, delta: (ev.score >= 0 ? "+" : "") + ev.score, why: ev.detail });
    case "undo": return t("evUndo", { why: ev.detail.replace(/^undid version \d+: /, "") });
    default: return "";
  }
}

function setupTable() {
  $("playBoard").addEventListener("click", onSquareClick);
  $("playBoard").addEventListener("keydown", onBoardKey);
  $("rackTiles").addEventListener("click", onRackClick);
  $("playGo").addEventListener("click", submitTable);
  $("recall").addEventListener("click", recallTiles);
  $("shuffle").addEventListener("click", shuffleRack);
  $("exchangeStart").addEventListener("click", startExchange);
  $("exchangeCancel").addEventListener("click", cancelExchange);
  $("exchangeGo").addEventListener("click", sendExchange);
  $("hintMove").addEventListener("click", askHint);
  setupDragging();
}
