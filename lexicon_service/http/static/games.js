// The game viewer: a GCG record replayed by the server (POST /v1/games:view: ReplayGame, the board after
// each line, ScoreMove's breakdown of each play, and with a lexicon that has a move graph each turn's best
// play, drawn on a second board beside the played one), drawn as SVG; step with the keyboard; save SVG/PNG.
// A live game is followed through its event stream (GET /v1/games/{id}/events, Server-Sent Events read
// with fetch, so that a game token can go in a header): after each event the record so far
// (GET /v1/games/{id}/record) is shown as a pasted one is, so no rule is restated here; the game's
// state (GET /v1/games/{id}) gives the panel above the board: whose turn, the clocks (counting down
// between events), the bag, the last move, and whether the scores are final.
// A game against the computer is created here (POST /v1/games with a computer seat) and followed as any
// live game with the person's game token: GetGame with that token gives their rack (to them alone; the
// computer's is never sent), and the play panel sends their moves and challenges (SubmitMove, Challenge).
"use strict";
const $ = id => document.getElementById(id);
const CELL = 40, EDGE = 26;
const PREMIUM_FILL = { DL: "#bbdefb", TL: "#1565c0", DW: "#f8bbd0", TW: "#c62828" };
let view = null;   // the answer of /v1/games:view
let index = -1;    // -1: the empty board; i: after replay line i

