// The director's console: the games a director holds tokens for (kept in this browser), and with the
// server's director key (kept for this tab only) every game in progress on the server (ListGames; with
// ?tournament=ID one tournament's); ?games=ID,ID shows only those. Each is a mini-board with scores, whose
// turn and the clocks, asked again every 2 s; one opened to adjust a score, undo the last move or end the
// game (choosing how the end scores), each with a reason that goes into the record and to the players.
"use strict";
const $ = id => document.getElementById(id);
const STORE = "directorGames", KEY_STORE = "directorKey";
const PARAMS = new URLSearchParams(location.search);
const TOURNAMENT = (PARAMS.get("tournament") || "").trim();
const ONLY = PARAMS.get("games") ? new Set(PARAMS.get("games").split(",").map(s => s.trim()).filter(Boolean)) : null;
const states = new Map();  // game id -> {state, at}
const listed = new Set();  // the games the server's key listed (an ended one stays, asked by its id)
let opened = null;

const serverKey = () => sessionStorage.getItem(KEY_STORE) || "";

function held() {
  const all = JSON.parse(localStorage.getItem(STORE) || "[]");
  return ONLY ? all.filter(g => ONLY.has(g.id)) : all;
}

// Every game shown: the key's first, then those held by their own director tokens.
function shownIds() {
  return [...new Set([...[...listed].filter(id => !ONLY || ONLY.has(id)), ...held().map(g => g.id)])];
}

function keep(list) { localStorage.setItem(STORE, JSON.stringify(list)); }

const tokenOf = id => listed.has(id) ? serverKey()
  : (JSON.parse(localStorage.getItem(STORE) || "[]").find(g => g.id === id) || {}).token;

function clock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function miniBoard(rows) {
  const board = document.createElement("div");
  board.className = "mini";
  const cells = (rows || []).map(row => splitTiles(row));
  board.style.setProperty("--cols", cells.length ? cells[0].length : 15);
  for (const row of cells) for (const tile of row) {
    const span = document.createElement("span");
    if (tile !== ".") { span.className = "t"; span.textContent = tile.toUpperCase(); }
    board.append(span);
  }
  return board;
}

function statusText(g) {
  if (g.status === "GAME_STATUS_ENDED") return `${t("gameOver")}: ${endReasonText(g.endReason)}`;
  if (g.status === "GAME_STATUS_AWAITING_FINAL_PASS") return t("awaitingFinalPass");
  return t("bagCount", { n: g.bagCount || 0 });
}

function card(id, entry) {
  const g = entry.state, ended = g.status === "GAME_STATUS_ENDED";
  const node = document.createElement("article");
  node.className = "card" + (opened === id ? " open" : "") + (ended ? " ended" : "");
  node.dataset.game = id;
  node.tabIndex = 0;
  const title = document.createElement("h2");
  title.textContent = `${g.players.map(p => p.name).join(" – ")} · ${g.ruleSet}`;
  node.append(title, miniBoard(g.board));
  const table = document.createElement("table");
  const elapsed = performance.now() - entry.at;
  g.players.forEach((p, i) => {
    const row = table.insertRow();
    const onTurn = !ended && i === (g.turn || 0);
    row.className = onTurn ? "turn" : "";
    row.insertCell().textContent = (onTurn ? "▶ " : "") + p.name;
    row.insertCell().textContent = p.score || 0;
    const c = row.insertCell();
    c.className = "clock";
    const left = Number(p.timeRemainingMs || 0);
    if (left) c.textContent = clock(onTurn ? left - elapsed : left);
  });
  const deadline = Number(g.moveDeadlineMs || 0);
  const info = document.createElement("p");
  info.textContent = statusText(g) + (deadline && !ended ? ` · ${t("moveTimer", { time: clock(deadline - Number(g.nowMs) - elapsed) })}` : "");
  node.append(table, info);
  node.addEventListener("click", () => openGame(id));
  node.addEventListener("keydown", e => { if (e.key === "Enter") openGame(id); });
  return node;
}

function render() {
  const ids = shownIds(), key = serverKey();
  const empty = $("empty");
  empty.hidden = ids.length > 0;
  empty.dataset.i18n = key ? "noGamesServer" : "noGames";
  empty.textContent = t(empty.dataset.i18n);
  $("scope").hidden = !key;
  $("scope").textContent = TOURNAMENT ? t("scopeTournament", { id: TOURNAMENT }) : t("scopeServer");
  $("keyForget").hidden = !key;
  $("games").replaceChildren(...ids.filter(id => states.has(id)).map(id => card(id, states.get(id))));
  renderPanel();
}

function remember(id, state, at) {
  const before = states.get(id);
  states.set(id, { state, at });
  if (opened === id && (!before || before.state.version !== state.version)) loadEvents(id);
}

async function fetchGame(id, token, status) {
  try {
    remember(id, await callApi("GET", `/v1/games/${encodeURIComponent(id)}`, undefined, token), performance.now());
  } catch (err) {
    states.delete(id);
    status.textContent = `${id}: ${errorText(err)}`;
  }
}

