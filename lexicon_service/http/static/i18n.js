// Shared by the pages: translations (cs, pl, en), the language choice, the API call, the lexicon list.
"use strict";

const STRINGS = {
  en: {
    noteAnalysisGiven: "analysis: the best move {play} {score}, {n, plural, one {{n} point} other {{n} points}} given away", noteAnalysisBest: "analysis: the best move {play} {score}", noteAnalysisNone: "analysis: no best move", noteAnalysisNoRack: "no rack in the record", noteAnalysis: "analysis: {why}",
    recordNotes: "Notes in the record", noteTimeout: "the turn timed out", noteOvertime: "overtime penalty", noteCorrection: "a correction", noteFailedChallenge: "penalty for a failed challenge", noteTurnLost: "turn lost to a failed challenge",
    judge: "Word judge", lookup: "Lookup", games: "Games", language: "Language", lexicon: "Lexicon",
    chooseLexicon: "Choose the lexicon, then press Enter", wordsLabel: "Words of the play",
    wordsPlaceholder: "type the words, then Enter",
    judgeHelp: "Enter: judge · Esc: clear · F2: change the lexicon · the verdict clears itself after {s} s",
    offline: "No connection to the server: a verdict needs the server. This page works offline, the verdicts do not.",
    error: "Error", loading: "Loading…", token: "Token", noLexicons: "The server serves no lexicon",
    word: "Word", explain: "Explain", search: "Search", anagram: "Anagram (? = blank)", pattern: "Pattern (? one tile, * any run)",
    prefix: "Prefix", form: "Form", headword: "Headword", tag: "Tag", rule: "Rule", origin: "Origin", guessedFrom: "guessed from {model}", fromOrigin: "from {origin}", tiles: "Tiles", noReadings: "No reading: the word is not in the lexicon.", refusedBy: "Refused when the lexicon was built: rule {rule} (headword {headword}).",
    found: "{n, plural, one {{n} word} other {{n} words}}", truncated: "(cut at the limit)", length: "Length", play: "From the rack",
    lookupHelp: "Alt+W: word · Alt+S: search · Enter: run",
    gcg: "GCG record", openFile: "Open a GCG file", replay: "Show the game", fromRules: "(no lexicon: the record's #rules)", ruleSet: "Rule set", end2x: "The player who went out scores twice the others' racks (PFS)",
    gamesHelp: "Ctrl+Enter: show · ←/→: step · Home/End: first/last move · S: save SVG · P: save PNG",
    liveGame: "Live game", gameId: "Game id", gameToken: "Game token (optional)", follow: "Follow",
    following: "Following game {id}", liveEnded: "The game's event stream has ended.",
    scoresSoFar: "Scores so far", kindAdjustment: "director adjustment", onTurn: "on turn", bagCount: "Bag: {n, plural, one {{n} tile} other {{n} tiles}}",
    lastMove: "Last move", gameOver: "Game over", awaitingFinalPass: "Out: awaiting the final pass or a challenge",
    move: "Move", player: "Player", position: "Square", score: "Score", total: "Total", recorded: "Recorded", bestPlay: "Best play", pointsGivenAway: "{n, plural, one {{n} point} other {{n} points}} given away",
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
    levelEquity: "stronger (score and the tiles kept)",
    levelSimulating: "strongest (looks ahead)",
    equityUnavailable: "The level that counts the tiles kept needs the lexicon's leave table (lexicon-build --leaves), which this lexicon does not have",
    simulatingUnavailable: "The level that looks ahead needs it too.", hintAhead: "Look ahead", hintWinChance: "win chance {p}", hintMeanSpread: "mean spread {s}", hintSpread: "spread {s}",
    kindChallenge: "challenge bonus", kindTime: "time penalty", "kindEnd-rack": "end rack", typeH: "C… type H for the CH tile",
    rule_word_list: "word list", rule_guessed: "guessed", rule_untagged_form: "untagged form", rule_proper_name: "proper name",
    rule_adjective_name: "adjective from a name", rule_adjective_two_word: "two-word adjective", rule_verb_adj: "verbal adjective",
    rule_clitic_contraction: "clitic contraction", rule_po_future: "future with po-", rule_non_letter: "a character that is no tile",
    origin_SGJP: "SGJP", origin_Czech_paradigm_engine: "the Czech paradigm engine", origin_guessed: "guessed",
    origin_word_list: "word list", origin_Hunspell_affix_form: "Hunspell affix form", origin_tagged_list: "tagged list",
    origin_headword_expansion: "headword expansion", origin_unknown: "unknown", or: "or",
    noteDirectorEndDeducted: "the director ended the game, racks deducted: {why}", noteDirectorAdjust: "director adjustment: {why}",
    endDirectorDeducted: "ended by the director, racks deducted: {why}",
    director: "Director", directorToken: "Director token", addGame: "Add the game", noGames: "No games yet: add a game with its director token.",
    adjustTitle: "Adjust a score", points: "Points (+/−)", reasonLabel: "Reason", adjustGo: "Adjust", undoTitle: "Undo the last move",
    undoGo: "Undo", endTitle: "End the game", scoringAsPlayed: "scores as played", scoringDeducted: "racks deducted as at a normal end",
    endGo: "End the game", directorDone: "Done: the players see it, the record has it.",
    directorHelp: "Every game you hold a director token for, or with the server's director key every game in progress, asked again every 2 s · ?games=ID,ID shows only those games, ?tournament=ID one tournament's · click a game to act on it",
    detailPlaceName: "place name {place}: {how}",
    serverKey: "Server's director key", keyGo: "Open every game", keyForget: "Forget the key",
    scopeServer: "Every game in progress on the server", scopeTournament: "The games of tournament {id}",
    noGamesServer: "No game in progress on the server.",
    noteGameOver: "game over: {why}", noteWentOut: "{name} went out (line {line})", noteNobody: "nobody could make a play (line {line})",
    noteScoreless: "{n, plural, one {{n} scoreless turn} other {{n} scoreless turns}} in a row (line {line})", notePassed: "every player passed {n, plural, one {{n} round} other {{n} rounds}} in a row (line {line})",
    noteNoRacks: "the record gives no racks: rack checks skipped (bag tracked by tile counts)",
    noteChallengedOff: "challenged by {name}: {words} not valid", noteStands: "challenged by {name}: the play stands",
    noteAdjustment: "director adjustment, accepted as recorded", noteNotAdmissible: "not admissible: {words}",
    noteTwice: "word twice on the board: {words}", noteRedrawn: "nobody could make a first word: every rack went back and was drawn again",
    noteBlocked: "nobody can make a play: the game ends", noteUndid: "the director undid a move: {why}",
    noteNoCorrection: "{name}: no correction; turn lost", noteCorrectionRefused: "{name}: correction {play} refused ({words}); turn lost",
    noteAfterEnd: "after the end of the game ({why})", noteBonus: "challenge bonus {n}", noteNoBonus: "challenge rule {rule}: no bonus expected",
    noteRackCount: "the rack has {n, plural, one {{n} tile} other {{n} tiles}}; {m} expected from the bag count", noteDirectorEnd: "the director ended the game: {why}",
    shuffle: "Shuffle", recall: "Take back", cancel: "Cancel", hintMove: "Hint", hint: "Hint", allowHints: "Hints allowed",
    analyse: "Best moves of this game", newGame: "New game", recordPanel: "Record, analysis and GCG",
    keysHelp: "Keyboard: arrows or a click choose the square · Space turns the direction · type the letters (board tiles are skipped; CH: C then H; Shift+letter: a blank) · Backspace: the last tile back · Enter: play · Esc: all back",
    premTW: "TW", premDW: "DW", premTL: "TL", premDL: "DL", premWord: "W", premLetter: "L",
    premWordTitle: "word score ×{n}", premLetterTitle: "letter score ×{n}",
    notALetter: "“{letter}” is not a letter of this game", notOnRack: "No {letter} and no blank on your rack",
    reasonNOT_IN_LINE: "the tiles are not in one line", reasonGAP: "there is a gap between the tiles",
    placeHelp: "Place tiles: click a rack tile, then a square (or drag it), or type on the board",
    tentative: "This play", exchangeN: "Exchange {n}", blankAsk: "Which letter is the blank?", boardLabel: "Board",
    cursorAt: "square {square}", draw: "A draw at {score}", winner: "{name} wins with {score}",
    beforeEnd: "Before the end", endAdjustment: "End of game", finalScore: "Final score",
    endDirector: "ended by the director: {why}", end_out: "a player went out", end_passes: "every player passed in turn",
    end_scoreless_turns: "too many scoreless turns", end_blocked: "nobody can make a word",
    moveTimer: "Time for the move: {time}", theirTurn: "{name} is on turn", polling: "Live updates refused by the server: the page asks every 2 s",
    evPlay: "{name} played {move} for {score}", evExchange: "{name} exchanged {n, plural, one {{n} tile} other {{n} tiles}}", evPass: "{name} passed",
    evYouTimedOut: "Your time for the move ran out: the turn was passed", evTimedOut: "{name}'s time for the move ran out: the turn was passed",
    evCorrectionTimeout: "{name}'s time to correct the play ran out",
    evYourWordOff: "{name} challenged your play off: {words} not in the lexicon", evTheirWordOff: "You challenged the play off: {words} not in the lexicon",
    evYouCorrect: "{name} challenged: {words} not in the lexicon; correct your play", evTheyCorrect: "You challenged: {words} not in the lexicon; the play is being corrected",
    evStands: "{name} challenged: the play stands.", evPenalty: "A penalty of {n, plural, one {{n} point} other {{n} points}}.", evLosesTurn: "The challenger loses the turn.",
    evCorrectionRefused: "{name}'s correction was refused", evRedraw: "Nobody could make a word: every rack was dealt again",
    evAdjust: "The director changed {name}'s score by {delta}: {why}", evUndo: "The director took back the last move: {why}",
    tourTournament: "Tournament", tourStandings: "Standings", tourRank: "Rank", tourName: "Name", tourWins: "Wins", tourLosses: "Losses",
    tourSpread: "Spread", tourRatingAfter: "Rating after", tourTable: "Table", tourPlayer1: "Player", tourPlayer2: "Opponent",
    tourGame: "Game", tourBye: "bye", tourWatch: "watch", tourRecord: "record", tourNotStarted: "not started",
    tourDivision: "Division {name}", tourRoundOf: "Round {n} of {of}", tourNotPaired: "No round paired yet",
    tourLiveEvery: "Live: updated every {s} s",
  },
  cs: {
    noteAnalysisGiven: "rozbor: nejlepší tah {play} {score}, {n, plural, one {ztracen {n} bod} few {ztraceny {n} body} many {ztraceno {n} bodu} other {ztraceno {n} bodů}}", noteAnalysisBest: "rozbor: nejlepší tah {play} {score}", noteAnalysisNone: "rozbor: žádný nejlepší tah", noteAnalysisNoRack: "záznam neuvádí stojan", noteAnalysis: "rozbor: {why}",
    recordNotes: "Poznámky v záznamu", noteTimeout: "čas na tah vypršel", noteOvertime: "penalizace za překročený čas", noteCorrection: "oprava", noteFailedChallenge: "penalizace za neúspěšnou námitku", noteTurnLost: "tah propadl za neúspěšnou námitku",
    judge: "Rozhodčí", lookup: "Vyhledávání", games: "Partie", language: "Jazyk", lexicon: "Slovník",
    chooseLexicon: "Vyberte slovník a stiskněte Enter", wordsLabel: "Slova tahu",
    wordsPlaceholder: "napište slova a stiskněte Enter",
    judgeHelp: "Enter: posoudit · Esc: smazat · F2: změnit slovník · verdikt zmizí po {s} s",
    offline: "Bez spojení se serverem: verdikt potřebuje server. Stránka funguje offline, verdikty ne.",
    error: "Chyba", loading: "Načítám…", token: "Token", noLexicons: "Server nemá žádný slovník",
    word: "Slovo", explain: "Vysvětlit", search: "Hledat", anagram: "Přesmyčka (? = žolík)", pattern: "Vzor (? jedno písmeno, * cokoli)",
    prefix: "Začátek slova", form: "Tvar", headword: "Heslo", tag: "Značka", rule: "Pravidlo", origin: "Původ", guessedFrom: "odhadnuto podle {model}", fromOrigin: "z {origin}", tiles: "Kameny", noReadings: "Žádné čtení: slovo ve slovníku není.", refusedBy: "Vyřazeno při sestavení slovníku: pravidlo {rule} (heslo {headword}).",
    found: "{n, plural, one {{n} slovo} few {{n} slova} many {{n} slova} other {{n} slov}}", truncated: "(zkráceno na limit)", length: "Délka", play: "Ze stojanu",
    lookupHelp: "Alt+W: slovo · Alt+S: hledání · Enter: spustit",
    gcg: "Záznam GCG", openFile: "Otevřít soubor GCG", replay: "Zobrazit partii", fromRules: "(bez slovníku: #rules záznamu)", ruleSet: "Pravidla", end2x: "Kdo dohraje, získá dvojnásobek kamenů soupeřů (PFS)",
    gamesHelp: "Ctrl+Enter: zobrazit · ←/→: tahy · Home/End: první/poslední tah · S: uložit SVG · P: uložit PNG",
    liveGame: "Živá partie", gameId: "Číslo partie", gameToken: "Token partie (nepovinný)", follow: "Sledovat",
    following: "Sleduji partii {id}", liveEnded: "Přenos událostí partie skončil.",
    scoresSoFar: "Průběžné skóre", kindAdjustment: "úprava rozhodčím", onTurn: "na tahu", bagCount: "V sáčku: {n, plural, one {{n} kámen} few {{n} kameny} many {{n} kamene} other {{n} kamenů}}",
    lastMove: "Poslední tah", gameOver: "Konec partie", awaitingFinalPass: "Jeden stojan je prázdný: čeká se na poslední pas nebo námitku",
    move: "Tah", player: "Hráč", position: "Pole", score: "Body", total: "Celkem", recorded: "Zapsáno", bestPlay: "Nejlepší tah", pointsGivenAway: "{n, plural, one {{n} ztracený bod} few {{n} ztracené body} many {{n} ztraceného bodu} other {{n} ztracených bodů}}",
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
    levelEquity: "silnější (body i ponechané kameny)",
    levelSimulating: "nejsilnější (hledí dopředu)",
    equityUnavailable: "Úroveň, která počítá s ponechanými kameny, potřebuje tabulku hodnot zbylých kamenů (lexicon-build --leaves) a tento slovník ji nemá",
    simulatingUnavailable: "Úroveň, která hledí dopředu, ji potřebuje také.", hintAhead: "Hledět dopředu", hintWinChance: "šance na výhru {p}", hintMeanSpread: "průměrný rozdíl {s}", hintSpread: "rozdíl {s}",
    kindChallenge: "bonus za námitku", kindTime: "penalizace za čas", "kindEnd-rack": "zbylé kameny", typeH: "C… stiskněte H pro kámen CH",
    rule_word_list: "seznam slov", rule_guessed: "odhad", rule_untagged_form: "tvar bez značky", rule_proper_name: "vlastní jméno",
    rule_adjective_name: "přídavné jméno od jména", rule_adjective_two_word: "dvouslovné přídavné jméno", rule_verb_adj: "slovesné přídavné jméno",
    rule_clitic_contraction: "stažený tvar s příklonkou", rule_po_future: "budoucí čas s po-", rule_non_letter: "znak, který není kamenem",
    origin_SGJP: "SGJP", origin_Czech_paradigm_engine: "českého tvaroslovného modulu", origin_guessed: "odhadu",
    origin_word_list: "seznamu slov", origin_Hunspell_affix_form: "tvaru z přípon Hunspellu", origin_tagged_list: "označkovaného seznamu",
    origin_headword_expansion: "rozvinutí hesel", origin_unknown: "neznámého zdroje", or: "nebo",
    noteDirectorEndDeducted: "partie ukončena rozhodčím, zbylé kameny odečteny: {why}", noteDirectorAdjust: "úprava rozhodčím: {why}",
    endDirectorDeducted: "ukončeno rozhodčím, zbylé kameny odečteny: {why}",
    director: "Rozhodčí turnaje", directorToken: "Token rozhodčího", addGame: "Přidat partii", noGames: "Zatím žádné partie: přidejte partii s tokenem rozhodčího.",
    adjustTitle: "Upravit skóre", points: "Body (+/−)", reasonLabel: "Důvod", adjustGo: "Upravit", undoTitle: "Vrátit poslední tah",
    undoGo: "Vrátit", endTitle: "Ukončit partii", scoringAsPlayed: "skóre jak stojí", scoringDeducted: "odečíst zbylé kameny jako při běžném konci",
    endGo: "Ukončit partii", directorDone: "Hotovo: hráči to vidí a záznam to obsahuje.",
    directorHelp: "Všechny partie, k nimž máte token rozhodčího, s klíčem rozhodčího serveru všechny rozehrané partie, obnovované každé 2 s · ?games=ID,ID ukáže jen tyto partie, ?tournament=ID partie jednoho turnaje · klepnutím na partii ji otevřete",
    detailPlaceName: "místní jméno {place}: {how}",
    serverKey: "Klíč rozhodčího serveru", keyGo: "Otevřít všechny partie", keyForget: "Zapomenout klíč",
    scopeServer: "Všechny rozehrané partie na serveru", scopeTournament: "Partie turnaje {id}",
    noGamesServer: "Na serveru se nehraje žádná partie.",
    noteGameOver: "konec partie: {why}", noteWentOut: "{name} bez kamenů na stojanu (řádek {line})", noteNobody: "nikdo nemohl táhnout (řádek {line})",
    noteScoreless: "{n, plural, one {{n} tah} few {{n} tahy} many {{n} tahu} other {{n} tahů}} bez bodů za sebou (řádek {line})", notePassed: "všichni hráči pasovali {n}× za sebou (řádek {line})",
    noteNoRacks: "záznam neuvádí stojany: kontrola stojanů vynechána (sáček sledován podle počtu kamenů)",
    noteChallengedOff: "námitka ({name}): {words} neplatí", noteStands: "námitka ({name}): tah platí",
    noteAdjustment: "úprava rozhodčím, přijata jak je zapsána", noteNotAdmissible: "nepřípustné: {words}",
    noteTwice: "slovo je na desce dvakrát: {words}", noteRedrawn: "nikdo nemohl složit první slovo: všechny stojany byly vráceny a rozdány znovu",
    noteBlocked: "nikdo nemůže táhnout: partie končí", noteUndid: "tah vrácen rozhodčím: {why}",
    noteNoCorrection: "{name}: bez opravy; tah propadl", noteCorrectionRefused: "{name}: oprava {play} neplatí ({words}); tah propadl",
    noteAfterEnd: "po konci partie ({why})", noteBonus: "bonus za námitku {n}", noteNoBonus: "pravidlo námitky {rule}: bez bonusu",
    noteRackCount: "stojan má {n, plural, one {{n} kámen} few {{n} kameny} many {{n} kamene} other {{n} kamenů}}; podle sáčku se čeká {m}", noteDirectorEnd: "partie ukončena rozhodčím: {why}",
    shuffle: "Zamíchat", recall: "Vrátit kameny", cancel: "Zrušit", hintMove: "Nápověda", hint: "Nápověda", allowHints: "Povolit nápovědu",
    analyse: "Nejlepší tahy této partie", newGame: "Nová hra", recordPanel: "Záznam, rozbor a GCG",
    keysHelp: "Klávesnice: šipky nebo klepnutí vyberou pole · mezerník změní směr · pište písmena (kameny na desce se přeskočí; CH: C a pak H; Shift+písmeno: žolík) · Backspace: vrátit poslední kámen · Enter: zahrát · Esc: vrátit vše",
    premTW: "3×S", premDW: "2×S", premTL: "3×P", premDL: "2×P", premWord: "S", premLetter: "P",
    premWordTitle: "slovo ×{n}", premLetterTitle: "písmeno ×{n}",
    notALetter: "„{letter}“ není písmeno této hry", notOnRack: "Na stojanu není {letter} ani žolík",
    reasonNOT_IN_LINE: "kameny nejsou v jedné řadě", reasonGAP: "mezi kameny je mezera",
    placeHelp: "Položte kameny: klepněte na kámen a pak na pole (nebo ho přetáhněte), nebo pište na desce",
    tentative: "Tento tah", exchangeN: "Vyměnit {n}", blankAsk: "Které písmeno je žolík?", boardLabel: "Deska",
    cursorAt: "pole {square}", draw: "Remíza, {score, plural, one {{score} bod} few {{score} body} many {{score} bodu} other {{score} bodů}}", winner: "Vítězí {name} s {score, plural, one {{score} bodem} few {{score} body} many {{score} bodu} other {{score} body}}",
    beforeEnd: "Před koncem", endAdjustment: "Konec hry", finalScore: "Konečné skóre",
    endDirector: "ukončeno rozhodčím: {why}", end_out: "jeden stojan je prázdný", end_passes: "všichni hráči pasovali",
    end_scoreless_turns: "příliš mnoho tahů bez bodů", end_blocked: "nikdo nemůže složit slovo",
    moveTimer: "Čas na tah: {time}", theirTurn: "Na tahu je {name}", polling: "Server odmítl živé zprávy: stránka se ptá každé 2 s",
    evPlay: "{name}: {move} za {score}", evExchange: "{name}: výměna kamenů ({n})", evPass: "{name}: pas",
    evYouTimedOut: "Váš čas na tah vypršel: tah propadl", evTimedOut: "{name}: čas na tah vypršel, tah propadl",
    evCorrectionTimeout: "{name}: čas na opravu tahu vypršel",
    evYourWordOff: "Námitka ({name}) proti vašemu tahu: {words} ve slovníku není; tah je vzat zpět", evTheirWordOff: "Vaše námitka: {words} ve slovníku není; tah je vzat zpět",
    evYouCorrect: "Námitka ({name}): {words} ve slovníku není; opravte tah", evTheyCorrect: "Vaše námitka: {words} ve slovníku není; tah se opravuje",
    evStands: "Námitka ({name}): tah platí.", evPenalty: "Trest {n, plural, one {{n} bod} few {{n} body} many {{n} bodu} other {{n} bodů}}.", evLosesTurn: "Kdo napadal, ztrácí tah.",
    evCorrectionRefused: "{name}: oprava tahu neplatí", evRedraw: "Nikdo nemohl složit slovo: všechny stojany byly rozdány znovu",
    evAdjust: "{name}: skóre upraveno rozhodčím o {delta}: {why}", evUndo: "Poslední tah vrácen rozhodčím: {why}",
    tourTournament: "Turnaj", tourStandings: "Pořadí", tourRank: "Pořadí", tourName: "Jméno", tourWins: "Výhry", tourLosses: "Prohry",
    tourSpread: "Rozdíl skóre", tourRatingAfter: "Rating po turnaji", tourTable: "Stůl", tourPlayer1: "Hráč", tourPlayer2: "Soupeř",
    tourGame: "Partie", tourBye: "volno", tourWatch: "sledovat", tourRecord: "záznam", tourNotStarted: "nezačala",
    tourDivision: "Skupina {name}", tourRoundOf: "Kolo {n} z {of}", tourNotPaired: "Zatím není nalosováno žádné kolo",
    tourLiveEvery: "Živě: obnova {s, plural, one {každou {s} s} few {každé {s} s} many {každých {s} s} other {každých {s} s}}",
  },
  pl: {
    noteAnalysisGiven: "analiza: najlepszy ruch {play} {score}, straconych punktów: {n}", noteAnalysisBest: "analiza: najlepszy ruch {play} {score}", noteAnalysisNone: "analiza: brak najlepszego ruchu", noteAnalysisNoRack: "zapis nie podaje stojaka", noteAnalysis: "analiza: {why}",
    recordNotes: "Uwagi w zapisie", noteTimeout: "czas na ruch minął", noteOvertime: "kara za przekroczenie czasu", noteCorrection: "poprawka", noteFailedChallenge: "kara za nieudane sprawdzenie", noteTurnLost: "ruch przepadł za nieudane sprawdzenie",
    judge: "Sędzia", lookup: "Wyszukiwanie", games: "Partie", language: "Język", lexicon: "Słownik",
    chooseLexicon: "Wybierz słownik i naciśnij Enter", wordsLabel: "Słowa ruchu",
    wordsPlaceholder: "wpisz słowa i naciśnij Enter",
    judgeHelp: "Enter: sprawdź · Esc: wyczyść · F2: zmień słownik · werdykt znika po {s} s",
    offline: "Brak połączenia z serwerem: werdykt wymaga serwera. Strona działa offline, werdykty nie.",
    error: "Błąd", loading: "Wczytywanie…", token: "Token", noLexicons: "Serwer nie ma żadnego słownika",
    word: "Słowo", explain: "Wyjaśnij", search: "Szukaj", anagram: "Anagram (? = blank)", pattern: "Wzorzec (? jedna płytka, * dowolny ciąg)",
    prefix: "Początek słowa", form: "Forma", headword: "Hasło", tag: "Znacznik", rule: "Reguła", origin: "Pochodzenie", guessedFrom: "odgadnięte według {model}", fromOrigin: "z {origin}", tiles: "Płytki", noReadings: "Brak odczytów: słowa nie ma w słowniku.", refusedBy: "Odrzucone przy budowaniu słownika: reguła {rule} (hasło {headword}).",
    found: "{n, plural, one {{n} słowo} few {{n} słowa} many {{n} słów} other {{n} słowa}}", truncated: "(obcięte do limitu)", length: "Długość", play: "Ze stojaka",
    lookupHelp: "Alt+W: słowo · Alt+S: wyszukiwanie · Enter: uruchom",
    gcg: "Zapis GCG", openFile: "Otwórz plik GCG", replay: "Pokaż partię", fromRules: "(bez słownika: #rules zapisu)", ruleSet: "Zasady", end2x: "Kończący dostaje podwójną wartość płytek przeciwników (PFS)",
    gamesHelp: "Ctrl+Enter: pokaż · ←/→: ruchy · Home/End: pierwszy/ostatni ruch · S: zapisz SVG · P: zapisz PNG",
    liveGame: "Gra na żywo", gameId: "Identyfikator gry", gameToken: "Token gry (opcjonalny)", follow: "Śledź",
    following: "Śledzę grę {id}", liveEnded: "Strumień zdarzeń gry się zakończył.",
    scoresSoFar: "Wyniki bieżące", kindAdjustment: "korekta sędziego", onTurn: "na ruchu", bagCount: "W worku: {n, plural, one {{n} płytka} few {{n} płytki} many {{n} płytek} other {{n} płytki}}",
    lastMove: "Ostatni ruch", gameOver: "Koniec gry", awaitingFinalPass: "Jeden stojak jest pusty: czekamy na ostatnie pasowanie lub sprawdzenie",
    move: "Ruch", player: "Gracz", position: "Pole", score: "Punkty", total: "Suma", recorded: "Zapisane", bestPlay: "Najlepszy ruch", pointsGivenAway: "{n, plural, one {{n} stracony punkt} few {{n} stracone punkty} many {{n} straconych punktów} other {{n} straconego punktu}}",
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
    levelEquity: "silniejszy (punkty i zostawione płytki)",
    levelSimulating: "najsilniejszy (patrzy naprzód)",
    equityUnavailable: "Poziom, który liczy zostawione płytki, wymaga tabeli wartości pozostawionych płytek (lexicon-build --leaves), a ten słownik jej nie ma",
    simulatingUnavailable: "Poziom, który patrzy naprzód, też jej potrzebuje.", hintAhead: "Patrz naprzód", hintWinChance: "szansa na wygraną {p}", hintMeanSpread: "średnia różnica {s}", hintSpread: "różnica {s}",
    kindChallenge: "premia za sprawdzenie", kindTime: "kara za czas", "kindEnd-rack": "płytki na koniec", typeH: "C… naciśnij H, aby położyć CH",
    rule_word_list: "lista słów", rule_guessed: "odgadnięcie", rule_untagged_form: "forma bez znacznika", rule_proper_name: "nazwa własna",
    rule_adjective_name: "przymiotnik od nazwy", rule_adjective_two_word: "przymiotnik dwuwyrazowy", rule_verb_adj: "przymiotnik odczasownikowy",
    rule_clitic_contraction: "forma ściągnięta z klityką", rule_po_future: "czas przyszły z po-", rule_non_letter: "znak, który nie jest płytką",
    origin_SGJP: "SGJP", origin_Czech_paradigm_engine: "czeskiego modułu odmiany", origin_guessed: "odgadnięcia",
    origin_word_list: "listy słów", origin_Hunspell_affix_form: "formy z afiksów Hunspella", origin_tagged_list: "listy oznaczonej",
    origin_headword_expansion: "rozwinięcia haseł", origin_unknown: "nieznanego źródła", or: "lub",
    noteDirectorEndDeducted: "gra zakończona przez sędziego, płytki odjęte: {why}", noteDirectorAdjust: "korekta sędziego: {why}",
    endDirectorDeducted: "decyzja sędziego, płytki odjęte: {why}",
    director: "Sędzia turnieju", directorToken: "Token sędziego", addGame: "Dodaj grę", noGames: "Brak gier: dodaj grę z tokenem sędziego.",
    adjustTitle: "Popraw wynik", points: "Punkty (+/−)", reasonLabel: "Powód", adjustGo: "Popraw", undoTitle: "Cofnij ostatni ruch",
    undoGo: "Cofnij", endTitle: "Zakończ grę", scoringAsPlayed: "wyniki jak stoją", scoringDeducted: "odjąć płytki jak przy zwykłym końcu",
    endGo: "Zakończ grę", directorDone: "Gotowe: gracze to widzą, zapis to zawiera.",
    directorHelp: "Wszystkie gry, do których masz token sędziego, z kluczem sędziego serwera wszystkie trwające gry, odświeżane co 2 s · ?games=ID,ID pokazuje tylko te gry, ?tournament=ID gry jednego turnieju · kliknij grę, aby ją otworzyć",
    detailPlaceName: "nazwa miejscowa {place}: {how}",
    serverKey: "Klucz sędziego serwera", keyGo: "Otwórz wszystkie gry", keyForget: "Zapomnij klucz",
    scopeServer: "Wszystkie trwające gry na serwerze", scopeTournament: "Gry turnieju {id}",
    noGamesServer: "Na serwerze nie trwa żadna gra.",
    noteGameOver: "koniec gry: {why}", noteWentOut: "{name} bez płytek na stojaku (wiersz {line})", noteNobody: "nikt nie mógł wykonać ruchu (wiersz {line})",
    noteScoreless: "{n, plural, one {{n} ruch} few {{n} ruchy} many {{n} ruchów} other {{n} ruchu}} bez punktów z rzędu (wiersz {line})", notePassed: "wszyscy gracze spasowali {n}× z rzędu (wiersz {line})",
    noteNoRacks: "zapis nie podaje stojaków: sprawdzanie stojaków pominięte (worek liczony po liczbie płytek)",
    noteChallengedOff: "sprawdzenie ({name}): {words} niedopuszczalne", noteStands: "sprawdzenie ({name}): ruch jest ważny",
    noteAdjustment: "korekta sędziego, przyjęta jak zapisano", noteNotAdmissible: "niedopuszczalne: {words}",
    noteTwice: "słowo dwa razy na planszy: {words}", noteRedrawn: "nikt nie mógł ułożyć pierwszego słowa: wszystkie stojaki wróciły i rozdano je ponownie",
    noteBlocked: "nikt nie może wykonać ruchu: gra się kończy", noteUndid: "ruch cofnięty przez sędziego: {why}",
    noteNoCorrection: "{name}: bez poprawki; ruch przepadł", noteCorrectionRefused: "{name}: poprawka {play} odrzucona ({words}); ruch przepadł",
    noteAfterEnd: "po końcu gry ({why})", noteBonus: "premia za sprawdzenie {n}", noteNoBonus: "zasada sprawdzania {rule}: bez premii",
    noteRackCount: "stojak ma {n, plural, one {{n} płytkę} few {{n} płytki} many {{n} płytek} other {{n} płytki}}; według worka oczekiwano {m}", noteDirectorEnd: "gra zakończona przez sędziego: {why}",
    shuffle: "Wymieszaj", recall: "Cofnij płytki", cancel: "Anuluj", hintMove: "Podpowiedź", hint: "Podpowiedź", allowHints: "Podpowiedzi dozwolone",
    analyse: "Najlepsze ruchy tej partii", newGame: "Nowa gra", recordPanel: "Zapis, analiza i GCG",
    keysHelp: "Klawiatura: strzałki lub kliknięcie wybierają pole · spacja zmienia kierunek · pisz litery (płytki na planszy są pomijane; Shift+litera: blank) · Backspace: cofnij ostatnią płytkę · Enter: zagraj · Esc: cofnij wszystko",
    premTW: "3×S", premDW: "2×S", premTL: "3×L", premDL: "2×L", premWord: "S", premLetter: "L",
    premWordTitle: "słowo ×{n}", premLetterTitle: "litera ×{n}",
    notALetter: "„{letter}” nie jest literą tej gry", notOnRack: "Na stojaku nie ma {letter} ani blanku",
    reasonNOT_IN_LINE: "płytki nie są w jednej linii", reasonGAP: "między płytkami jest przerwa",
    placeHelp: "Połóż płytki: kliknij płytkę, a potem pole (albo ją przeciągnij), lub pisz na planszy",
    tentative: "Ten ruch", exchangeN: "Wymień {n}", blankAsk: "Jaką literą jest blank?", boardLabel: "Plansza",
    cursorAt: "pole {square}", draw: "Remis, {score, plural, one {{score} punkt} few {{score} punkty} many {{score} punktów} other {{score} punktu}}", winner: "Wygrywa {name}: {score, plural, one {{score} punkt} few {{score} punkty} many {{score} punktów} other {{score} punktu}}",
    beforeEnd: "Przed końcem", endAdjustment: "Koniec gry", finalScore: "Wynik końcowy",
    endDirector: "decyzja sędziego: {why}", end_out: "jeden stojak jest pusty", end_passes: "wszyscy gracze spasowali",
    end_scoreless_turns: "zbyt wiele ruchów bez punktów", end_blocked: "nikt nie może ułożyć słowa",
    moveTimer: "Czas na ruch: {time}", theirTurn: "Ruch gracza {name}", polling: "Serwer odmówił zdarzeń na żywo: strona pyta co 2 s",
    evPlay: "{name}: {move} za {score}", evExchange: "{name}: wymiana płytek ({n})", evPass: "{name}: pas",
    evYouTimedOut: "Twój czas na ruch minął: ruch przepadł", evTimedOut: "{name}: czas na ruch minął, ruch przepadł",
    evCorrectionTimeout: "{name}: minął czas na poprawkę ruchu",
    evYourWordOff: "Sprawdzenie ({name}) twojego ruchu: {words} nie ma w słowniku; ruch cofnięty", evTheirWordOff: "Twoje sprawdzenie: {words} nie ma w słowniku; ruch cofnięty",
    evYouCorrect: "Sprawdzenie ({name}): {words} nie ma w słowniku; popraw ruch", evTheyCorrect: "Twoje sprawdzenie: {words} nie ma w słowniku; ruch jest poprawiany",
    evStands: "Sprawdzenie ({name}): ruch jest ważny.", evPenalty: "Kara {n, plural, one {{n} punkt} few {{n} punkty} many {{n} punktów} other {{n} punktu}}.", evLosesTurn: "Sprawdzający traci ruch.",
    evCorrectionRefused: "{name}: poprawka ruchu odrzucona", evRedraw: "Nikt nie mógł ułożyć słowa: stojaki rozdano ponownie",
    evAdjust: "{name}: wynik skorygowany przez sędziego o {delta}: {why}", evUndo: "Ostatni ruch cofnięty przez sędziego: {why}",
    tourTournament: "Turniej", tourStandings: "Klasyfikacja", tourRank: "Miejsce", tourName: "Zawodnik", tourWins: "Wygrane",
    tourLosses: "Przegrane", tourSpread: "Różnica", tourRatingAfter: "Ranking po turnieju", tourTable: "Stół", tourPlayer1: "Gracz",
    tourPlayer2: "Przeciwnik", tourGame: "Partia", tourBye: "pauza", tourWatch: "oglądaj", tourRecord: "zapis", tourNotStarted: "nierozpoczęta",
    tourDivision: "Grupa {name}", tourRoundOf: "Runda {n} z {of}", tourNotPaired: "Żadna runda nie jest jeszcze skojarzona",
    tourLiveEvery: "Na żywo: odświeżane co {s} s",
  },
};

