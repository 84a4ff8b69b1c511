// Shared by the pages: translations (cs, pl, en), the language choice, the API call, the lexicon list.
"use strict";

const STRINGS = {
  en: {
    judge: "Word judge", lookup: "Lookup", games: "Game viewer", language: "Language", lexicon: "Lexicon",
    chooseLexicon: "Choose the lexicon, then press Enter", wordsLabel: "Words of the play",
    wordsPlaceholder: "type the words, then Enter",
    judgeHelp: "Enter: judge · Esc: clear · F2: change the lexicon · the verdict clears itself after {s} s",
    offline: "No connection to the server: a verdict needs the server. This page works offline, the verdicts do not.",
    error: "Error", loading: "Loading…", token: "Token", noLexicons: "The server serves no lexicon",
    word: "Word", explain: "Explain", search: "Search", anagram: "Anagram (? = blank)", pattern: "Pattern (? one tile, * any run)",
    prefix: "Prefix", form: "Form", headword: "Headword", tag: "Tag", rule: "Rule", origin: "Origin", guessedFrom: "guessed from {model}", fromOrigin: "from {origin}", tiles: "Tiles", noReadings: "No reading: the word is not in the lexicon.",
    found: "{n} words", truncated: "(cut at the limit)", length: "Length", play: "From the rack",
    lookupHelp: "Alt+W: word · Alt+S: search · Enter: run",
    gcg: "GCG record", openFile: "Open a GCG file", replay: "Show the game", fromRules: "(no lexicon: the record's #rules)",
    gamesHelp: "Ctrl+Enter: show · ←/→: step · Home/End: first/last move · S: save SVG · P: save PNG",
    liveGame: "Live game", gameId: "Game id", gameToken: "Game token (optional)", follow: "Follow",
    following: "Following game {id}", liveEnded: "The game's event stream has ended.",
    scoresSoFar: "Scores so far", kindAdjustment: "director adjustment", onTurn: "on turn", bagCount: "Bag: {n} tiles",
    lastMove: "Last move", gameOver: "Game over", awaitingFinalPass: "Out: awaiting the final pass or a challenge",
    move: "Move", player: "Player", position: "Square", score: "Score", total: "Total", recorded: "Recorded", bestPlay: "Best play", givenAway: "points given away",
    computed: "Computed", problems: "Problems", notes: "Notes", start: "Start of the game", prev: "◀ Previous", next: "Next ▶",
    saveSvg: "Save SVG", savePng: "Save PNG", letters: "Letters", multiplier: "×", subtotal: "Subtotal", bingo: "Bingo bonus",
    finalScores: "Final scores", allOk: "Every line agrees with the rules.", someBad: "Some lines disagree with the rules.",
    blank: "blank", kindPlay: "play", kindExchange: "exchange", kindPass: "pass", kindWithdrawn: "withdrawn",
    kindChallenge: "challenge bonus", kindTime: "time penalty", "kindEnd-rack": "end rack",
  },
  cs: {
    judge: "Rozhodčí", lookup: "Vyhledávání", games: "Prohlížeč partií", language: "Jazyk", lexicon: "Slovník",
    chooseLexicon: "Vyberte slovník a stiskněte Enter", wordsLabel: "Slova tahu",
    wordsPlaceholder: "napište slova a stiskněte Enter",
    judgeHelp: "Enter: posoudit · Esc: smazat · F2: změnit slovník · verdikt zmizí po {s} s",
    offline: "Bez spojení se serverem: verdikt potřebuje server. Stránka funguje offline, verdikty ne.",
    error: "Chyba", loading: "Načítám…", token: "Token", noLexicons: "Server nemá žádný slovník",
    word: "Slovo", explain: "Vysvětlit", search: "Hledat", anagram: "Přesmyčka (? = žolík)", pattern: "Vzor (? jedno písmeno, * cokoli)",
    prefix: "Začátek slova", form: "Tvar", headword: "Heslo", tag: "Značka", rule: "Pravidlo", origin: "Původ", guessedFrom: "odhadnuto podle {model}", fromOrigin: "z {origin}", tiles: "Kameny", noReadings: "Žádné čtení: slovo ve slovníku není.",
    found: "{n} slov", truncated: "(zkráceno na limit)", length: "Délka", play: "Ze stojanu",
    lookupHelp: "Alt+W: slovo · Alt+S: hledání · Enter: spustit",
    gcg: "Záznam GCG", openFile: "Otevřít soubor GCG", replay: "Zobrazit partii", fromRules: "(bez slovníku: #rules záznamu)",
    gamesHelp: "Ctrl+Enter: zobrazit · ←/→: tahy · Home/End: první/poslední tah · S: uložit SVG · P: uložit PNG",
    liveGame: "Živá partie", gameId: "Číslo partie", gameToken: "Token partie (nepovinný)", follow: "Sledovat",
    following: "Sleduji partii {id}", liveEnded: "Přenos událostí partie skončil.",
    scoresSoFar: "Průběžné skóre", kindAdjustment: "úprava rozhodčím", onTurn: "na tahu", bagCount: "V sáčku: {n} kamenů",
    lastMove: "Poslední tah", gameOver: "Konec partie", awaitingFinalPass: "Hráč dohrál: čeká se na poslední pas nebo námitku",
    move: "Tah", player: "Hráč", position: "Pole", score: "Body", total: "Celkem", recorded: "Zapsáno", bestPlay: "Nejlepší tah", givenAway: "ztracených bodů",
    computed: "Spočteno", problems: "Nesrovnalosti", notes: "Poznámky", start: "Začátek partie", prev: "◀ Předchozí", next: "Další ▶",
    saveSvg: "Uložit SVG", savePng: "Uložit PNG", letters: "Písmena", multiplier: "×", subtotal: "Mezisoučet", bingo: "Prémie za všechny kameny",
    finalScores: "Konečné skóre", allOk: "Všechny řádky odpovídají pravidlům.", someBad: "Některé řádky neodpovídají pravidlům.",
    blank: "žolík", kindPlay: "tah", kindExchange: "výměna", kindPass: "pas", kindWithdrawn: "vzato zpět",
    kindChallenge: "bonus za námitku", kindTime: "penalizace za čas", "kindEnd-rack": "zbylé kameny",
  },
  pl: {
    judge: "Sędzia", lookup: "Wyszukiwanie", games: "Przeglądarka partii", language: "Język", lexicon: "Słownik",
    chooseLexicon: "Wybierz słownik i naciśnij Enter", wordsLabel: "Słowa ruchu",
    wordsPlaceholder: "wpisz słowa i naciśnij Enter",
    judgeHelp: "Enter: sprawdź · Esc: wyczyść · F2: zmień słownik · werdykt znika po {s} s",
    offline: "Brak połączenia z serwerem: werdykt wymaga serwera. Strona działa offline, werdykty nie.",
    error: "Błąd", loading: "Wczytywanie…", token: "Token", noLexicons: "Serwer nie ma żadnego słownika",
    word: "Słowo", explain: "Wyjaśnij", search: "Szukaj", anagram: "Anagram (? = blank)", pattern: "Wzorzec (? jedna płytka, * dowolny ciąg)",
    prefix: "Początek słowa", form: "Forma", headword: "Hasło", tag: "Znacznik", rule: "Reguła", origin: "Pochodzenie", guessedFrom: "odgadnięte według {model}", fromOrigin: "z {origin}", tiles: "Płytki", noReadings: "Brak odczytów: słowa nie ma w słowniku.",
    found: "{n} słów", truncated: "(obcięte do limitu)", length: "Długość", play: "Ze stojaka",
    lookupHelp: "Alt+W: słowo · Alt+S: wyszukiwanie · Enter: uruchom",
    gcg: "Zapis GCG", openFile: "Otwórz plik GCG", replay: "Pokaż partię", fromRules: "(bez słownika: #rules zapisu)",
    gamesHelp: "Ctrl+Enter: pokaż · ←/→: ruchy · Home/End: pierwszy/ostatni ruch · S: zapisz SVG · P: zapisz PNG",
    liveGame: "Gra na żywo", gameId: "Identyfikator gry", gameToken: "Token gry (opcjonalny)", follow: "Śledź",
    following: "Śledzę grę {id}", liveEnded: "Strumień zdarzeń gry się zakończył.",
    scoresSoFar: "Wyniki bieżące", kindAdjustment: "korekta sędziego", onTurn: "na ruchu", bagCount: "W worku: {n} płytek",
    lastMove: "Ostatni ruch", gameOver: "Koniec gry", awaitingFinalPass: "Gracz wyszedł: czekamy na ostatnie pasowanie lub sprawdzenie",
    move: "Ruch", player: "Gracz", position: "Pole", score: "Punkty", total: "Suma", recorded: "Zapisane", bestPlay: "Najlepszy ruch", givenAway: "straconych punktów",
    computed: "Obliczone", problems: "Niezgodności", notes: "Uwagi", start: "Początek partii", prev: "◀ Poprzedni", next: "Następny ▶",
    saveSvg: "Zapisz SVG", savePng: "Zapisz PNG", letters: "Litery", multiplier: "×", subtotal: "Suma częściowa", bingo: "Premia za wszystkie płytki",
    finalScores: "Wyniki końcowe", allOk: "Każdy wiersz zgadza się z regułami.", someBad: "Niektóre wiersze nie zgadzają się z regułami.",
    blank: "blank", kindPlay: "ruch", kindExchange: "wymiana", kindPass: "pas", kindWithdrawn: "cofnięty",
    kindChallenge: "premia za sprawdzenie", kindTime: "kara za czas", "kindEnd-rack": "płytki na koniec",
  },
};

