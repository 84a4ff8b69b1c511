// Lookup for directors: a word's verdict with its readings (ExplainWord), and FindWords searches.
"use strict";
const $ = id => document.getElementById(id);
let lexicons = [];
const lexicon = () => lexicons.find(l => l.name === $("lexicon").value) || { name: $("lexicon").value, language: "en" };

function fail(where, err) {
  where.className = "status error";
  where.textContent = errorText(err);
}

function cell(row, text, tag) {
  const el = document.createElement(tag || "td");
  el.textContent = text;
  row.append(el);
}

// Where a reading came from, as `lexicon-service explain` says it: "guessed from <model lemma>" for a
// headword inflected by analogy, else "from <origin>" (SGJP, Hunspell affix form, word list, ...).
function originOf(r) {
  if (r.model) return t("guessedFrom", { model: r.model });
  return r.origin ? t("fromOrigin", { origin: originText(r.origin) }) : "";
}

async function explain() {
  const word = $("word").value.trim();
  if (!word) return;
  const out = $("explanation");
  $("status").textContent = "";
  try {
    const answer = await callApi("GET", "/v1/lexicons/" + encodeURIComponent(lexicon().name) + "/words/" +
                                 encodeURIComponent(word) + ":explain");
    const ok = answer.result.valid;
    const words = VERDICTS[LANG] || VERDICTS.en;  // the page's language, whatever the lexicon's
    $("verdict").className = "verdict " + (ok ? "ok" : "bad");
    $("verdict").textContent = (ok ? "✓ " : "✗ ") + (ok ? words[0] : words[1]);
    out.innerHTML = "";
    const p = document.createElement("p");
    p.innerHTML = "";
    p.append(t("tiles") + ": ");
    const tiles = document.createElement("span");
    tiles.className = "tiles";
    tiles.textContent = (answer.result.tiles || []).join(" · ") || "—";
    p.append(tiles);
    if (answer.result.message) {
      p.append(" (" + serverNoteText({ code: answer.messageCode, values: answer.messageValues, text: answer.result.message }) + ")");
    }
    out.append(p);
    if (!answer.readings.length) {
      const none = document.createElement("p");
      none.textContent = t("noReadings");
      out.append(none);
      // why the build left it out, when a rule of the profile said so (ExplainWord's refusals)
      for (const r of answer.refusals || []) {
        const why = document.createElement("p");
        why.className = "refusal";
        why.textContent = t("refusedBy", { rule: ruleText(r.rule), headword: r.headword });
        if (r.detail) {  // how the headword got the refused tag, a sentence of its own
          const detail = refusalDetailText(r.detail);
          why.append(" ", Object.assign(document.createElement("span"), {
            className: "detail", textContent: detail.charAt(0).toUpperCase() + detail.slice(1) + ".",
          }));
        }
        out.append(why);
      }
      return;
    }
    const table = document.createElement("table");
    const head = table.insertRow();
    for (const key of ["form", "headword", "tag", "rule", "origin"]) cell(head, t(key), "th");
    for (const r of answer.readings) {
      const row = table.insertRow();
      for (const v of [r.form, r.headword, r.tag && tagText(r.tag), r.rule && ruleText(r.rule), originOf(r)]) cell(row, v || "—");
    }
    out.append(table);
  } catch (err) {
    $("verdict").textContent = "";
    out.innerHTML = "";
    fail($("status"), err);
  }
}

async function search() {
  const text = $("query").value.trim();
  if (!text) return;
  const mode = $("mode").value;
  const list = $("found");
  const status = $("found-status");
  status.className = "status";
  status.textContent = t("loading");
  try {
    const params = new URLSearchParams({ [mode]: text, limit: "200" });
    const answer = await callApi("GET", "/v1/lexicons/" + encodeURIComponent(lexicon().name) + "/words?" + params);
    list.innerHTML = "";
    for (const w of answer.words) {
      const li = document.createElement("li");
      li.textContent = w.word + (w.play && w.play !== w.word ? "  (" + w.play + ")" : "");
      list.append(li);
    }
    status.textContent = t("found", { n: answer.words.length }) + (answer.truncated ? " " + t("truncated") : "");
  } catch (err) {
    list.innerHTML = "";
    fail(status, err);
  }
}

$("explain-form").addEventListener("submit", e => { e.preventDefault(); explain(); });
$("search-form").addEventListener("submit", e => { e.preventDefault(); search(); });
$("lexicon").addEventListener("change", () => localStorage.setItem("lookup.lexicon", $("lexicon").value));

(async function start() {
  setupLanguageSwitch();
  try {
    lexicons = await loadLexicons($("lexicon"), localStorage.getItem("lookup.lexicon") || localStorage.getItem("judge.lexicon"));
  } catch (err) {
    fail($("status"), err);
  }
  $("word").focus();
  document.body.dataset.ready = "1";
  registerServiceWorker();
})();