// The server's notes on a game (rules/replay.py, games/state.py: English, as the CLI prints them) in the
// page's language; a note no pattern knows is shown as it is.
// The morphology the lookup page shows, from the same tables: a reading's tag is UniMorph-based features
// (build_tools/tags.py), each said in the page's language, in this order (part of speech, case, number ...);
// a build rule's name (a profile's, e.g. noun-nominative, place-name-adjective) is said by its parts, the
// longest run of parts the table knows first. [key, en, cs, pl]; a feature or part not here is shown as it is.
const TAG_FEATURES = [
  ["N", "noun", "podstatné jméno", "rzeczownik"], ["ADJ", "adjective", "přídavné jméno", "przymiotnik"],
  ["ADV", "adverb", "příslovce", "przysłówek"], ["V", "verb", "sloveso", "czasownik"],
  ["V.PTCP", "participle", "příčestí", "imiesłów"], ["V.MSDR", "verbal noun", "podstatné jméno slovesné", "rzeczownik odczasownikowy"],
  ["V.CVB", "transgressive", "přechodník", "imiesłów przysłówkowy"], ["PRO", "pronoun", "zájmeno", "zaimek"],
  ["NUM", "numeral", "číslovka", "liczebnik"], ["ADP", "preposition", "předložka", "przyimek"],
  ["CONJ", "conjunction", "spojka", "spójnik"], ["PART", "particle", "částice", "partykuła"],
  ["INTJ", "interjection", "citoslovce", "wykrzyknik"], ["DET", "determiner", "determinátor", "określnik"],
  ["NOM", "nominative", "1. pád", "mianownik"], ["GEN", "genitive", "2. pád", "dopełniacz"],
  ["DAT", "dative", "3. pád", "celownik"], ["ACC", "accusative", "4. pád", "biernik"],
  ["VOC", "vocative", "5. pád", "wołacz"], ["ESS", "locative", "6. pád", "miejscownik"],
  ["INS", "instrumental", "7. pád", "narzędnik"], ["SG", "singular", "jednotné číslo", "liczba pojedyncza"],
  ["PL", "plural", "množné číslo", "liczba mnoga"], ["MASC", "masculine", "mužský rod", "rodzaj męski"],
  ["FEM", "feminine", "ženský rod", "rodzaj żeński"], ["NEUT", "neuter", "střední rod", "rodzaj nijaki"],
  ["HUM", "personal", "osobní", "męskoosobowy"], ["ANIM", "animate", "životný", "żywotny"],
  ["INAN", "inanimate", "neživotný", "nieżywotny"], ["NHUM", "non-personal", "neosobní", "niemęskoosobowy"],
  ["1", "1st person", "1. osoba", "1. osoba"], ["2", "2nd person", "2. osoba", "2. osoba"],
  ["3", "3rd person", "3. osoba", "3. osoba"], ["IND", "indicative", "oznamovací způsob", "tryb oznajmujący"],
  ["IMP", "imperative", "rozkazovací způsob", "tryb rozkazujący"], ["COND", "conditional", "podmiňovací způsob", "tryb przypuszczający"],
  ["NFIN", "infinitive", "infinitiv", "bezokolicznik"], ["PRS", "present", "přítomný čas", "czas teraźniejszy"],
  ["PST", "past", "minulý čas", "czas przeszły"], ["FUT", "future", "budoucí čas", "czas przyszły"],
  ["PRF", "perfect", "minulé příčestí", "forma przeszła"], ["ACT", "active", "činný rod", "strona czynna"],
  ["PASS", "passive", "trpný rod", "strona bierna"], ["IPFV", "imperfective", "nedokonavé", "niedokonany"],
  ["PFV", "perfective", "dokonavé", "dokonany"], ["CMPR", "comparative", "2. stupeň", "stopień wyższy"],
  ["SPRL", "superlative", "3. stupeň", "stopień najwyższy"], ["NEG", "negated", "zápor", "przeczenie"],
  ["IMPRS", "impersonal", "neosobní tvar", "forma bezosobowa"], ["PROPN", "proper name", "vlastní jméno", "nazwa własna"],
  ["ABBR", "abbreviation", "zkratka", "skrót"], ["SHORT", "short form", "jmenný tvar", "forma krótka"],
  ["POSS", "possessive", "přivlastňovací", "dzierżawczy"], ["FUSED", "fused form", "stažený tvar", "forma zrośnięta"],
  ["CLITIC", "clitic", "příklonka", "klityka"], ["ADJA", "combining form", "tvar ve složeninách", "forma w złożeniach"],
  ["ADJP", "post-prepositional form", "tvar po předložce", "forma poprzyimkowa"], ["PRED", "predicative", "predikativum", "predykatyw"],
  ["FIXED", "only in fixed phrases", "jen v ustálených spojeních", "tylko w utartych wyrażeniach"],
  ["DEPR", "depreciative", "hanlivý tvar", "forma deprecjatywna"], ["MOD", "modal", "modální", "modalny"],
  ["ARCH", "archaic", "zastaralé", "archaiczne"], ["NONSTD", "non-standard", "nespisovné", "niepoprawne"],
  ["VULG", "vulgar", "vulgární", "wulgarne"], ["UNKNOWN", "unknown headword", "neznámé heslo", "nieznane hasło"],
  ["GUESSED", "guessed", "odhadnuté", "odgadnięte"], ["HUNSPELL", "from Hunspell", "z Hunspellu", "z Hunspella"],
  ["TOPO", "from a place name", "od místního jména", "od nazwy miejscowej"], ["RARE", "rare", "řídké", "rzadkie"],
  ["DIAL", "dialectal", "nářeční", "gwarowe"], ["COLL", "colloquial", "hovorové", "potoczne"],
  ["INDIV", "individual coinage", "individuální", "indywidualne"], ["UNATTESTED", "unattested", "nedoložené", "niepoświadczone"],
  ["NOVOWEL", "without a vowel", "bez samohlásky", "bez samogłoski"], ["LY", "ending in -ły", "zakončené na -ły", "zakończone na -ły"],
];
const RULE_PARTS = [
  ["present-future", "present or future", "přítomný nebo budoucí čas", "czas teraźniejszy lub przyszły"],
  ["l-participle", "l-participle", "příčestí minulé", "imiesłów na -ł"],
  ["passive-participle", "passive participle", "příčestí trpné", "imiesłów bierny"],
  ["place-name", "from a place name", "od místního jména", "od nazwy miejscowej"],
  ["proper-name", "proper name", "vlastní jméno", "nazwa własna"], ["unknown-lemma", "unknown headword", "neznámé heslo", "nieznane hasło"],
  ["hunspell-affix-form", "Hunspell affix form", "tvar z přípon Hunspellu", "forma z afiksów Hunspella"],
  ["fused-form", "fused form", "stažený tvar", "forma zrośnięta"], ["verbal-noun", "verbal noun", "podstatné jméno slovesné", "rzeczownik odczasownikowy"],
  ["fixed-phrase-word", "word of a fixed phrase", "slovo ustáleného spojení", "wyraz z utartego wyrażenia"],
  ["combining-form", "combining form", "tvar ve složeninách", "forma w złożeniach"],
  ["marked-incorrect", "marked incorrect", "označené jako nesprávné", "oznaczone jako niepoprawne"],
  ["no-rule-admits", "no rule admits it", "nepřipouští ho žádné pravidlo", "żadna reguła go nie dopuszcza"],
  ["noun", "noun", "podstatné jméno", "rzeczownik"], ["adjective", "adjective", "přídavné jméno", "przymiotnik"],
  ["pronoun", "pronoun", "zájmeno", "zaimek"], ["numeral", "numeral", "číslovka", "liczebnik"],
  ["verb", "verb", "sloveso", "czasownik"], ["participle", "participle", "příčestí", "imiesłów"],
  ["adverb", "adverb", "příslovce", "przysłówek"], ["preposition", "preposition", "předložka", "przyimek"],
  ["conjunction", "conjunction", "spojka", "spójnik"], ["particle", "particle", "částice", "partykuła"],
  ["interjection", "interjection", "citoslovce", "wykrzyknik"], ["transgressive", "transgressive", "přechodník", "imiesłów przysłówkowy"],
  ["nominative", "nominative", "1. pád", "mianownik"], ["short", "short form", "jmenný tvar", "forma krótka"],
  ["infinitive", "infinitive", "infinitiv", "bezokolicznik"], ["present", "present", "přítomný čas", "czas teraźniejszy"],
  ["future", "future", "budoucí čas", "czas przyszły"], ["imperative", "imperative", "rozkazovací způsob", "tryb rozkazujący"],
  ["passive", "passive", "trpný", "bierny"], ["active", "active", "činný", "czynny"],
  ["abbreviation", "abbreviation", "zkratka", "skrót"], ["clitic", "clitic", "příklonka", "klityka"],
  ["predicative", "predicative", "predikativum", "predykatyw"], ["guessed", "guessed", "odhad", "odgadnięte"],
  ["guess", "guess", "odhad", "odgadnięcie"], ["unattested", "unattested", "nedoložené", "niepoświadczone"],
  ["archaic", "archaic", "zastaralé", "archaiczne"], ["rare", "rare", "řídké", "rzadkie"],
  ["perfective", "perfective", "dokonavé", "dokonany"], ["emphatic", "emphatic -że", "důrazové -że", "emfatyczne -że"],
  ["nie", "with nie-", "s nie-", "z nie-"], ["adjp", "post-prepositional adjective", "přídavné jméno po předložce", "przymiotnik poprzyimkowy"],
  ["vowelless", "without a vowel", "bez samohlásky", "bez samogłoski"], ["word", "word", "slovo", "wyraz"],
  ["name", "name", "jméno", "nazwa"], ["form", "form", "tvar", "forma"], ["lemma", "headword", "heslo", "hasło"],
];
// A table of rows [key, en, cs, pl] into STRINGS, each key behind `prefix`.
function addRows(table, prefix) {
  for (const [key, en, cs, pl] of table) {
    STRINGS.en[prefix + key] = en; STRINGS.cs[prefix + key] = cs; STRINGS.pl[prefix + key] = pl;
  }
}
addRows(TAG_FEATURES, "tag_");
addRows(RULE_PARTS, "part_");
const TAG_ORDER = new Map(TAG_FEATURES.map(([key], i) => [key, i]));

