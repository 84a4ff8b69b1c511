// A tournament's standings and its current round's tables with live scores, for a venue's screen:
// /t/<tournament id>, read again every REFRESH_S seconds (GET /v1/tournaments/{id}); each game one click away.
"use strict";
const $ = id => document.getElementById(id);
const REFRESH_S = 5;
const tournamentId = decodeURIComponent(location.pathname.split("/").pop());
let last = null;

function cell(row, text, className, tag) {
  const el = document.createElement(tag || "td");
  el.textContent = text;
  if (className) el.className = className;
  row.append(el);
  return el;
}

function headRow(table, keys) {
  const row = table.createTHead().insertRow();
  for (const [key, className] of keys) cell(row, t(key), className, "th");
}

function standingsTable(division) {
  const table = document.createElement("table");
  const rated = division.standings.some(s => s.ratingAfter !== undefined);
  headRow(table, [["tourRank", "num"], ["tourName"], ["tourWins", "num"], ["tourLosses", "num"], ["tourSpread", "num"],
                  ...(rated ? [["tourRatingAfter", "num"]] : [])]);
  const body = table.createTBody();
  for (const s of division.standings) {
    const row = body.insertRow();
    cell(row, s.rank, "num");
    cell(row, s.name);
    cell(row, s.wins || 0, "num");
    cell(row, s.losses || 0, "num");
    cell(row, (s.spread > 0 ? "+" : "") + (s.spread || 0), "num");
    if (rated) cell(row, s.ratingAfter ?? "", "num");
  }
  return table;
}

function scoreText(g) {
  if (!g.player2) return t("tourBye") + (g.score1 !== undefined ? ` (${g.score1 > 0 ? "+" : ""}${g.score1})` : "");
  if (g.score1 !== undefined) return `${g.score1} : ${g.score2}`;
  if (g.liveScore1 !== undefined || g.liveScore2 !== undefined) return `${g.liveScore1 || 0} : ${g.liveScore2 || 0}`;
  return "—";
}

function tablesTable(games) {
  const table = document.createElement("table");
  headRow(table, [["tourTable", "num"], ["tourPlayer1"], ["score", "score"], ["tourPlayer2"], ["tourGame"]]);
  const body = table.createTBody();
  for (const g of games) {
    const row = body.insertRow();
    if (g.status === "playing") row.className = "live";
    cell(row, g.player2 ? g.table : "", "num");
    cell(row, g.player1);
    cell(row, scoreText(g), "score");
    cell(row, g.player2 || "");
    const link = cell(row, "");
    if (g.gameId) {
      const a = document.createElement("a");
      a.href = "/games?game=" + encodeURIComponent(g.gameId);
      a.textContent = t(g.status === "playing" ? "tourWatch" : "tourRecord");
      link.append(a);
    } else {
      link.textContent = g.player2 ? t("tourNotStarted") : "";
    }
  }
  return table;
}

function render() {
  if (!last) return;
  document.title = last.name;
  $("title").textContent = last.name;
  document.querySelector("header h1").textContent = last.name;
  const standings = $("standings");
  standings.innerHTML = "";
  const tables = $("tables");
  tables.innerHTML = "";
  const many = last.divisions.length > 1;
  let current = 0;
  for (const division of last.divisions) {
    if (many) cell(standings, t("tourDivision", { name: division.name }), "", "h3");
    standings.append(standingsTable(division));
    const rnd = division.roundsPaired || 0;
    current = Math.max(current, rnd);
    const games = (last.games || []).filter(g => g.division === division.name && g.round === rnd);
    if (many && games.length) cell(tables, t("tourDivision", { name: division.name }), "", "h3");
    if (games.length) tables.append(tablesTable(games));
  }
  $("round-h").textContent = current ? t("tourRoundOf", { n: current, of: last.rounds }) : t("tourNotPaired");
  $("status").className = "status";
  $("status").textContent = t("tourLiveEvery", { s: REFRESH_S });
  document.body.dataset.version = last.version || 0;
}

async function refresh() {
  try {
    last = await callApi("GET", "/v1/tournaments/" + encodeURIComponent(tournamentId));
    render();
  } catch (err) {
    $("status").className = "status error";
    $("status").textContent = errorText(err);
  }
  document.body.dataset.ready = "1";
}

setupLanguageSwitch(render);
refresh();
setInterval(refresh, REFRESH_S * 1000);