const esc = s => String(s).replace(/[&<>"]/g, c => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

function boardAt(i) {
  const L = view.layout;
  return i < 0 ? Array.from({ length: L.rows }, () => Array(L.columns).fill("")) : view.steps[i].board;
}

// best: a turn's analysis (view.steps[i].best): its board and squares instead of line i's
function drawBoard(i, best) {
  const L = view.layout, cells = best ? best.bestBoard : boardAt(i), before = boardAt(i - 1);
  const bestSquares = new Set(best ? best.bestSquares.map(([r, c]) => `${r},${c}`) : []);
  const w = EDGE + L.columns * CELL + 4, h = EDGE + L.rows * CELL + 4;
  const out = [`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" ` +
               `font-family="DejaVu Sans, Noto Sans, sans-serif" role="img" aria-label="${esc(t("games"))}">`,
               `<rect width="${w}" height="${h}" fill="#ffffff"/>`];
  for (let c = 0; c < L.columns; c++) {
    out.push(`<text x="${EDGE + c * CELL + CELL / 2}" y="${EDGE - 8}" font-size="14" text-anchor="middle" fill="#333">${String.fromCharCode(65 + c)}</text>`);
  }
  for (let r = 0; r < L.rows; r++) {
    out.push(`<text x="${EDGE - 5}" y="${EDGE + r * CELL + CELL / 2 + 5}" font-size="14" text-anchor="end" fill="#333">${r + 1}</text>`);
  }
  for (let r = 0; r < L.rows; r++) {
    for (let c = 0; c < L.columns; c++) {
      const x = EDGE + c * CELL, y = EDGE + r * CELL, p = L.premiums[r][c];
      out.push(`<rect x="${x}" y="${y}" width="${CELL}" height="${CELL}" fill="${PREMIUM_FILL[p] || (p ? "#c9b3ff" : "#e9efe6")}" stroke="#9aa59a"/>`);
      const isStart = L.start && L.start[0] === r && L.start[1] === c;
      if (isStart && !cells[r][c]) out.push(`<text x="${x + CELL / 2}" y="${y + CELL / 2 + 8}" font-size="22" text-anchor="middle" fill="#8a1140">★</text>`);
      else if (p && !cells[r][c]) out.push(`<text x="${x + CELL / 2}" y="${y + CELL / 2 + 5}" font-size="13" text-anchor="middle" fill="${p === "TW" || p === "TL" ? "#fff" : "#234"}">${esc(premiumLabel(p))}</text>`);
    }
  }
  for (let r = 0; r < L.rows; r++) {
    for (let c = 0; c < L.columns; c++) {
      const s = cells[r][c];
      if (!s) continue;
      const x = EDGE + c * CELL, y = EDGE + r * CELL;
      const blank = s !== s.toUpperCase();
      const letter = s.toUpperCase();
      const fresh = best ? bestSquares.has(`${r},${c}`) : i >= 0 && !before[r][c];
      out.push(`<g class="tile${blank ? " blank" : ""}${fresh ? " new" : ""}" data-square="${String.fromCharCode(65 + c)}${r + 1}">`);
      out.push(`<rect x="${x + 2}" y="${y + 2}" width="${CELL - 4}" height="${CELL - 4}" rx="4" fill="${blank ? "#fffaf0" : "#f3d9a4"}" ` +
               `stroke="${fresh ? (best ? "#1a8f3a" : "#e67300") : "#8a6d3b"}" stroke-width="${fresh ? 3 : 1.2}"/>`);
      if (blank) out.push(`<circle cx="${x + CELL / 2}" cy="${y + CELL / 2}" r="${CELL / 2 - 6}" fill="none" stroke="#b0001b" stroke-width="1.5" stroke-dasharray="3 2"/>`);
      out.push(`<text x="${x + CELL / 2}" y="${y + CELL / 2 + (letter.length > 1 ? 6 : 8)}" font-size="${letter.length > 1 ? 16 : 22}" ` +
               `font-weight="bold" text-anchor="middle" fill="${blank ? "#b0001b" : "#1a1a1a"}">${esc(letter)}</text>`);
      const points = blank ? L.blankPoints : L.points[letter];
      if (!blank && points !== undefined) out.push(`<text x="${x + CELL - 5}" y="${y + CELL - 5}" font-size="10" text-anchor="end" fill="#333">${points}</text>`);
      out.push("</g>");
    }
  }
  out.push("</svg>");
  return out.join("");
}

function tilesText(tiles) {
  const span = document.createElement("span");
  for (const tl of tiles) {
    const s = document.createElement("span");
    s.textContent = tl.letter + (tl.blank ? "" : tl.points === undefined ? "" : String(tl.points).replace(/\d/g, d => "₀₁₂₃₄₅₆₇₈₉"[d])) + " ";
    if (tl.premium) s.className = "premium-" + tl.premium;
    if (tl.blank) { s.className += " blanktile"; s.title = t("blank"); }
    span.append(s);
  }
  return span;
}

// A director's score adjustment: a GCG bonus line with its #note, as the viewer says (rules/gcg.py).
const isAdjustment = i => view.steps[i].directorAdjustment;

function kindName(i) {
  const line = view.replay.lines[i];
  return isAdjustment(i) ? t("kindAdjustment") : t("kind" + line.kind[0].toUpperCase() + line.kind.slice(1));
}

function renderDetail() {
  const d = $("detail");
  d.innerHTML = "";
  const h = document.createElement("h2");
  if (index < 0) { h.textContent = t("start"); d.append(h); return; }
  const line = view.replay.lines[index], move = view.steps[index].move;
  h.textContent = `${t("move")} ${index + 1}/${view.steps.length}: ${line.player} — ` +
                  (line.kind === "play" ? `${line.position} ${line.word}` : kindName(index)) +
                  ` — ${line.hasScore ? (line.score >= 0 ? "+" : "") + line.score : "?"} (${t("total")} ${line.expectedTotal})`;
  d.append(h);
  if (move) {
    const table = document.createElement("table");
    const head = table.insertRow();
    for (const k of ["word", "letters", "subtotal"]) { const th = document.createElement("th"); th.textContent = t(k); head.append(th); }
    for (const w of move.words) {
      const row = table.insertRow();
      row.insertCell().textContent = w.word;
      const tiles = row.insertCell();
      tiles.append(tilesText(w.tiles), `= ${w.letterSum}` + (w.multiplier > 1 ? ` × ${w.multiplier}` : ""));
      row.insertCell().textContent = w.subtotal;
    }
    if (move.bingo) { const row = table.insertRow(); row.insertCell().textContent = t("bingo"); row.insertCell(); row.insertCell().textContent = move.bingoBonus; }
    const row = table.insertRow();
    row.insertCell().textContent = t("total"); row.insertCell(); row.insertCell().textContent = move.total;
    d.append(table);
  }
  const best = view.steps[index].best;
  if (best && best.best) {
    const p = document.createElement("p");
    p.id = "bestText";
    p.textContent = `${t("bestPlay")}: ${best.best} ${best.bestScore >= 0 ? "+" : ""}${best.bestScore}` +
                    (best.givenAway !== undefined && best.givenAway !== null ? ` (${t("pointsGivenAway", { n: best.givenAway })})` : "");
    d.append(p);
  }
  const rec = document.createElement("p");
  rec.textContent = `${t("recorded")}: ${line.recordedScore >= 0 ? "+" : ""}${line.recordedScore} → ${line.recordedTotal}`;
  d.append(rec);
  const notes = [...line.noteDetails.map(n => serverNoteText(n))];
  for (const [items, cls, key] of [[line.problemDetails.map(n => serverNoteText(n)), "problem", "problems"], [notes, "", "notes"]]) {
    if (!items.length) continue;
    const p = document.createElement("p");
    p.className = cls;
    p.textContent = t(key) + ": " + items.join("; ");
    d.append(p);
  }
  const recorded = view.steps[index].recordNotes;
  // an analysis note (AnalyseGame's annotated record) quotes the line's problems or notes and the turn's own
  const quoted = [...line.problemDetails, ...line.noteDetails, ...((best && best.noteDetails) || [])];
  if (recorded.length) d.append(recordNotesParagraph(recorded, quoted));
}

// The record's own #note lines: the server's (a live game's, in its English) said in the page's language;
// any other is the record author's text, shown as written and marked as not the page's (translate="no").
// quoted: the notes as data a note may quote (noteText).
function recordNotesParagraph(recorded, quoted) {
  const p = document.createElement("p");
  p.append(t("recordNotes") + ": ");
  recorded.forEach((text, i) => {
    const said = noteText(text, quoted);
    const span = document.createElement("q");
    span.textContent = said;
    if (said === text) span.setAttribute("translate", "no");
    p.append(...(i ? ["; ", span] : [span]));
  });
  return p;
}

function render() {
  $("board").innerHTML = drawBoard(index);
  const best = index >= 0 ? view.steps[index].best : null;
  $("bestFigure").hidden = !(best && best.bestBoard);
  $("bestBoard").innerHTML = best && best.bestBoard ? drawBoard(index, best) : "";
  $("bestCaption").textContent = best && best.bestBoard ? `${t("bestPlay")}: ${best.best} ${best.bestScore >= 0 ? "+" : ""}${best.bestScore}` : "";
  $("step").textContent = index < 0 ? t("start") : `${t("move")} ${index + 1}/${view.steps.length}`;
  for (const [i, li] of [...$("lines").children].entries()) li.classList.toggle("current", i === index);
  const current = $("lines").children[index];
  if (current) current.scrollIntoView({ block: "nearest" });
  renderDetail();
}

function go(i) {
  if (!view) return;
  index = Math.max(-1, Math.min(view.steps.length - 1, i));
  render();
}

function renderLines() {
  const list = $("lines");
  list.innerHTML = "";
  view.replay.lines.forEach((line, i) => {
    const li = document.createElement("li");
    li.textContent = `${line.line}: ${line.text}` + (isAdjustment(i) ? ` (${t("kindAdjustment")})` : "");
    if (!line.ok) li.className = "bad";
    li.addEventListener("click", () => go(i));
    list.append(li);
  });
  const s = $("summary");
  s.innerHTML = "";
  const p = document.createElement("p");
  p.className = view.replay.ok ? "" : "problem";
  p.textContent = view.replay.ok ? t("allOk") : t("someBad");
  s.append(p);
  const table = document.createElement("table");
  const head = table.insertRow();
  for (const k of ["player", "recorded", "computed"]) { const th = document.createElement("th"); th.textContent = t(k); head.append(th); }
  for (const f of view.replay.finalScores) {
    const row = table.insertRow();
    row.insertCell().textContent = f.player; row.insertCell().textContent = f.recorded; row.insertCell().textContent = f.computed;
  }
  const cap = table.createCaption();
  // a followed game's scores are final only once it has ended (a pasted record is taken as complete)
  const ongoing = live && live.state && live.state.status !== "GAME_STATUS_ENDED";
  cap.textContent = t(ongoing ? "scoresSoFar" : "finalScores");
  s.append(table);
  for (const n of view.replay.noteDetails) { const q = document.createElement("p"); q.textContent = serverNoteText(n); s.append(q); }
}

// A record without "#rules" and no lexicon chosen: the rule set to replay it under is offered.
const namesRules = gcg => /^#rules[ \t]+\S/m.test(gcg);
function offerRuleSet() {
  $("ruleSetChoice").hidden = !$("ruleSet").options.length || !!$("lexicon").value || namesRules($("gcg").value);
}

async function show() {
  const gcg = $("gcg").value;
  offerRuleSet();
  if (!gcg.trim()) return;
  const status = $("status");
  status.className = "status";
  status.textContent = t("loading");
  const body = { gcg };
  if ($("lexicon").value) body.lexicon = $("lexicon").value;
  else if (!$("ruleSetChoice").hidden) body.ruleSet = $("ruleSet").value;
  if ($("end2x").checked) body.end2x = true;
  try {
    view = await callApi("POST", "/v1/games:view", body);
  } catch (err) {
    status.className = "status error";
    status.textContent = errorText(err);
    return;
  }
  status.textContent = "";
  $("viewer").hidden = false;
  renderLines();
  go(view.steps.length - 1);
  $("board").focus();
  document.body.dataset.shown = "1";
}

let live = null;  // the followed game: { id, token, abort, busy, dirty, rack, state, stateAt, sending }

function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

// The panel of a followed game, from its last GetGame answer; the clock of the player on turn runs down
// from the answer's time (redrawn every second by the interval below, not fetched).
function renderLivePanel() {
  const panel = $("livePanel");
  if (!live || !live.state) { panel.hidden = true; return; }
  const g = live.state, ended = g.status === "GAME_STATUS_ENDED";
  const elapsed = performance.now() - live.stateAt;
  const table = $("livePlayers");
  table.innerHTML = "";
  g.players.forEach((p, i) => {
    const onTurn = !ended && i === (g.turn || 0);
    const row = table.insertRow();
    row.className = onTurn ? "turn" : "";
    row.insertCell().textContent = onTurn ? "▶" : "";
    row.insertCell().textContent = p.name;
    row.insertCell().textContent = p.score || 0;
    const clock = row.insertCell();
    clock.className = "clock";
    const remaining = Number(p.timeRemainingMs || 0);
    if (remaining) {
      const left = onTurn ? remaining - elapsed : remaining;
      clock.textContent = clockText(left);
      clock.classList.toggle("low", left < 60000);
    }
    row.insertCell().textContent = onTurn ? t("onTurn") : "";
  });
  const info = [ended ? t("gameOver") + (g.endReason ? ` (${endReasonText(g.endReason)})` : "")
                      : g.status === "GAME_STATUS_AWAITING_FINAL_PASS" ? t("awaitingFinalPass") : "",
                t("bagCount", { n: g.bagCount || 0 })].filter(Boolean);
  $("liveInfo").textContent = info.join(" · ");
  const timer = $("moveTimer"), deadline = Number(g.moveDeadlineMs || 0);
  const left = deadline && !ended ? deadline - Number(g.nowMs || 0) - elapsed : 0;
  timer.textContent = deadline && !ended ? t("moveTimer", { time: clockText(left) }) : "";
  timer.classList.toggle("low", left < 10000);
  panel.hidden = false;
  document.body.dataset.liveStatus = g.status;
}

setInterval(() => { if (live && live.state && live.state.status !== "GAME_STATUS_ENDED") renderLivePanel(); }, 1000);

function setLive(text, error) {
  const s = $("liveStatus");
  s.textContent = text;
  s.className = error ? "problem" : "";
}

// "Following game ID · Your rack: ..." from the game's current state (a player's token sees its own rack),
// in the page's language, again when the language changes.
function renderFollowing(afterUpdate) {
  // an error stays shown until the next update of the game (a language switch keeps it)
  if (!live || !live.state || (!afterUpdate && $("liveStatus").classList.contains("problem"))) return;
  const rack = live.state.rack;
  setLive(t("following", { id: live.id }) + (rack ? ` · ${t("yourRack")}: ${rack}` : ""));
}

async function showLive(me) {
  // Coalesced: events that arrive while the record is being fetched and drawn cause one more round.
  if (me.busy) { me.dirty = true; return; }
  me.busy = true;
  try {
    do {
      me.dirty = false;
      const path = `/v1/games/${encodeURIComponent(me.id)}`;
      const [state, record] = await Promise.all([callApi("GET", path, undefined, me.token),
                                                 callApi("GET", path + "/record", undefined, me.token)]);
      const answer = await callApi("POST", "/v1/games:view", { gcg: record.gcg });
      if (me !== live) return;
      me.state = state;
      me.stateAt = performance.now();
      view = answer;
      renderLivePanel();
      renderPlayPanel();
      $("gcg").value = record.gcg;
      $("status").textContent = "";
      $("viewer").hidden = false;
      renderLines();
      go(view.steps.length - 1);
      renderFollowing(true);
      document.body.dataset.liveVersion = record.version;
    } while (me.dirty);
  } catch (err) {
    if (me === live) setLive(errorText(err), true);
  } finally {
    me.busy = false;
  }
}

// `say` gives the announcement's text in the page's language: called again when the language changes.
function announce(say) {
  if (!say()) return;
  const list = $("announce");
  for (const li of list.children) li.className = "old";
  const li = document.createElement("li");
  li._say = say;
  li.textContent = say();
  list.prepend(li);
  while (list.children.length > 3) list.lastChild.remove();
}

function sayAnnouncementsAgain() {
  for (const li of $("announce").children) if (li._say) li.textContent = li._say();
}

function onStreamBlock(me, block) {
  let name = "message";
  const data = [];
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;  // a heartbeat
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") name = value;
    else if (field === "data") data.push(value);
  }
  if (!data.length) return;
  const payload = JSON.parse(data.join("\n"));
  if (name === "rpc-error") {
    me.streamError = apiErrorOf(payload);
    // UNAVAILABLE: the server ended the stream (idle for its bound); follow() watches again, unseen
    if (me.streamError.status !== "UNAVAILABLE") setLive(errorText(me.streamError), true);
    return;
  }
  me.seen = Math.max(me.seen, Number(payload.version));
  me.closes = 0;
  const you = me.state ? me.state.you : -1;
  if (Number(payload.version) > me.from) announce(() => eventText(payload, you));
  showLive(me);
}

// When the server refuses the event stream (too many open: 429, RESOURCE_EXHAUSTED) the page asks for
// the game's state every few seconds instead, and shows it when its version moved on.
async function pollGame(me) {
  setLive(t("polling"));
  while (me === live && !(me.state && me.state.status === "GAME_STATUS_ENDED")) {
    await new Promise(r => setTimeout(r, 2000));
    if (me !== live) return;
    try {
      const state = await callApi("GET", `/v1/games/${encodeURIComponent(me.id)}`, undefined, me.token);
      if (!me.state || state.version !== me.state.version) await showLive(me);
    } catch (err) { /* the next round tries again */ }
  }
}

const REFUSED_STREAM = new Set([429, 503, "RESOURCE_EXHAUSTED", "UNAVAILABLE"]);

async function follow() {
  const id = $("gameId").value.trim();
  if (!id) return;
  if (live) live.abort.abort();
  const gameToken = $("gameToken").value.trim();
  const me = live = { id, token: gameToken, abort: new AbortController(), busy: false, dirty: false, state: null, stateAt: 0, from: 0 };
  $("announce").replaceChildren();
  renderLivePanel();
  renderPlayPanel();
  setLive(t("loading"));
  delete document.body.dataset.liveVersion;
  delete document.body.dataset.liveEnded;
  await showLive(me);  // the game as it is; the stream then brings what happens after it
  if (me !== live || !me.state) return;
  me.from = me.seen = Number(me.state.version);
  me.closes = 0;  // streams in a row that closed with no event and no reason: after 3, the page polls
  for (;;) {
    const outcome = await watchEvents(me);
    if (me !== live || outcome === "stop") return;
    if (outcome === "refused") { pollGame(me); return; }
    while (me.busy) await new Promise(r => setTimeout(r, 50));
    if (outcome === "error" || (me.state && me.state.status === "GAME_STATUS_ENDED")) break;
    // The stream ended before the game: the server ended it idle (UNAVAILABLE), or the connection dropped.
    // Watch again after the last version seen, as if nothing happened.
    if (outcome === "closed" && ++me.closes >= 3) { pollGame(me); return; }
    await new Promise(r => setTimeout(r, 1000));
    if (me !== live) return;
  }
  document.body.dataset.liveEnded = "1";
  setLive($("liveStatus").textContent + " · " + t("liveEnded"));
}

// One event stream of the followed game, after the last version seen, read to its end: "idle" (the server
// ended it: UNAVAILABLE), "error" (another error, shown), "closed" (ended with no reason: the game's end, or
// a dropped connection), "refused" (the server refuses streams now: poll), "stop" (the page left the game).
async function watchEvents(me) {
  const headers = { Accept: "text/event-stream" };
  const serverToken = localStorage.getItem("token");
  if (serverToken) headers.Authorization = "Bearer " + serverToken;
  if (me.token) headers["X-Game-Token"] = me.token;
  me.streamError = null;
  let response;
  try {
    response = await fetch(`/v1/games/${encodeURIComponent(me.id)}/events?afterVersion=${me.seen}`,
                           { headers, signal: me.abort.signal, cache: "no-store" });
  } catch (err) {
    return me === live && err.name !== "AbortError" ? "refused" : "stop";
  }
  if (!response.ok) {
    const error = apiErrorOf(await response.json().catch(() => ({})), response);
    if (me !== live) return "stop";
    if (REFUSED_STREAM.has(error.status) || REFUSED_STREAM.has(response.status)) return "refused";
    setLive(errorText(error), true);
    return "stop";
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value.replace(/\r\n?/g, "\n");
      for (let cut; (cut = buffer.indexOf("\n\n")) >= 0;) {
        onStreamBlock(me, buffer.slice(0, cut));
        buffer = buffer.slice(cut + 2);
      }
    }
  } catch (err) {
    if (err.name === "AbortError" || me !== live) return "stop";
  }
  if (!me.streamError) return "closed";
  return me.streamError.status === "UNAVAILABLE" ? "idle" : "error";
}