const NOTE_PATTERNS = [
  [/^game over: (.*)$/, m => t("noteGameOver", { why: noteText(m[1]) })],
  [/^(.+) went out on line (\d+)$/, m => t("noteWentOut", { name: m[1], line: m[2] })],
  [/^nobody could make a play, line (\d+)$/, m => t("noteNobody", { line: m[1] })],
  [/^(\d+) consecutive scoreless turns, line (\d+)$/, m => t("noteScoreless", { n: m[1], line: m[2] })],
  [/^every player passed (\d+) round\(s\) in a row, line (\d+)$/, m => t("notePassed", { n: m[1], line: m[2] })],
  [/^the record gives no racks: rack checks skipped/, () => t("noteNoRacks")],
  [/^challenged by (.+): the play stands$/, m => t("noteStands", { name: m[1] })],
  [/^challenged by (.+): (.+) not valid$/, m => t("noteChallengedOff", { name: m[1], words: m[2] })],
  [/^director adjustment, accepted as recorded$/, () => t("noteAdjustment")],
  [/^not admissible: (.+)$/, m => t("noteNotAdmissible", { words: m[1] })],
  [/^word twice on the board: (.+)$/, m => t("noteTwice", { words: m[1] })],
  [/^nobody could make a first word/, () => t("noteRedrawn")],
  [/^nobody can make a play: the game ends$/, () => t("noteBlocked")],
  [/^director undid the move at version \d+: (.*)$/, m => t("noteUndid", { why: m[1] })],
  [/^director ended the game, as played: (.*)$/, m => t("noteDirectorEnd", { why: m[1] })],
  [/^director ended the game, racks deducted: (.*)$/, m => t("noteDirectorEndDeducted", { why: m[1] })],
  [/^director adjustment: (.*)$/, m => t("noteDirectorAdjust", { why: m[1] })],
  [/^(.+): no correction \(.*\); turn lost$/, m => t("noteNoCorrection", { name: m[1] })],
  [/^(.+): correction (.+) refused \((.*)\); turn lost$/, m => t("noteCorrectionRefused", { name: m[1], play: m[2], words: m[3] })],
  [/^after the end of the game \((.*)\)$/, m => t("noteAfterEnd", { why: noteText(m[1]) })],
  [/^\S+ challenge bonus is (\d+)$/, m => t("noteBonus", { n: m[1] })],
  [/^\S+ challenge rule is (\S+): no bonus expected$/, m => t("noteNoBonus", { rule: m[1] })],
  [/^rack has (\d+) tiles; (\d+) expected from the bag count$/, m => t("noteRackCount", { n: m[1], m: m[2] })],
  [/^timeout$/, () => t("noteTimeout")], [/^overtime$/, () => t("noteOvertime")],
  [/^correction$/, () => t("noteCorrection")], [/^failed challenge penalty$/, () => t("noteFailedChallenge")],
  [/^turn lost to a failed challenge$/, () => t("noteTurnLost")],
  // AnalyseGame's annotated record (movegen/analysis.py note_text)
  [/^analysis: best (.+) ([+-]\d+), (-?\d+) points given away$/, m => t("noteAnalysisGiven", { play: m[1], score: m[2], n: m[3] })],
  [/^analysis: best (.+) ([+-]\d+)$/, m => t("noteAnalysisBest", { play: m[1], score: m[2] })],
  [/^analysis: no best move$/, () => t("noteAnalysisNone")],
  [/^no rack in the record$/, () => t("noteAnalysisNoRack")],
  [/^analysis: (.+)$/, (m, quoted) => t("noteAnalysis", { why: quotedNotesText(m[1], quoted) })],
];