// The server's games by its director key; one listed before and gone from the list (ended) asked by its id.
async function refreshListed() {
  const key = serverKey();
  if (!key) return;
  try {
    const query = TOURNAMENT ? `?tournament_id=${encodeURIComponent(TOURNAMENT)}` : "";
    const answer = await callApi("GET", `/v1/games${query}`, undefined, key);
    const at = performance.now(), fresh = new Set();
    for (const state of answer.games || []) {
      fresh.add(state.gameId);
      listed.add(state.gameId);
      remember(state.gameId, state, at);
    }
    $("keyStatus").textContent = "";
    await Promise.all([...listed].filter(id => !fresh.has(id)).map(id => fetchGame(id, key, $("keyStatus"))));
  } catch (err) {
    $("keyStatus").textContent = errorText(err);
    if (!err.offline && err.status !== "UNAVAILABLE") forgetKey();  // a wrong key, or none on this server
  }
}

function forgetKey() {
  sessionStorage.removeItem(KEY_STORE);
  for (const id of listed) if (!held().some(g => g.id === id)) states.delete(id);
  listed.clear();
}

async function refresh() {
  await Promise.all([refreshListed(), ...held().filter(g => !listed.has(g.id))
    .map(g => fetchGame(g.id, g.token, $("addStatus")))]);
  render();
  document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
}

function openGame(id) {
  opened = id;
  $("panelNote").textContent = "";
  render();
  loadEvents(id);
  $("panel").scrollIntoView({ block: "nearest" });
}

function renderPanel() {
  const entry = opened && states.get(opened);
  $("panel").hidden = !entry;
  if (!entry) return;
  const g = entry.state, select = $("adjustPlayer"), chosen = select.value;
  $("panelTitle").textContent = `${t("gameId")} ${opened}: ${g.players.map(p => `${p.name} ${p.score || 0}`).join(" – ")}`;
  $("panelState").textContent = statusText(g);
  if (select.options.length !== g.players.length) {
    select.replaceChildren(...g.players.map((p, i) => new Option(p.name, i)));
    if (chosen) select.value = chosen;
  }
  for (const form of ["adjustForm", "undoForm", "endForm"]) {
    for (const el of $(form).elements) el.disabled = g.status === "GAME_STATUS_ENDED" && form !== "adjustForm";
  }
}

// The game's events as the director's event stream gives them (the history), said in words.
async function loadEvents(id) {
  const token = tokenOf(id);
  try {
    const response = await fetch(`/v1/games/${encodeURIComponent(id)}/events`, {
      headers: { Accept: "text/event-stream", "X-Game-Token": token }, cache: "no-store", signal: AbortSignal.timeout(1500),
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let text = "";
    const stop = setTimeout(() => reader.cancel().catch(() => {}), 600);  // the history comes at once
    try { for (;;) { const { value, done } = await reader.read(); if (done) break; text += value; } } catch (err) { /* cut */ }
    clearTimeout(stop);
    const events = text.split("\n").filter(l => l.startsWith("data:")).map(l => JSON.parse(l.slice(5)));
    if (opened !== id) return;
    $("events").replaceChildren(...events.reverse().map(ev => {
      const li = document.createElement("li");
      li.textContent = eventText(ev, -1) || `${ev.playerName || ""} ${ev.move || ""}`.trim();
      return li;
    }).filter(li => li.textContent));
  } catch (err) { /* the list stays as it was */ }
}

async function directorAction(kind, body) {
  const id = opened;
  if (!id) return;
  const note = $("panelNote");
  try {
    await callApi("POST", `/v1/games/${encodeURIComponent(id)}:${kind}`, body, tokenOf(id));
    note.className = "done";
    note.textContent = t("directorDone");
  } catch (err) {
    note.className = "problem";
    note.textContent = errorText(err);
    return;
  }
  await refresh();
  loadEvents(id);
}

function setup() {
  $("keyForm").addEventListener("submit", e => {
    e.preventDefault();
    sessionStorage.setItem(KEY_STORE, $("serverKey").value.trim());
    $("serverKey").value = "";
    refresh();
  });
  $("keyForget").addEventListener("click", () => { forgetKey(); $("keyStatus").textContent = ""; render(); });
  $("addGame").addEventListener("submit", e => {
    e.preventDefault();
    const id = $("addId").value.trim(), token = $("addToken").value.trim();
    const all = JSON.parse(localStorage.getItem(STORE) || "[]").filter(g => g.id !== id);
    keep([...all, { id, token }]);
    $("addId").value = ""; $("addToken").value = "";
    refresh();
  });
  $("adjustForm").addEventListener("submit", e => {
    e.preventDefault();
    directorAction("adjustScore", { player: Number($("adjustPlayer").value), delta: Number($("adjustDelta").value), reason: $("adjustReason").value });
  });
  $("undoForm").addEventListener("submit", e => { e.preventDefault(); directorAction("undo", { reason: $("undoReason").value }); });
  $("endForm").addEventListener("submit", e => {
    e.preventDefault();
    const scoring = new FormData($("endForm")).get("scoring") === "racks-deducted" ? "END_SCORING_RACKS_DEDUCTED" : "END_SCORING_AS_PLAYED";
    directorAction("end", { reason: $("endReason").value, scoring });
  });
}

(function start() {
  setupLanguageSwitch(render);
  setup();
  refresh();
  setInterval(refresh, 2000);
  document.body.dataset.ready = "1";
})();