// The table of a followed game: the board for everyone, the rack and the moves for a player (their token).
function renderPlayPanel() {
  const g = live && live.state;
  const playing = Boolean(g && live.token && g.you >= 0);
  document.body.classList.toggle("playing", playing);
  if (!g || !view) { $("table").hidden = true; delete document.body.dataset.yourTurn; return; }
  if (playing && !live.opened) { live.opened = true; $("recordPanel").open = false; }
  takeGameState(g, view.layout);
  renderTable();
  if (!playing) { delete document.body.dataset.yourTurn; $("playStatus").textContent = ""; return; }
  const ended = g.status === "GAME_STATUS_ENDED", yourTurn = !ended && g.turn === g.you;
  const onTurn = g.players[g.turn || 0] || {};
  $("playStatus").textContent = ended ? "" : yourTurn ? (g.correcting ? t("correcting") : t("yourTurn"))
    : g.status === "GAME_STATUS_AWAITING_FINAL_PASS" ? t("awaitingFinalPass")
    : onTurn.computerLevel ? t("computerThinking") : t("theirTurn", { name: onTurn.name });
  document.body.dataset.yourTurn = yourTurn ? "1" : "0";
  document.body.dataset.ended = ended ? "1" : "0";
  const focus = document.activeElement;
  if (yourTurn && (!focus || focus === document.body || $("lobby").contains(focus) || focus.disabled)) $("playBoard").focus();
}