// quoted: the notes as data (ReplayNote: code, values, text) that a note may quote: those of its line
function noteText(text, quoted) {
  for (const [pattern, say] of NOTE_PATTERNS) {
    const m = String(text).match(pattern);
    if (m) return say(m, quoted);
  }
  return text;
}

// An analysis note's parts ("; "-joined, movegen/analysis.py), each said from the note as data whose text it
// is (the line's replay problems and notes, the turn's analysis notes), else by the patterns above. A part
// may hold "; " itself (a rack count, a refused rack's reason): the known texts are matched whole, longest first.
function quotedNotesText(body, quoted) {
  const known = (quoted || []).filter(n => n && n.text).sort((a, b) => b.text.length - a.text.length);
  const said = [];
  for (let rest = body; rest;) {
    const note = known.find(n => rest === n.text || rest.startsWith(n.text + "; "));
    const part = note ? note.text : rest.split("; ")[0];
    said.push(note ? serverNoteText(note) : noteText(part));
    rest = rest.slice(part.length + 2);
  }
  return said.join("; ");
}

// The server's notes as codes with values (rules/notes.py): a replay's notes and problems (ReplayNote) and
// ExplainWord's message (message_code, message_values), said in the page's language; [code, en, cs, pl].
// A quoted note ("why") is said by the same table.
const SERVER_NOTES = [
  ["player-count", "{players, plural, one {{players} player} other {{players} players}}; {rule_set} is for {low}-{high}", "hráčů: {players}; {rule_set} je pro {low}–{high}", "graczy: {players}; {rule_set} jest dla {low}–{high}"],
  ["no-racks", STRINGS.en.noteNoRacks, STRINGS.cs.noteNoRacks, STRINGS.pl.noteNoRacks],
  ["score-mismatch", "score {recorded} recorded, {computed} computed", "{recorded, plural, one {zapsán {recorded} bod} few {zapsány {recorded} body} many {zapsáno {recorded} bodu} other {zapsáno {recorded} bodů}}, spočteno {computed}", "zapisano {recorded} pkt, obliczono {computed}"],
  ["total-mismatch", "total {recorded} recorded, but {previous} {score} = {expected}", "zapsán součet {recorded}, ale {previous} {score} = {expected}", "zapisano sumę {recorded}, a {previous} {score} = {expected}"],
  ["game-over", STRINGS.en.noteGameOver, STRINGS.cs.noteGameOver, STRINGS.pl.noteGameOver],
  ["after-end", STRINGS.en.noteAfterEnd, STRINGS.cs.noteAfterEnd, STRINGS.pl.noteAfterEnd],
  ["went-out", "{player} went out (line {line})", "{player} bez kamenů na stojanu (řádek {line})", "{player} bez płytek na stojaku (wiersz {line})"],
  ["blocked", STRINGS.en.noteNobody, STRINGS.cs.noteNobody, STRINGS.pl.noteNobody],
  ["scoreless-turns", "{turns, plural, one {{turns} scoreless turn} other {{turns} scoreless turns}} in a row (line {line})", "{turns, plural, one {{turns} tah} few {{turns} tahy} many {{turns} tahu} other {{turns} tahů}} bez bodů za sebou (řádek {line})", "{turns, plural, one {{turns} ruch} few {{turns} ruchy} many {{turns} ruchów} other {{turns} ruchu}} bez punktów z rzędu (wiersz {line})"],
  ["passes", "every player passed {rounds, plural, one {{rounds} round} other {{rounds} rounds}} in a row (line {line})", "všichni hráči pasovali {rounds}× za sebou (řádek {line})", "wszyscy gracze spasowali {rounds}× z rzędu (wiersz {line})"],
  ["rack-unknown-letter", "the rack {rack} has a tile the rule set does not", "stojan {rack} má kámen, který pravidla neznají", "stojak {rack} ma płytkę, której zasady nie znają"],
  ["rack-count", "the rack has {tiles, plural, one {{tiles} tile} other {{tiles} tiles}}; {expected} expected from the bag count", "stojan má {tiles, plural, one {{tiles} kámen} few {{tiles} kameny} many {{tiles} kamene} other {{tiles} kamenů}}; podle sáčku se čeká {expected}", "stojak ma {tiles, plural, one {{tiles} płytkę} few {{tiles} płytki} many {{tiles} płytek} other {{tiles} płytki}}; według worka oczekiwano {expected}"],
  ["rack-tiles-gone", "the rack {rack} holds tiles the game no longer has: {tiles}", "stojan {rack} má kameny, které už ve hře nejsou: {tiles}", "stojak {rack} ma płytki, których w grze już nie ma: {tiles}"],
  ["illegal-play", "illegal play: {reason}", "neplatný tah: {reason}", "niedozwolony ruch: {reason}"],
  ["not-admissible", STRINGS.en.noteNotAdmissible, STRINGS.cs.noteNotAdmissible, STRINGS.pl.noteNotAdmissible],
  ["word-twice", STRINGS.en.noteTwice, STRINGS.cs.noteTwice, STRINGS.pl.noteTwice],
  ["withdrawal-without-play", "a withdrawal without a play of this player to withdraw", "stažení tahu, ale tento hráč nemá žádný tah ke stažení", "wycofanie ruchu, choć ten gracz nie ma ruchu do wycofania"],
  ["exchange-not-allowed", "exchanges are not allowed in {rule_set}", "výměna není v {rule_set} dovolena", "wymiana nie jest dozwolona w {rule_set}"],
  ["exchange-bag-below-minimum", "illegal exchange: {bag, plural, one {{bag} tile} other {{bag} tiles}} in the bag, {rule_set} needs at least {minimum}", "neplatná výměna: v sáčku {bag, plural, one {je {bag} kámen} few {jsou {bag} kameny} many {je {bag} kamene} other {je {bag} kamenů}}, {rule_set} chce aspoň {minimum}", "niedozwolona wymiana: w worku {bag, plural, one {jest {bag} płytka} few {są {bag} płytki} many {jest {bag} płytek} other {jest {bag} płytki}}, {rule_set} wymaga co najmniej {minimum}"],
  ["exchange-more-than-bag", "illegal exchange: {tiles, plural, one {{tiles} tile} other {{tiles} tiles}} exchanged, only {bag} in the bag", "neplatná výměna: {tiles, plural, one {vyměněn {tiles} kámen} few {vyměněny {tiles} kameny} many {vyměněno {tiles} kamene} other {vyměněno {tiles} kamenů}}, v sáčku jen {bag}", "niedozwolona wymiana: wymieniono {tiles, plural, one {{tiles} płytkę} few {{tiles} płytki} many {{tiles} płytek} other {{tiles} płytki}}, w worku tylko {bag}"],
  ["exchange-unknown-letter", "exchanged tiles {tiles}: a tile the rule set does not have", "vyměněné kameny {tiles}: kámen, který pravidla neznají", "wymienione płytki {tiles}: płytka, której zasady nie znają"],
  ["exchange-not-on-rack", "exchanged {tiles} is not on the rack {rack}", "vyměněné {tiles} nejsou na stojanu {rack}", "wymienionych {tiles} nie ma na stojaku {rack}"],
  ["exchange-no-tiles", "an exchange of no tiles", "výměna žádných kamenů", "wymiana zera płytek"],
  ["time-penalty-positive", "a time penalty cannot add points", "penalizace za čas nemůže body přidat", "kara za czas nie może dodać punktów"],
  ["director-adjustment", STRINGS.en.noteAdjustment, STRINGS.cs.noteAdjustment, STRINGS.pl.noteAdjustment],
  ["no-challenge-bonus", "{rule_set}: challenge rule {rule}, no bonus expected", "{rule_set}: pravidlo námitky {rule}, bez bonusu", "{rule_set}: zasada sprawdzania {rule}, bez premii"],
  ["challenge-bonus", "{rule_set}: the challenge bonus is {points}", "{rule_set}: bonus za námitku je {points}", "{rule_set}: premia za sprawdzenie wynosi {points}"],
  ["end-rack-unknown-letter", "end rack {rack}: a tile the rule set does not have", "zbylý stojan {rack}: kámen, který pravidla neznají", "stojak na końcu {rack}: płytka, której zasady nie znają"],
  ["unknown-letter", "unknown letter {letter} at position {position}", "neznámé písmeno {letter} na pozici {position}", "nieznana litera {letter} na pozycji {position}"],
  ["bad-length", "{tiles, plural, one {{tiles} tile} other {{tiles} tiles}}; words have {min} to {max}", "{tiles, plural, one {{tiles} kámen} few {{tiles} kameny} many {{tiles} kamene} other {{tiles} kamenů}}; slova mají {min} až {max, plural, one {{max} kámen} few {{max} kameny} many {{max} kamene} other {{max} kamenů}}", "{tiles, plural, one {{tiles} płytka} few {{tiles} płytki} many {{tiles} płytek} other {{tiles} płytki}}; słowa mają od {min} do {max, plural, one {{max} płytki} few {{max} płytek} many {{max} płytek} other {{max} płytki}}"],
  ["no-rack-in-record", STRINGS.en.noteAnalysisNoRack, STRINGS.cs.noteAnalysisNoRack, STRINGS.pl.noteAnalysisNoRack],
  ["rack-not-searched", "rack {rack}: no moves can be searched for it", "stojan {rack}: tahy pro něj nelze hledat", "stojak {rack}: nie można szukać dla niego ruchów"],
  ["no-out-bonus", "{rule_set} gives no points for the others' racks", "{rule_set} nedává body za stojany soupeřů", "{rule_set} nie daje punktów za stojaki przeciwników"],
];
addRows(SERVER_NOTES, "rn_");

