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
    prefix: "Prefix", form: "Form", headword: "Headword", tag: "Tag", rule: "Rule", origin: "Origin", guessedFrom: "guessed from {model}", fromOrigin: "from {origin}", tiles: "Tiles", noReadings: "No reading: the word is not in the lexicon.", refusedBy: "Refused when the lexicon was built: rule {rule} (headword {headword}).",
    found: "{n} words", truncated: "(cut at the limit)", length: "Length", play: "From the rack",
    lookupHelp: "Alt+W: word · Alt+S: search · Enter: run",
    gcg: "GCG record", openFile: "Open a GCG file", replay: "Show the game", fromRules: "(no lexicon: the record's #rules)", ruleSet: "Rule set", end2x: "The player who went out scores twice the others' racks (PFS)",
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
    vsComputer: "Play against the computer", level: "Level", levelBest: "strong (the best play)", levelClub: "club player",
    levelBeginner: "beginner", yourName: "Your name", defaultName: "Player", computerName: "Computer", startGame: "Start the game",
    yourRack: "Your rack", yourPlay: "Your play (8H WORD)", playMove: "Play", exchangeTiles: "Tiles to exchange",
    exchangeMove: "Exchange", passMove: "Pass", challengeMove: "Challenge", yourTurn: "Your turn",
    computerThinking: "The computer is thinking…", correcting: "Your play was challenged off: correct it (one try) or pass",
    challengedOff: "Challenged: {words} not in the lexicon; the play was withdrawn", playStood: "Challenged: the play stands",
    noComputerLexicon: "No lexicon of this rule set",
    levelEquity: "strongest (score and the tiles kept)",
    equityUnavailable: "The strongest level needs the lexicon's leave table (lexicon-build --leaves), which this lexicon does not have",
    kindChallenge: "challenge bonus", kindTime: "time penalty", "kindEnd-rack": "end rack",
    tournament: "Tournament", standings: "Standings", rank: "Rank", name: "Name", wins: "Wins", losses: "Losses",
    spread: "Spread", ratingAfter: "Rating after", table: "Table", player1: "Player", player2: "Opponent",
    game: "Game", bye: "bye", watch: "watch", record: "record", notStarted: "not started",
    division: "Division {name}", roundOf: "Round {n} of {of}", notPaired: "No round paired yet",
    liveEvery: "Live: updated every {s} s",
  },
  cs: {
    judge: "Rozhodčí", lookup: "Vyhledávání", games: "Prohlížeč partií", language: "Jazyk", lexicon: "Slovník",
    chooseLexicon: "Vyberte slovník a stiskněte Enter", wordsLabel: "Slova tahu",
    wordsPlaceholder: "napište slova a stiskněte Enter",
    judgeHelp: "Enter: posoudit · Esc: smazat · F2: změnit slovník · verdikt zmizí po {s} s",
    offline: "Bez spojení se serverem: verdikt potřebuje server. Stránka funguje offline, verdikty ne.",
    error: "Chyba", loading: "Načítám…", token: "Token", noLexicons: "Server nemá žádný slovník",
    word: "Slovo", explain: "Vysvětlit", search: "Hledat", anagram: "Přesmyčka (? = žolík)", pattern: "Vzor (? jedno písmeno, * cokoli)",
    prefix: "Začátek slova", form: "Tvar", headword: "Heslo", tag: "Značka", rule: "Pravidlo", origin: "Původ", guessedFrom: "odhadnuto podle {model}", fromOrigin: "z {origin}", tiles: "Kameny", noReadings: "Žádné čtení: slovo ve slovníku není.", refusedBy: "Vyřazeno při sestavení slovníku: pravidlo {rule} (heslo {headword}).",
    found: "{n} slov", truncated: "(zkráceno na limit)", length: "Délka", play: "Ze stojanu",
    lookupHelp: "Alt+W: slovo · Alt+S: hledání · Enter: spustit",
    gcg: "Záznam GCG", openFile: "Otevřít soubor GCG", replay: "Zobrazit partii", fromRules: "(bez slovníku: #rules záznamu)", ruleSet: "Pravidla", end2x: "Kdo dohraje, získá dvojnásobek kamenů soupeřů (PFS)",
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
    vsComputer: "Hra proti počítači", level: "Úroveň", levelBest: "silná (nejlepší tah)", levelClub: "klubový hráč",
    levelBeginner: "začátečník", yourName: "Vaše jméno", defaultName: "Hráč", computerName: "Počítač", startGame: "Začít hru",
    yourRack: "Váš stojan", yourPlay: "Váš tah (8H SLOVO)", playMove: "Zahrát", exchangeTiles: "Kameny k výměně",
    exchangeMove: "Vyměnit", passMove: "Pas", challengeMove: "Napadnout", yourTurn: "Jste na tahu",
    computerThinking: "Počítač přemýšlí…", correcting: "Váš tah byl napaden: opravte ho (jeden pokus), nebo pasujte",
    challengedOff: "Námitka: {words} ve slovníku není; tah byl vzat zpět", playStood: "Námitka: tah platí",
    noComputerLexicon: "Žádný slovník těchto pravidel",
    levelEquity: "nejsilnější (body i ponechané kameny)",
    equityUnavailable: "Nejsilnější úroveň potřebuje tabulku hodnot zbylých kamenů (lexicon-build --leaves) a tento slovník ji nemá",
    kindChallenge: "bonus za námitku", kindTime: "penalizace za čas", "kindEnd-rack": "zbylé kameny",
    tournament: "Turnaj", standings: "Pořadí", rank: "Pořadí", name: "Jméno", wins: "Výhry", losses: "Prohry",
    spread: "Rozdíl skóre", ratingAfter: "Rating po turnaji", table: "Stůl", player1: "Hráč", player2: "Soupeř",
    game: "Partie", bye: "volno", watch: "sledovat", record: "záznam", notStarted: "nezačala",
    division: "Skupina {name}", roundOf: "Kolo {n} z {of}", notPaired: "Zatím není nalosováno žádné kolo",
    liveEvery: "Živě: obnova každých {s} s",
  },
  pl: {
    judge: "Sędzia", lookup: "Wyszukiwanie", games: "Przeglądarka partii", language: "Język", lexicon: "Słownik",
    chooseLexicon: "Wybierz słownik i naciśnij Enter", wordsLabel: "Słowa ruchu",
    wordsPlaceholder: "wpisz słowa i naciśnij Enter",
    judgeHelp: "Enter: sprawdź · Esc: wyczyść · F2: zmień słownik · werdykt znika po {s} s",
    offline: "Brak połączenia z serwerem: werdykt wymaga serwera. Strona działa offline, werdykty nie.",
    error: "Błąd", loading: "Wczytywanie…", token: "Token", noLexicons: "Serwer nie ma żadnego słownika",
    word: "Słowo", explain: "Wyjaśnij", search: "Szukaj", anagram: "Anagram (? = blank)", pattern: "Wzorzec (? jedna płytka, * dowolny ciąg)",
    prefix: "Początek słowa", form: "Forma", headword: "Hasło", tag: "Znacznik", rule: "Reguła", origin: "Pochodzenie", guessedFrom: "odgadnięte według {model}", fromOrigin: "z {origin}", tiles: "Płytki", noReadings: "Brak odczytów: słowa nie ma w słowniku.", refusedBy: "Odrzucone przy budowaniu słownika: reguła {rule} (hasło {headword}).",
    found: "{n} słów", truncated: "(obcięte do limitu)", length: "Długość", play: "Ze stojaka",
    lookupHelp: "Alt+W: słowo · Alt+S: wyszukiwanie · Enter: uruchom",
    gcg: "Zapis GCG", openFile: "Otwórz plik GCG", replay: "Pokaż partię", fromRules: "(bez słownika: #rules zapisu)", ruleSet: "Zasady", end2x: "Kończący dostaje podwójną wartość płytek przeciwników (PFS)",
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
    vsComputer: "Gra z komputerem", level: "Poziom", levelBest: "silny (najlepszy ruch)", levelClub: "gracz klubowy",
    levelBeginner: "początkujący", yourName: "Twoje imię", defaultName: "Gracz", computerName: "Komputer", startGame: "Rozpocznij grę",
    yourRack: "Twój stojak", yourPlay: "Twój ruch (8H SŁOWO)", playMove: "Zagraj", exchangeTiles: "Płytki do wymiany",
    exchangeMove: "Wymień", passMove: "Pas", challengeMove: "Sprawdź", yourTurn: "Twój ruch",
    computerThinking: "Komputer myśli…", correcting: "Twój ruch sprawdzono: popraw go (jedna próba) albo spasuj",
    challengedOff: "Sprawdzenie: {words} nie ma w słowniku; ruch cofnięto", playStood: "Sprawdzenie: ruch jest ważny",
    noComputerLexicon: "Brak słownika tych zasad",
    levelEquity: "najsilniejszy (punkty i zostawione płytki)",
    equityUnavailable: "Najsilniejszy poziom wymaga tabeli wartości pozostawionych płytek (lexicon-build --leaves), a ten słownik jej nie ma",
    kindChallenge: "premia za sprawdzenie", kindTime: "kara za czas", "kindEnd-rack": "płytki na koniec",
    tournament: "Turniej", standings: "Klasyfikacja", rank: "Miejsce", name: "Zawodnik", wins: "Wygrane",
    losses: "Przegrane", spread: "Różnica", ratingAfter: "Ranking po turnieju", table: "Stół", player1: "Gracz",
    player2: "Przeciwnik", game: "Partia", bye: "pauza", watch: "oglądaj", record: "zapis", notStarted: "nierozpoczęta",
    division: "Grupa {name}", roundOf: "Runda {n} z {of}", notPaired: "Żadna runda nie jest jeszcze skojarzona",
    liveEvery: "Na żywo: odświeżane co {s} s",
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

// The server's error answers, by their code: a refusal's reason (the `lexicon-reason` header) when the
// page knows it, else the status (gRPC code name, or the HTTP status of an answer without a JSON body).
// English shows the server's own message; tests/test_i18n_errors.py keeps every code the server sends here.
const ERROR_TEXTS = {
  cs: {
    CANCELLED: "požadavek byl zrušen", UNKNOWN: "neznámá chyba serveru", INVALID_ARGUMENT: "chybný údaj v požadavku",
    DEADLINE_EXCEEDED: "server neodpověděl včas", NOT_FOUND: "nenalezeno (hra nebo slovník neexistuje)",
    ALREADY_EXISTS: "už existuje", PERMISSION_DENIED: "tento token na to nemá právo",
    RESOURCE_EXHAUSTED: "server je přetížen nebo požadavek přesahuje limit; zkuste to později",
    FAILED_PRECONDITION: "hra to teď nedovoluje", ABORTED: "hra se mezitím změnila; zkuste to znovu",
    OUT_OF_RANGE: "hodnota mimo rozsah", UNIMPLEMENTED: "server tuto funkci nemá", INTERNAL: "vnitřní chyba serveru",
    UNAVAILABLE: "server nebo slovník je nedostupný; zkuste to později", DATA_LOSS: "záznam hry je poškozen",
    UNAUTHENTICATED: "chybí platný token", 400: "chybný požadavek", 404: "nenalezeno", 413: "požadavek je příliš velký",
    429: "příliš mnoho požadavků; zkuste to později", 500: "vnitřní chyba serveru", 503: "server je nedostupný",
    BUSY: "hra se měnila příliš často; zkuste to znovu", NO_COMPUTER_PLAYERS: "tento server nemá počítačové hráče",
    NO_MOVE_GRAPH: "slovník nemá graf tahů, bez něj počítač nehraje",
    NO_LEAVE_TABLE: "slovník nemá tabulku hodnot zbylých kamenů, bez ní počítač na úrovni equity nehraje",
    HINTS_NOT_ALLOWED: "hra byla založena bez nápověd", GAME_OVER: "hra skončila", NOT_YOUR_TURN: "nejste na tahu",
    AWAITING_FINAL_PASS: "soupeř dohrál: potvrďte konec pasem, nebo napadněte tah",
    CAN_MOVE: "pasovat smí jen hráč, který nemůže táhnout", CORRECTING: "v době na opravu jen tah nebo pas",
    EXCHANGE_NOT_ALLOWED: "tato pravidla výměnu nemají", BAG_TOO_SMALL: "v sáčku je na výměnu málo kamenů",
    CHALLENGES_VOID: "hra posuzuje každý tah hned: napadat nelze", NOTHING_TO_CHALLENGE: "není co napadnout",
    OWN_PLAY: "vlastní tah napadnout nelze", NOTHING_TO_UNDO: "není co vrátit",
    MALFORMED_PLAY: "tah nelze přečíst", UNKNOWN_LETTER: "písmeno, které hra nemá", OFF_BOARD: "tah mimo desku",
    PLAY_MISMATCH: "tah nesouhlasí s deskou", SQUARE_OCCUPIED: "pole je obsazené",
    INCOMPLETE_WORD: "slovo pokračuje za tahem: souřadnice musí být začátek slova", NO_TILES: "tah nepokládá žádný kámen",
    NOT_IN_LINE: "kameny nejsou v jedné řadě", GAP: "mezi kameny je mezera",
    BAD_BLANK_LETTER: "žolík jako písmeno, které pravidla nedovolují", TOO_MANY_TILES: "víc kamenů, než pojme stojan",
    TOO_MANY_BLANKS: "víc žolíků, než hra má", TILE_COUNT_EXCEEDED: "víc kamenů jednoho druhu, než hra má",
    TILE_NOT_IN_RACK: "kámen, který na stojanu není", TOO_FEW_TILES: "málo kamenů",
    FIRST_PLAY_NOT_ON_CENTRE: "první tah musí vést přes střed", NOT_CONNECTED: "tah nenavazuje na kameny na desce",
    WORD_TOO_SHORT: "slovo je příliš krátké", DUPLICATE_WORD: "slovo už ve hře je",
    WORD_NOT_ADMISSIBLE: "slovo není ve slovníku",
  },
  pl: {
    CANCELLED: "żądanie anulowano", UNKNOWN: "nieznany błąd serwera", INVALID_ARGUMENT: "błędna dana w żądaniu",
    DEADLINE_EXCEEDED: "serwer nie odpowiedział na czas", NOT_FOUND: "nie znaleziono (nie ma takiej gry lub słownika)",
    ALREADY_EXISTS: "już istnieje", PERMISSION_DENIED: "ten token nie ma do tego prawa",
    RESOURCE_EXHAUSTED: "serwer jest przeciążony lub żądanie przekracza limit; spróbuj później",
    FAILED_PRECONDITION: "gra teraz na to nie pozwala", ABORTED: "gra w międzyczasie się zmieniła; spróbuj ponownie",
    OUT_OF_RANGE: "wartość poza zakresem", UNIMPLEMENTED: "serwer nie ma tej funkcji", INTERNAL: "wewnętrzny błąd serwera",
    UNAVAILABLE: "serwer lub słownik jest niedostępny; spróbuj później", DATA_LOSS: "zapis gry jest uszkodzony",
    UNAUTHENTICATED: "brak ważnego tokenu", 400: "błędne żądanie", 404: "nie znaleziono", 413: "żądanie jest za duże",
    429: "za dużo żądań; spróbuj później", 500: "wewnętrzny błąd serwera", 503: "serwer jest niedostępny",
    BUSY: "gra zmieniała się zbyt często; spróbuj ponownie", NO_COMPUTER_PLAYERS: "ten serwer nie ma graczy komputerowych",
    NO_MOVE_GRAPH: "słownik nie ma grafu ruchów, bez niego komputer nie gra",
    NO_LEAVE_TABLE: "słownik nie ma tabeli wartości pozostawionych płytek, bez niej komputer na poziomie equity nie gra",
    HINTS_NOT_ALLOWED: "gra została założona bez podpowiedzi", GAME_OVER: "gra się skończyła", NOT_YOUR_TURN: "to nie twój ruch",
    AWAITING_FINAL_PASS: "przeciwnik skończył: zatwierdź koniec pasem albo sprawdź ruch",
    CAN_MOVE: "pasować może tylko gracz, który nie może wykonać ruchu", CORRECTING: "w czasie na poprawkę tylko ruch lub pas",
    EXCHANGE_NOT_ALLOWED: "te zasady nie mają wymiany", BAG_TOO_SMALL: "w worku jest za mało płytek na wymianę",
    CHALLENGES_VOID: "gra ocenia każdy ruch od razu: nie można sprawdzać", NOTHING_TO_CHALLENGE: "nie ma czego sprawdzać",
    OWN_PLAY: "nie można sprawdzać własnego ruchu", NOTHING_TO_UNDO: "nie ma czego cofnąć",
    MALFORMED_PLAY: "nie można odczytać ruchu", UNKNOWN_LETTER: "litera, której gra nie ma", OFF_BOARD: "ruch poza planszą",
    PLAY_MISMATCH: "ruch nie zgadza się z planszą", SQUARE_OCCUPIED: "pole jest zajęte",
    INCOMPLETE_WORD: "słowo ciągnie się poza ruch: współrzędna musi być początkiem słowa", NO_TILES: "ruch nie kładzie żadnej płytki",
    NOT_IN_LINE: "płytki nie są w jednej linii", GAP: "między płytkami jest przerwa",
    BAD_BLANK_LETTER: "blank jako litera, na którą zasady nie pozwalają", TOO_MANY_TILES: "więcej płytek, niż mieści stojak",
    TOO_MANY_BLANKS: "więcej blanków, niż ma gra", TILE_COUNT_EXCEEDED: "więcej płytek jednego rodzaju, niż ma gra",
    TILE_NOT_IN_RACK: "płytka, której nie ma na stojaku", TOO_FEW_TILES: "za mało płytek",
    FIRST_PLAY_NOT_ON_CENTRE: "pierwszy ruch musi przechodzić przez środek", NOT_CONNECTED: "ruch nie łączy się z płytkami na planszy",
    WORD_TOO_SHORT: "słowo jest za krótkie", DUPLICATE_WORD: "słowo już jest w grze",
    WORD_NOT_ADMISSIBLE: "słowa nie ma w słowniku",
  },
};

class ApiError extends Error {
  constructor(status, message, offline, reason) {
    super(message);
    this.status = status;
    this.offline = !!offline;
    this.reason = reason || "";
  }
}

// An error answer's JSON ({"error": {...}}, or {} without one) as an ApiError: status, the server's message,
// the reason code; `response`, when there is one, for its status and `lexicon-reason` header.
function apiErrorOf(data, response) {
  const e = (data && data.error) || {};
  return new ApiError(e.status || (response && response.status), (e.status ? e.status + ": " : "") +
                      (e.message || (response && response.statusText) || ""),
                      false, response && response.headers.get("lexicon-reason"));
}

// What the page says about an error, in its language: the code's text where this language has one.
function errorText(err) {
  if (err.offline) return t("offline");
  const texts = ERROR_TEXTS[LANG] || {};
  const code = texts[err.reason] ? err.reason : err.status;
  return t("error") + ": " + (texts[code] ? `${texts[code]} (${code})` : err.message);
}

// gameToken: a player's game token (X-Game-Token, which the server reads whether or not it has tokens of its own)
async function callApi(method, path, body, gameToken) {
  const headers = { "Content-Type": "application/json" };
  const token = localStorage.getItem("token");
  if (token) headers.Authorization = "Bearer " + token;
  if (gameToken) headers["X-Game-Token"] = gameToken;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
  } catch (err) {
    throw new ApiError("OFFLINE", t("offline"), true);
  }
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw apiErrorOf(data, response);
  return data;
}

// The lexicon list (kept for offline use); fills a <select>, preselecting the remembered one.
async function loadLexicons(select, remembered) {
  let lexicons;
  try {
    lexicons = (await callApi("GET", "/v1/lexicons")).lexicons || [];
    localStorage.setItem("lexicons", JSON.stringify(lexicons.map(l => ({ name: l.name, language: l.language, ruleSet: l.ruleSet, hasLeaveTable: l.hasLeaveTable }))));
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