// What the last move or challenge of the person answered (an error, a challenge's ruling), until the next.
function setNote(text, error) {
  $("playNote").textContent = text;
  $("playNote").className = error ? "problem" : "";
}

// A move or a challenge of the person playing: the answer's game view is shown at once (the event
// stream then brings the computer's reply). expectedVersion: a move made on a stale view is refused.
async function act(kind, body) {
  const me = live;
  if (!me || !me.state || me.sending) return;  // one at a time: a second Enter is not a second move
  const path = `/v1/games/${encodeURIComponent(me.id)}:${kind}`;
  setNote("");
  let answer;
  me.sending = true;
  try {
    answer = await callApi("POST", path, { ...body, expectedVersion: me.state.version }, me.token);
  } catch (err) {
    if (me === live) setNote(errorText(err), true);
    return;
  } finally {
    me.sending = false;
  }
  if (me !== live) return;
  if (kind === "challenge") {
    setNote(answer.playStood ? t("playStood") : t("challengedOff", { words: (answer.invalidWords || []).join(", ") }));
  }
  if (Number(answer.game.version) > Number(me.state.version)) me.from = Math.max(me.from, Number(answer.game.version));
  showLive(me);
}

// Leaves the game for the lobby (the game goes on on the server).
function leaveGame() {
  if (live) live.abort.abort();
  live = null;
  setLive("");
  document.body.classList.remove("playing");
  $("table").hidden = true;
  $("livePanel").hidden = true;
  history.replaceState(null, "", location.pathname + (LANG ? `?lang=${LANG}` : ""));
}