// A GCG record the server cannot read or refuses (rules/gcg.py READER_REASONS, core/plays.py read_record):
// the refusal's reason (GCG_...) with its values (line, what it names), said in every language, English
// too (the server's message names the request, "<request>:3: ..."); [code, en, cs, pl].
const RECORD_ERRORS = [
  ["GCG_UNKNOWN_ENCODING", "unknown character encoding {encoding}", "neznámé kódování znaků {encoding}", "nieznane kodowanie znaków {encoding}"],
  ["GCG_NOT_IN_ENCODING", "the text is not valid {encoding}", "text není platný v kódování {encoding}", "tekst nie jest poprawny w kodowaniu {encoding}"],
  ["GCG_UNDECLARED_PLAYER", "the nickname {player} is not in the #player lines ({declared})", "přezdívka {player} není v řádcích #player ({declared})", "pseudonimu {player} nie ma w wierszach #player ({declared})"],
  ["GCG_UNEXPECTED_LINE", "expected a #pragma line or an event “>nickname: …”, not “{text}”", "čeká se řádek #pragma nebo tah „>přezdívka: …“, ne „{text}“", "oczekiwano wiersza #pragma lub ruchu „>pseudonim: …”, a nie „{text}”"],
  ["GCG_NOT_A_RECORD", "not a game record: no #player lines and no moves", "není to záznam partie: žádné řádky #player ani tahy", "to nie jest zapis partii: brak wierszy #player i ruchów"],
  ["GCG_PLAYER_NO_NICKNAME", "{pragma} needs a nickname", "{pragma} potřebuje přezdívku", "{pragma} wymaga pseudonimu"],
  ["GCG_PLAYER_OUT_OF_ORDER", "{pragma} out of order ({expected} expected)", "{pragma} mimo pořadí (čeká se {expected})", "{pragma} poza kolejnością (oczekiwano {expected})"],
  ["GCG_NICKNAME_TWICE", "the nickname {nickname} is used twice", "přezdívka {nickname} je použita dvakrát", "pseudonim {nickname} użyty dwa razy"],
  ["GCG_RACK_BEFORE_PLAYER", "{pragma} before {player}", "{pragma} před {player}", "{pragma} przed {player}"],
  ["GCG_EVENT_NO_NICKNAME", "an event must start “>nickname:”", "tah musí začínat „>přezdívka:“", "ruch musi zaczynać się od „>pseudonim:”"],
  ["GCG_TOO_FEW_FIELDS", "too few fields in “{event}” (expected: [rack] move score total)", "v řádku „{event}“ chybí údaje (čeká se: [stojan] tah body součet)", "za mało pól w wierszu „{event}” (oczekiwano: [stojak] ruch punkty suma)"],
  ["GCG_BAD_SCORE", "bad score “{score}” (expected e.g. +24 or -10)", "chybné body „{score}“ (čeká se např. +24 nebo -10)", "błędne punkty „{score}” (oczekiwano np. +24 lub -10)"],
  ["GCG_BAD_TOTAL", "bad total “{total}”", "chybný součet „{total}“", "błędna suma „{total}”"],
  ["GCG_SCORE_TOO_LONG", "the score has more than {digits, plural, one {{digits} digit} other {{digits} digits}}", "body mají víc než {digits, plural, one {{digits} číslici} few {{digits} číslice} many {{digits} číslice} other {{digits} číslic}}", "punkty mają więcej niż {digits, plural, one {{digits} cyfrę} few {{digits} cyfry} many {{digits} cyfr} other {{digits} cyfry}}"],
  ["GCG_TOTAL_TOO_LONG", "the total has more than {digits, plural, one {{digits} digit} other {{digits} digits}}", "součet má víc než {digits, plural, one {{digits} číslici} few {{digits} číslice} many {{digits} číslice} other {{digits} číslic}}", "suma ma więcej niż {digits, plural, one {{digits} cyfrę} few {{digits} cyfry} many {{digits} cyfr} other {{digits} cyfry}}"],
  ["GCG_NO_MOVE", "no move in “{event}”", "v řádku „{event}“ chybí tah", "brak ruchu w wierszu „{event}”"],
  ["GCG_BAD_PLAY", "a play is written “SQUARE WORD”, not “{move}”", "tah se píše „POLE SLOVO“, ne „{move}“", "ruch zapisuje się „POLE SŁOWO”, a nie „{move}”"],
  ["GCG_BAD_MOVE", "cannot read the move “{move}”", "tah „{move}“ nelze přečíst", "nie można odczytać ruchu „{move}”"],
  ["GCG_EXCHANGE_TOO_LARGE", "an exchange of {count, plural, one {{count} tile} other {{count} tiles}} is too large", "výměna {count, plural, one {{count} kamene} few {{count} kamenů} many {{count} kamene} other {{count} kamenů}} je příliš velká", "wymiana {count, plural, one {{count} płytki} few {{count} płytek} many {{count} płytek} other {{count} płytki}} jest za duża"],
  ["GCG_TOO_LONG", "the record has {chars, plural, one {{chars} character} other {{chars} characters}}; the server reads up to {max}", "záznam má {chars, plural, one {{chars} znak} few {{chars} znaky} many {{chars} znaku} other {{chars} znaků}}; server přečte nejvýš {max}", "zapis ma {chars, plural, one {{chars} znak} few {{chars} znaki} many {{chars} znaków} other {{chars} znaku}}; serwer czyta najwyżej {max}"],
  ["GCG_EMPTY", "the record is empty", "záznam je prázdný", "zapis jest pusty"],
  ["GCG_TOO_MANY_LINES", "the record has {lines, plural, one {{lines} line} other {{lines} lines}}; the server reads up to {max}", "záznam má {lines, plural, one {{lines} řádek} few {{lines} řádky} many {{lines} řádku} other {{lines} řádků}}; server přečte nejvýš {max}", "zapis ma {lines, plural, one {{lines} wiersz} few {{lines} wiersze} many {{lines} wierszy} other {{lines} wiersza}}; serwer czyta najwyżej {max}"],
  ["GCG_OTHER_RULES", "the record is for the rule set {recorded}, not {rule_set}", "záznam je podle pravidel {recorded}, ne {rule_set}", "zapis jest według zasad {recorded}, a nie {rule_set}"],
  ["GCG_NO_RULES", "the record names no rule set (#rules): choose a lexicon or a rule set", "záznam neuvádí pravidla (#rules): vyberte slovník nebo pravidla", "zapis nie podaje zasad (#rules): wybierz słownik lub zasady"],
  ["recordLine", "record line {line}", "řádek {line} záznamu", "wiersz {line} zapisu"],
];
addRows(RECORD_ERRORS, "re_");

