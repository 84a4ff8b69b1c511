// The word judge: choose the lexicon once, type the words of a play, Enter: one verdict for the whole
// play (CheckWords with verdict_only: the server never says which word failed, so neither can the page).
"use strict";
const CLEAR_AFTER_S = Number(new URLSearchParams(location.search).get("clear")) || 6;  // ?clear=N: seconds
const els = {
  choose: document.getElementById("choose"), lexicon: document.getElementById("lexicon"),
  words: document.getElementById("words"), verdict: document.getElementById("verdict"),
  status: document.getElementById("status"), inuse: document.getElementById("inuse"),
  footer: document.querySelector("footer"),
};
let lexicons = [];
let chosen = null;  // {name, language}
let clearTimer = null;
let seq = 0;
window.judgeTimings = [];  // [{sent, shown}] in performance.now() ms, read by the browser tests

function showChosen() {
  els.inuse.textContent = chosen ? t("lexicon") + ": " + chosen.name : "";
}

function choose(name) {
  chosen = lexicons.find(l => l.name === name) || null;
  if (!chosen) return;
  localStorage.setItem("judge.lexicon", chosen.name);
  els.choose.hidden = true;
  showChosen();
  els.words.disabled = false;
  els.words.focus();
}

function askForLexicon() {
  els.choose.hidden = false;
  els.words.disabled = true;
  els.lexicon.focus();
}

function clearAll() {
  clearTimeout(clearTimer);
  els.verdict.textContent = "";
  els.verdict.className = "verdict";
  els.words.value = "";
  els.status.textContent = "";
  els.status.className = "status";
}

function fit(text) {
  const byWidth = (window.innerWidth * 0.92) / (Math.max(text.length, 6) * 0.82);
  return Math.max(24, Math.min(byWidth, window.innerHeight * 0.3)) + "px";
}

function showVerdict(acceptable) {
  const words = VERDICTS[chosen.language] || VERDICTS.en;
  const text = acceptable ? words[0] : words[1];
  els.verdict.className = "verdict " + (acceptable ? "ok" : "bad");
  els.verdict.style.fontSize = fit(text + "  ");
  els.verdict.innerHTML = "";
  const mark = document.createElement("span");
  mark.className = "mark";
  mark.setAttribute("aria-hidden", "true");
  mark.textContent = acceptable ? "✓" : "✗";
  els.verdict.append(mark, text);
  clearTimeout(clearTimer);
  clearTimer = setTimeout(clearAll, CLEAR_AFTER_S * 1000);
}

async function judge() {
  const words = els.words.value.split(/[\s,;]+/).filter(Boolean);
  if (!words.length || !chosen) return;
  const mine = ++seq;
  const sent = performance.now();
  els.status.textContent = "";
  els.status.className = "status";
  try {
    const answer = await callApi("POST", "/v1/lexicons/" + encodeURIComponent(chosen.name) + ":check",
                                 { words, verdictOnly: true });
    if (mine !== seq) return;
    showVerdict(answer.acceptable === true);
    window.judgeTimings.push({ sent, shown: performance.now() });
  } catch (err) {
    if (mine !== seq) return;
    els.verdict.textContent = "";
    els.verdict.className = "verdict";
    els.status.className = "status error";
    els.status.textContent = errorText(err);
  }
}

els.words.addEventListener("keydown", e => {
  if (e.key === "Enter") { e.preventDefault(); judge(); }
  else if (e.key === "Escape") { e.preventDefault(); clearAll(); }
});
els.words.addEventListener("input", () => {  // typing the next play removes the last verdict at once
  if (els.verdict.textContent) { clearTimeout(clearTimer); els.verdict.textContent = ""; els.verdict.className = "verdict"; }
});
els.lexicon.addEventListener("keydown", e => {
  if (e.key === "Enter") { e.preventDefault(); choose(els.lexicon.value); }
});
els.lexicon.addEventListener("change", () => { if (!els.choose.hidden && document.activeElement !== els.lexicon) choose(els.lexicon.value); });
document.addEventListener("keydown", e => {
  if (e.key === "F2") { e.preventDefault(); clearAll(); askForLexicon(); }
});

function relabel() {
  els.footer._i18nVars = { s: CLEAR_AFTER_S };
  applyLanguage();
  showChosen();
}

(async function start() {
  setupLanguageSwitch(relabel);
  relabel();
  const remembered = new URLSearchParams(location.search).get("lexicon") || localStorage.getItem("judge.lexicon");
  try {
    lexicons = await loadLexicons(els.lexicon, remembered);
  } catch (err) {
    els.status.className = "status error";
    els.status.textContent = errorText(err);
    return;
  }
  if (!lexicons.length) { els.status.textContent = t("noLexicons"); return; }
  if (remembered && lexicons.some(l => l.name === remembered)) choose(remembered);
  else askForLexicon();
  document.body.dataset.ready = "1";
  window.judgeReadyAt = performance.now();
  registerServiceWorker();
})();