// The ended game replayed with its lexicon: each turn's best move beside the one played.
function analyseGame() {
  if (!live || !live.state) return;
  $("recordPanel").open = true;
  $("lexicon").value = live.state.lexicon;
  show().then(() => $("recordPanel").scrollIntoView({ block: "start" }));
}

const LEVELS = ["best", "club", "beginner"];  // lexicon_service/games/computer.py LEVELS (a test keeps them equal)
const NEEDS_LEAVES = ["equity", "simulating"];  // computer.py NEEDS_LEAVES: offered only with a lexicon that has a leave table
let lexiconList = [];

function offerLexicons() {
  const ruleSet = $("newRuleSet").value, select = $("newLexicon"), chosen = select.value;
  select.innerHTML = "";
  for (const l of lexiconList) if (l.ruleSet === ruleSet) select.add(new Option(l.name, l.name, false, l.name === chosen));
  $("newStart").disabled = !select.options.length;
  $("newStatus").textContent = select.options.length ? "" : t("noComputerLexicon");
  offerLeaveLevels();
}

// The levels equity and simulating are enabled for a lexicon whose listing says it has a leave table
// (ListLexicons has_leave_table); for another the options are disabled and the note says why.
function offerLeaveLevels() {
  const lexicon = lexiconList.find(l => l.name === $("newLexicon").value);
  const available = Boolean(lexicon && lexicon.hasLeaveTable);
  for (const option of $("newLevel").options) if (NEEDS_LEAVES.includes(option.value)) option.disabled = !available;
  if (!available && NEEDS_LEAVES.includes($("newLevel").value)) $("newLevel").value = LEVELS[0];
  $("newLevelNote").textContent = lexicon && !available ? `${t("equityUnavailable")}. ${t("simulatingUnavailable")}` : "";
}