// A record's refusal in the page's language: "record line 3: ..." (the values filled in one pass, so a
// quoted "{x}" in the record stays as written; numbers as the language writes them).
function recordErrorText(err) {
  const values = err.values || {};
  const fill = text => text.replace(/\{(\w+)\}/g, (m, k) => values[k] === undefined ? m :
                                    /^\d{4,}$/.test(values[k]) ? Number(values[k]).toLocaleString(LANG) : values[k]);
  const said = fill(textOf("re_" + err.reason, values));
  return values.line !== undefined ? `${fill(textOf("re_recordLine", values))}: ${said}` : said;
}

// A note ({code, values, text}) in the page's language; a note without a code is its own text.
function serverNoteText(note, prefix = "") {
  if (LANG === "en" && !prefix && note.text) return note.text;  // the server's own sentence, with its details
  const values = note.values || {};
  const code = prefix ? values[prefix.slice(0, -1)] : note.code;
  if (!code || !STRINGS.en["rn_" + code]) return note.text || "";
  const vars = {};
  for (const [k, v] of Object.entries(values)) if (k.startsWith(prefix)) vars[k.slice(prefix.length)] = v;
  if (vars.why !== undefined && code !== "illegal-play") vars.why = serverNoteText(note, prefix + "why_");
  if (vars.reason) vars.reason = (ERROR_TEXTS[LANG] || {})[vars.reason] || vars.reason;
  return t("rn_" + code, vars);
}