// The verdict is in the game's language (the lexicon's), whatever the page's language.
const VERDICTS = {
  cs: ["PLATNÉ", "NEPLATNÉ"],
  pl: ["DOPUSZCZALNE", "NIEDOPUSZCZALNE"],
  en: ["ACCEPTABLE", "NOT ACCEPTABLE"],
};

function pickLanguage() {
  const asked = new URLSearchParams(location.search).get("lang") || localStorage.getItem("lang");
  if (asked && STRINGS[asked]) return asked;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (STRINGS[base]) return base;
  }
  return "en";
}

let LANG = pickLanguage();

function t(key, vars) {
  let text = (STRINGS[LANG] && STRINGS[LANG][key]) || STRINGS.en[key] || key;
  for (const [k, v] of Object.entries(vars || {})) text = text.replace("{" + k + "}", v);
  return text;
}

function applyLanguage(root) {
  document.documentElement.lang = LANG;
  for (const el of (root || document).querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n, el._i18nVars);
  for (const el of (root || document).querySelectorAll("[data-i18n-placeholder]")) el.placeholder = t(el.dataset.i18nPlaceholder);
  for (const el of (root || document).querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
}

// A <select id="lang"> in the header switches the language (remembered).
function setupLanguageSwitch(onChange) {
  const select = document.getElementById("lang");
  select.innerHTML = "";
  for (const [code, name] of [["cs", "čeština"], ["pl", "polski"], ["en", "English"]]) {
    select.add(new Option(name, code, false, code === LANG));
  }
  select.addEventListener("change", () => {
    LANG = select.value;
    localStorage.setItem("lang", LANG);
    applyLanguage();
    if (onChange) onChange();
  });
  applyLanguage();
}

// The JSON API. A token (when the server requires one) is kept in localStorage "token"; ?token=... sets it.
(function takeTokenFromUrl() {
  const params = new URLSearchParams(location.search);
  if (params.has("token")) {
    localStorage.setItem("token", params.get("token"));
    params.delete("token");
    history.replaceState(null, "", location.pathname + (params.toString() ? "?" + params : ""));
  }
})();

class ApiError extends Error {
  constructor(status, message, offline) { super(message); this.status = status; this.offline = !!offline; }
}

async function callApi(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  const token = localStorage.getItem("token");
  if (token) headers.Authorization = "Bearer " + token;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
  } catch (err) {
    throw new ApiError("OFFLINE", t("offline"), true);
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const e = data.error || {};
    throw new ApiError(e.status || response.status, (e.status ? e.status + ": " : "") + (e.message || response.statusText));
  }
  return data;
}

// The lexicon list (kept for offline use); fills a <select>, preselecting the remembered one.
async function loadLexicons(select, remembered) {
  let lexicons;
  try {
    lexicons = (await callApi("GET", "/v1/lexicons")).lexicons || [];
    localStorage.setItem("lexicons", JSON.stringify(lexicons.map(l => ({ name: l.name, language: l.language, ruleSet: l.ruleSet }))));
  } catch (err) {
    lexicons = JSON.parse(localStorage.getItem("lexicons") || "[]");
    if (!lexicons.length) throw err;
  }
  select.innerHTML = "";
  for (const l of lexicons) select.add(new Option(l.name, l.name, false, l.name === remembered));
  return lexicons;
}

function registerServiceWorker() {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
}