// A new game: the person in seat 0, the computer in seat 1; then followed with the person's token. The
// director's token in the answer is not kept: this page only plays.
async function startGame(e) {
  e.preventDefault();
  const name = $("newName").value.trim() || t("defaultName");
  const computer = t("computerName") === name ? t("computerName") + "2" : t("computerName");
  let game;
  try {
    game = await callApi("POST", "/v1/games", {
      lexicon: $("newLexicon").value, playerNames: [name, computer],
      computerPlayers: [{ seat: 1, level: $("newLevel").value }], allowHints: $("newHints").checked,
    });
  } catch (err) {
    $("newStatus").textContent = errorText(err);
    return;
  }
  $("newStatus").textContent = "";
  localStorage.setItem("playerName", name);
  $("gameId").value = game.gameId;
  $("gameToken").value = game.playerTokens[0];
  const params = new URLSearchParams(location.search);
  params.set("game", game.gameId);
  history.replaceState(null, "", location.pathname + "?" + params);
  follow();
}

function download(blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

function fileName(ext) { return `game-${index < 0 ? 0 : index + 1}.${ext}`; }

function saveSvg() {
  if (view) download(new Blob([drawBoard(index)], { type: "image/svg+xml" }), fileName("svg"));
}

function savePng() {
  if (!view) return;
  const svg = drawBoard(index);
  const img = new Image();
  img.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = img.width * 2; canvas.height = img.height * 2;
    const ctx = canvas.getContext("2d");
    ctx.scale(2, 2);
    ctx.drawImage(img, 0, 0);
    canvas.toBlob(blob => download(blob, fileName("png")), "image/png");
  };
  img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
}