// The verdict is in the game's language (the lexicon's), whatever the page's language.
const VERDICTS = {
  cs: ["PLATNÉ", "NEPLATNÉ"],
  pl: ["DOPUSZCZALNE", "NIEDOPUSZCZALNE"],
  en: ["ACCEPTABLE", "NOT ACCEPTABLE"],
};

// The page's language: ?lang=cs|pl|en, then the browser's (Accept-Language), then the one chosen before.
function pickLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && STRINGS[asked]) return asked;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (STRINGS[base]) return base;
  }
  const stored = localStorage.getItem("lang");
  return stored && STRINGS[stored] ? stored : "en";
}

let LANG = pickLanguage();

// A text that puts a count beside a noun holds the noun's forms as ICU MessageFormat's plural does,
// "{n, plural, one {{n} kámen} few {{n} kameny} many {{n} kamene} other {{n} kamenů}}": the form is
// chosen by the count (the variable named) under the language's plural rules (Intl.PluralRules: cs and pl
// one/few/many/other, en one/other; tests/test_i18n_plurals.py checks that each text has its language's).
function pluralText(text, lang, vars) {
  const start = /\{(\w+), plural,/g;
  let said = "", at = 0;
  for (let m; (m = start.exec(text));) {
    const [forms, end] = pluralForms(text, start.lastIndex);
    if (!forms) break;
    const count = Number(String((vars || {})[m[1]]).replace(",", "."));
    said += text.slice(at, m.index) + (forms[new Intl.PluralRules(lang).select(count)] ?? forms.other ?? "");
    at = start.lastIndex = end;
  }
  return said + text.slice(at);
}

// The forms of a plural from text[i] ("one {...} other {...}}") by category, and where the plural ends;
// [null] when the text is not one.
function pluralForms(text, i) {
  const forms = {}, head = /\s*(?:(\w+)\s*\{|\})/y;
  for (;;) {
    head.lastIndex = i;
    const m = head.exec(text);
    if (!m) return [null];
    if (!m[1]) return [forms, head.lastIndex];
    let depth = 1, j = head.lastIndex;
    for (; depth && j < text.length; j++) depth += text[j] === "{" ? 1 : text[j] === "}" ? -1 : 0;
    if (depth) return [null];
    forms[m[1]] = text.slice(head.lastIndex, j - 1);
    i = j;
  }
}

// The text of `key` in the page's language (else English), its counted nouns in the form their count needs.
function textOf(key, vars) {
  const lang = STRINGS[LANG] && STRINGS[LANG][key] ? LANG : "en";
  return STRINGS[lang][key] ? pluralText(STRINGS[lang][key], lang, vars) : key;
}

function t(key, vars) {
  let text = textOf(key, vars);
  for (const [k, v] of Object.entries(vars || {})) {
    text = text.replace("{" + k + "}", typeof v === "number" && !Number.isInteger(v) ? v.toLocaleString(LANG) : v);  // 1,5
  }
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
    const params = new URLSearchParams(location.search);  // kept on a reload, before the browser's
    params.set("lang", LANG);
    history.replaceState(null, "", location.pathname + "?" + params);
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
    AWAITING_FINAL_PASS: "soupeř je bez kamenů: potvrďte konec pasem, nebo napadněte tah",
    CAN_MOVE: "pasovat smí jen hráč, který nemůže táhnout", CORRECTING: "v době na opravu jen tah nebo pas",
    EXCHANGE_NOT_ALLOWED: "tato pravidla výměnu nemají", BAG_TOO_SMALL: "v sáčku je na výměnu málo kamenů",
    CHALLENGES_VOID: "hra posuzuje každý tah hned: napadat nelze", NOTHING_TO_CHALLENGE: "není co napadnout",
    OWN_PLAY: "vlastní tah napadnout nelze", NOTHING_TO_UNDO: "není co vrátit",
    ADJUSTMENT_RANGE: "úprava skóre musí být nenulový počet bodů, nejvýš ±{limit}",
    DIRECTOR_KEY_OFF: "server nemá klíč rozhodčího (nastaví ho provozovatel: serve --director-key-file); otevírejte partie s tokeny rozhodčího",
    MALFORMED_PLAY: "tah nelze přečíst", UNKNOWN_LETTER: "písmeno, které hra nemá", OFF_BOARD: "tah mimo desku",
    PLAY_MISMATCH: "tah nesouhlasí s deskou", SQUARE_OCCUPIED: "pole je obsazené",
    INCOMPLETE_WORD: "slovo pokračuje za tahem: souřadnice musí být začátek slova", NO_TILES: "tah nepokládá žádný kámen",
    NOT_IN_LINE: "kameny nejsou v jedné řadě", GAP: "mezi kameny je mezera",
    BAD_BLANK_LETTER: "žolík jako písmeno, které pravidla nedovolují", TOO_MANY_TILES: "víc kamenů, než pojme stojan",
    TOO_MANY_BLANKS: "víc žolíků, než hra má", TILE_COUNT_EXCEEDED: "víc kamenů jednoho druhu, než hra má",
    TILE_NOT_IN_RACK: "kámen, který na stojanu není", TOO_FEW_TILES: "málo kamenů",
    FIRST_PLAY_NOT_ON_CENTRE: "první tah musí vést přes střed", NOT_CONNECTED: "tah nenavazuje na kameny na desce",
    WORD_TOO_SHORT: "slovo je příliš krátké", DUPLICATE_WORD: "slovo už ve hře je",
    WORD_NOT_ADMISSIBLE: "slovo není ve slovníku", UNKNOWN_RULE_SET: "pravidla {rule_set} server nezná",
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
    AWAITING_FINAL_PASS: "przeciwnik nie ma już płytek: zatwierdź koniec pasem albo sprawdź ruch",
    CAN_MOVE: "pasować może tylko gracz, który nie może wykonać ruchu", CORRECTING: "w czasie na poprawkę tylko ruch lub pas",
    EXCHANGE_NOT_ALLOWED: "te zasady nie mają wymiany", BAG_TOO_SMALL: "w worku jest za mało płytek na wymianę",
    CHALLENGES_VOID: "gra ocenia każdy ruch od razu: nie można sprawdzać", NOTHING_TO_CHALLENGE: "nie ma czego sprawdzać",
    OWN_PLAY: "nie można sprawdzać własnego ruchu", NOTHING_TO_UNDO: "nie ma czego cofnąć",
    ADJUSTMENT_RANGE: "korekta wyniku musi być niezerową liczbą punktów, najwyżej ±{limit}",
    DIRECTOR_KEY_OFF: "serwer nie ma klucza sędziego (ustawia go operator: serve --director-key-file); otwieraj gry tokenami sędziego",
    MALFORMED_PLAY: "nie można odczytać ruchu", UNKNOWN_LETTER: "litera, której gra nie ma", OFF_BOARD: "ruch poza planszą",
    PLAY_MISMATCH: "ruch nie zgadza się z planszą", SQUARE_OCCUPIED: "pole jest zajęte",
    INCOMPLETE_WORD: "słowo ciągnie się poza ruch: współrzędna musi być początkiem słowa", NO_TILES: "ruch nie kładzie żadnej płytki",
    NOT_IN_LINE: "płytki nie są w jednej linii", GAP: "między płytkami jest przerwa",
    BAD_BLANK_LETTER: "blank jako litera, na którą zasady nie pozwalają", TOO_MANY_TILES: "więcej płytek, niż mieści stojak",
    TOO_MANY_BLANKS: "więcej blanków, niż ma gra", TILE_COUNT_EXCEEDED: "więcej płytek jednego rodzaju, niż ma gra",
    TILE_NOT_IN_RACK: "płytka, której nie ma na stojaku", TOO_FEW_TILES: "za mało płytek",
    FIRST_PLAY_NOT_ON_CENTRE: "pierwszy ruch musi przechodzić przez środek", NOT_CONNECTED: "ruch nie łączy się z płytkami na planszy",
    WORD_TOO_SHORT: "słowo jest za krótkie", DUPLICATE_WORD: "słowo już jest w grze",
    WORD_NOT_ADMISSIBLE: "słowa nie ma w słowniku", UNKNOWN_RULE_SET: "serwer nie zna zasad {rule_set}",
  },
};

class ApiError extends Error {
  constructor(status, message, offline, reason, values) {
    super(message);
    this.status = status;
    this.offline = !!offline;
    this.reason = reason || "";
    this.values = values || {};  // the refusal's values (the `lexicon-values` header: letter, position, field)
  }
}

// An error answer's JSON ({"error": {...}}, or {} without one) as an ApiError: status, the server's message,
// the reason code; `response`, when there is one, for its status and `lexicon-reason` header.
function apiErrorOf(data, response) {
  const e = (data && data.error) || {};
  const values = response && response.headers.get("lexicon-values");
  return new ApiError(e.status || (response && response.status), (e.status ? e.status + ": " : "") +
                      (e.message || (response && response.statusText) || ""),
                      false, response && response.headers.get("lexicon-reason"),
                      values ? Object.fromEntries(new URLSearchParams(values)) : {});
}

const SERVER_MESSAGE_CODES = new Set(["INVALID_ARGUMENT", "OUT_OF_RANGE", 400]);
// A refusal's reason whose values the server sends (`lexicon-values`), said by the server notes' table.
const REASON_NOTES = { UNKNOWN_LETTER: "unknown-letter" };

// A build rule's name (a reading's rule, a refusal's) in the page's language: a whole name the table has
// (rule_...), else its parts, each run of parts the longest one the table knows, one unknown part as it is.
function ruleText(rule) {
  const key = "rule_" + String(rule).replace(/\W+/g, "_");
  if (STRINGS.en[key]) return t(key);
  const parts = String(rule).split("-"), said = [];
  for (let i = 0; i < parts.length;) {
    let j = parts.length;
    while (j > i + 1 && !STRINGS.en["part_" + parts.slice(i, j).join("-")]) j--;
    const run = "part_" + parts.slice(i, j).join("-");
    said.push(STRINGS.en[run] ? t(run) : parts[i]);
    i = j;
  }
  return said.join(", ");
}

// A reading's tag ("ACC;ANIM;MASC;N;SG") in the page's language, its features in the table's order.
function tagText(tag) {
  const features = String(tag).split(";").filter(Boolean);
  features.sort((a, b) => (TAG_ORDER.has(a) ? TAG_ORDER.get(a) : 999) - (TAG_ORDER.has(b) ? TAG_ORDER.get(b) : 999));
  return features.map(f => STRINGS.en["tag_" + f] ? t("tag_" + f) : f).join(", ");
}

// How the Czech build derived a place-name adjective (build_tools/czech/place_rules.py RULES), by rule id;
// a rule not here is said by the build's own text (an ending change such as "-ník -> -nický" needs none).
const PLACE_RULES = [
  ["regular", "regular derivation", "pravidelné odvození", "regularne derywowanie"],
  ["flagless-ice", "a name in -ice the dictionary lists without flags", "jméno na -ice, které slovník uvádí bez příznaků", "nazwa na -ice, którą słownik podaje bez flag"],
  ["irregular", "irregular derivation", "nepravidelné odvození", "nieregularne derywowanie"],
  ["compound", "two-word name, adjective + o + place", "dvouslovné jméno, přídavné jméno + o + místo", "nazwa dwuwyrazowa, przymiotnik + o + miejsce"],
  ["possessive", "two-word name, possessive + o + place", "dvouslovné jméno, přivlastňovací + o + místo", "nazwa dwuwyrazowa, dzierżawczy + o + miejsce"],
  ["adjective-name", "a name that is an adjective form", "jméno, které je tvarem přídavného jména", "nazwa będąca formą przymiotnika"],
  ["area", "an area named after the place", "oblast pojmenovaná po místě", "obszar nazwany od miejscowości"],
  ["adjective-two-word", "two-word name, adjective form + noun", "dvouslovné jméno, tvar přídavného jména + podstatné jméno", "nazwa dwuwyrazowa, forma przymiotnika + rzeczownik"],
  ["common-noun", "a name spelled like a common noun in -ice, with a surname of the adjective", "jméno psané jako obecné podstatné jméno na -ice, s příjmením od přídavného jména", "nazwa pisana jak rzeczownik pospolity na -ice, z nazwiskiem od przymiotnika"],
];
addRows(PLACE_RULES, "placeRule_");

// What the build said of a refused reading (Refusal.detail) in the page's language where its form is known.
function refusalDetailText(detail) {
  const place = /^place name (.+), rule (\S+): (.+)$/.exec(detail);
  if (!place) return detail;
  const how = STRINGS.en["placeRule_" + place[2]] ? t("placeRule_" + place[2]) : place[3];
  return t("detailPlaceName", { place: place[1], how });
}

// Where a reading came from (lexicon.py origin_of, generator_of), in the page's language.
function originText(origin) {
  return String(origin).split(" or ").map(part => {
    const key = "origin_" + part.replace(/\W+/g, "_");
    return STRINGS.en[key] ? t(key) : part;
  }).join(` ${t("or")} `);
}

// What the page says about an error, in its language: the code's text where this language has one.
function errorText(err) {
  if (err.offline) return t("offline");
  if (/^GCG_/.test(err.reason) && STRINGS.en["re_" + err.reason]) return t("error") + ": " + recordErrorText(err);
  const texts = ERROR_TEXTS[LANG] || {};
  const code = texts[err.reason] ? err.reason : err.status;
  if (!texts[code]) return t("error") + ": " + err.message;
  // a refusal with its values (an unknown letter, errors.py FieldError) is said whole, with what it names
  if (REASON_NOTES[code] && err.values.letter !== undefined) return t("error") + ": " + t("rn_" + REASON_NOTES[code], err.values);
  // a client's mistake: the server's own message names the field and what is wrong with it
  const own = SERVER_MESSAGE_CODES.has(code) ? err.message.replace(/^[A-Z_]+: /, "") : "";
  const said = texts[code].replace(/\{(\w+)\}/g, (m, k) => err.values[k] ?? m);  // the values it names
  return t("error") + ": " + said + (own ? `: ${own}` : ` (${code})`);
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