function showPasted() {
  if (live) { live.abort.abort(); live = null; setLive(""); renderLivePanel(); }
  show();
}

$("show").addEventListener("click", showPasted);
$("live").addEventListener("submit", e => { e.preventDefault(); follow(); });
$("newGame").addEventListener("submit", startGame);
$("newRuleSet").addEventListener("change", offerLexicons);
$("newLexicon").addEventListener("change", offerLeaveLevels);
$("passMove").addEventListener("click", () => act("move", { pass: true }));
$("analyse").addEventListener("click", analyseGame);
$("newAgain").addEventListener("click", leaveGame);
$("challengeMove").addEventListener("click", () => act("challenge", {}));
$("gcg").addEventListener("keydown", e => { if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); showPasted(); } });
$("file").addEventListener("change", async () => {
  const file = $("file").files[0];
  if (!file) return;
  $("fileName").textContent = file.name;  // the picked file's name, as the browser's own input would show it
  $("gcg").value = await file.text();
  showPasted();
});
$("prev").addEventListener("click", () => go(index - 1));
$("next").addEventListener("click", () => go(index + 1));
$("svg").addEventListener("click", saveSvg);
$("png").addEventListener("click", savePng);
document.addEventListener("keydown", e => {
  const typing = ["TEXTAREA", "INPUT", "SELECT"].includes(document.activeElement.tagName);
  const atTable = !$("table").hidden && !$("recordPanel").contains(document.activeElement);
  if (typing || atTable || !view || e.ctrlKey || e.altKey || e.metaKey) return;
  const moves = { ArrowLeft: index - 1, ArrowUp: index - 1, ArrowRight: index + 1, ArrowDown: index + 1, Home: -1, End: view.steps.length - 1 };
  if (e.key in moves) { e.preventDefault(); go(moves[e.key]); }
  else if (e.key === "s" || e.key === "S") saveSvg();
  else if (e.key === "p" || e.key === "P") savePng();
});

(async function start() {
  setupTable();
  setupLanguageSwitch(() => {
    if (view) { renderLines(); render(); }
    renderLivePanel(); renderPlayPanel(); renderFollowing(); offerLexicons(); sayAnnouncementsAgain();
  });
  const fromRules = new Option(t("fromRules"), "");
  fromRules.dataset.i18n = "fromRules";  // translated again on a language switch
  $("lexicon").add(fromRules);
  for (const level of [...LEVELS, ...NEEDS_LEAVES]) {
    const key = "level" + level[0].toUpperCase() + level.slice(1);
    const option = new Option(t(key), level);
    option.dataset.i18n = key;  // translated again on a language switch
    $("newLevel").add(option);
  }
  $("newName").value = localStorage.getItem("playerName") || t("defaultName");
  const game = new URLSearchParams(location.search).get("game");
  if (game) { $("gameId").value = game; follow(); }  // the game first: the lists below are for the lobby
  try {
    const select = document.createElement("select");
    lexiconList = await loadLexicons(select, null);
    for (const l of lexiconList) $("lexicon").add(new Option(l.name, l.name));
  } catch (err) { /* the record's #rules still works */ }
  try {
    const ruleSets = (await callApi("GET", "/v1/rulesets")).ruleSets || [];
    for (const rs of ruleSets) {
      $("ruleSet").add(new Option(rs.id, rs.id, false, rs.language === LANG));
      $("newRuleSet").add(new Option(rs.id, rs.id, false, rs.language === LANG));
    }
  } catch (err) { /* the record's #rules or a lexicon still works */ }
  offerLexicons();
  for (const id of ["gcg", "lexicon"]) $(id).addEventListener("input", offerRuleSet);
  if (!game) $("gcg").focus();
  document.body.dataset.ready = "1";
  registerServiceWorker();
})();
