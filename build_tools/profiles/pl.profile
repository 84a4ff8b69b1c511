# Polish word-game admissibility (RULES.md §7 `pl`; PFS rules for OSPS).
# Every correct grammatical form of every common word, 2-15 letters. Excluded: proper names
# (also lowercase ones: any SGJP name class other than common noun), abbreviations, words the
# analyser does not know, clitic segments (-em, -śmy alone), forms SGJP marks incorrect,
# ad-adjectival combining forms (ADJA: lipcowo- in lipcowo-sierpniowy; on the sjp.pl game list
# only 14% of such forms of 3-8 letters appear, against 93% of all other forms),
# hyphens/apostrophes/non-letters, letters outside the Polish alphabet.
# Kept: locatives and other forms used only next to other words, forms used only with "się",
# "po ...sku" forms (ADJP), fixed-phrase words (FIXED), nie- forms SGJP generates (gerunds and
# participles: NEG), fused forms joined by build_tools/expand_pl.py (FUSED).
#
# Where forms come from (build_tools/expand_pl.py, guess_pl.py): SGJP's paradigm is the authority
# for every lemma SGJP knows; a Hunspell (pl_PL.dic) stem SGJP knows adds only the affix forms
# SGJP's paradigm lacks that are no nie- form, no form SGJP rejects and end like a real word
# (HUNSPELL: abisalów, beczany; 95% of them on the list); a stem SGJP does not know is inflected by
# analogy with an SGJP lemma and only the parts of that paradigm Hunspell attests are kept
# (GUESSED); unflagged stems SGJP does not know (culture, abrazo) and stems SGJP knows only as
# abbreviations (np, mbar is unknown and unflagged) are not admitted (build summary: reasons).
#
# Hunspell is a second witness (build with --hunspell): an SGJP form of a lemma whose citation
# form pl_PL.dic makes, but which pl_PL.dic does not make itself, is tagged UNATTESTED
# (expand_pl.hunspell_words; a fused form is witnessed by its base form, a derived adverb's
# admission is decided as for a form of its adjective headword). sjp.pl's spelling dictionary and its game list
# come from one dictionary, so such a form is mostly no game word: the deny rules below keep
# the classes where at least 3 off-list forms go per on-list form lost (2-8 letters, game list
# of 2020, measuring only). A guessed paradigm of a .dic entry SGJP lacks has its admission
# decided by the same witness (GUESSED UNATTESTED: the guessed forms the entry's own dictionary does not make).
# Adjectives are denied except those of lemmas in -ły (LY: doschły, zmilkły, adjectives of a
# verb's past stem, whose unattested forms are mostly on the list: 54 off / 169 on) and the
# comparatives (0 off / 75 on).
# Left alone (below 3 to 1): passive participles 1.5, imperatives 2.5 (perfective ones 3.0, see
# below), fused forms 2.5, gerunds 0.3.
# Measured for session 11 against main's lexicon (bench/bench_lexicon.py): the rules
# vowelless-word, unattested-guess and unattested-adjective together removed 954 off-list forms
# and 60 on-list ones.
#
# SGJP qualifiers, decided by measurement against the sjp.pl game list of 2020 (measuring
# only; the share of the forms of 2-8 letters that only a reading with this qualifier admits,
# and that are on that list, counted on lemmas whose citation form sjp.pl attests; measured
# before the UNATTESTED rules, which now deny the unattested ARCH/DIAL/INDIV forms):
#   daw./przest. ARCH   75% / 91% on the list (7,583 + 7,893 words): admitted
#   rzad.        RARE   84% (4,405 words): admitted
#   gwar./reg.   DIAL   87% / 91%: admitted
#   pot.         COLL   96%: admitted
#   wulg.        VULG   96%: admitted
#   indyw.       INDIV  65% (162 words on the list, 88 not): admitted; deny it for a stricter list
#   niepopr.     NONSTD  3% (forms SGJP itself marks incorrect): denied below
# Measured again for issue 26 per qualifier, for the emphatic -że and neuter fused forms of
# qualified lemmas and for SGJP's multi-word fragments (frag: propos, eleison beside dawien, friko;
# 6 off / 34 on): none reaches 3 to 1, all stay admitted (docs/polish-precision.md).
# To exclude a class, put a deny rule before the allow rules, e.g. `deny archaic ARCH` or
# `deny guessed-paradigm GUESSED` (no guessed headword).
#
# Features used: PROPN ABBR UNKNOWN CLITIC NONSTD ADJA UNATTESTED GUESSED HUNSPELL FUSED N V.MSDR ADJ ADV V
#                NOVOWEL LY
#                V.PTCP V.CVB PRO NUM ADP CONJ PART INTJ PRED FIXED ARCH DIAL INDIV RARE NEG IMP ACT ADJP
#                CMPR SPRL PFV
[profile]
name = pl
language = pl
min-length = 2
max-length = 15
letters = aąbcćdeęfghijklłmnńoóprsśtuwyzźż

[rules]
# ACTION  NAME               CONDITION        first match wins
deny      unknown-lemma      UNKNOWN
deny      proper-name        PROPN
deny      abbreviation       ABBR
deny      clitic             CLITIC
deny      marked-incorrect   NONSTD   # SGJP niepopr.: 3% on the game list
deny      combining-form     ADJA     # lipcowo- (lipcowo-sierpniowy): bound, not a word
# UNATTESTED: the build's Hunspell dictionary has the lemma but not this form (see above);
# measured (off-list forms removed / on-list forms lost, 2-8 letters, in this order):
# NOVOWEL: a lemma without a vowel is an abbreviation SGJP inflects as its full word (mgr, płk,
# nr, pkt, bp, ck); interjections (hm, pst) and prepositions (w, z) have none either and stay
deny      vowelless-word     NOVOWEL N|ADJ                 # 131 / 4 (mgra, płkiem; lost: dry, fff, psss, psst)
deny      unattested-guess   UNATTESTED GUESSED            # 591 / 26 (abortusa, akyni; lost: okary, zbiegnął)
deny      unattested-archaic UNATTESTED ARCH|DIAL|INDIV    # 2,249 / 93 (acankowi, absydów)
deny      unattested-nie     UNATTESTED NEG ADJ|ADV        # 74 / 0 (niedziwy, niegnili)
deny      unattested-rare-verb UNATTESTED RARE V|V.PTCP|V.CVB  # 632 / 102 (bazgramy, buchłem)
deny      unattested-noun    UNATTESTED N !V.MSDR          # 1,985 / 410 (abatowie, allelów)
deny      unattested-verb    UNATTESTED V !IMP !FUSED      # 200 / 50 (bladnęła, zsiwili)
# the emphatic -że/-ż of a perfective imperative pl_PL.dic does not make (the witness of a fused
# form is its base form): 55 / 15 (dogodźże, naórzmyż, jmijże; lost: pogodźże, oziąbże, użądlże),
# measured for issue 26 (docs/polish-precision.md); imperfective ones stay (41 / 23)
deny      unattested-perfective-emphatic UNATTESTED FUSED IMP PFV
# not enabled: perfective imperatives, 203 / 67 (doórz, dogodźże; lost: pogodź, oziąb), just at
# the bar, and half of the game-list words lost are held-out words (bench: held-out recall)
# deny    unattested-perfective-imperative UNATTESTED IMP PFV
deny      unattested-adjective UNATTESTED ADJ !CMPR !SPRL !LY  # 232 / 30 (aniela, gęgawym; lost: płone, kicich)
deny      unattested-active-participle UNATTESTED V.PTCP ACT  # 28 / 4 (cykocący)
deny      unattested-transgressive UNATTESTED V.CVB        # 16 / 3 (grzebąc)
deny      unattested-numeral UNATTESTED NUM                # 11 / 0 (dwunasto, ośm)
deny      unattested-adjp    UNATTESTED ADJP               # 12 / 1 (blisku)
# not enabled: derived adverbs of adjective headwords (bagażowo; lost: końcowo, antenowo). On the
# default build it measured 74 / 0, but only because the game-list headword lists name every listed
# adverb as a lemma of its own; in the held-out build (headwords from half the list, bench) it
# removes 73 off-list forms and 346 half-B words
# deny    unattested-adverb  UNATTESTED ADV !CMPR !SPRL
# not enabled: words SGJP knows only inside multi-word expressions (frag), 6 / 34 (del, eleison,
# propos, session; lost: dawien, friko, bezcen, dyrdum): SGJP marks foreign fragments and the native
# words PFS admits as "used only next to other words" alike, and pl_PL.dic lists both unflagged
# deny    phrase-fragment    FIXED
allow     guessed            GUESSED  # inflected by analogy (guess_pl): a headword SGJP lacks
allow     hunspell-affix-form HUNSPELL # an affix form of an SGJP lemma SGJP lacks (abisalów): 95% on the list
allow     fused-form         FUSED
allow     verbal-noun        V.MSDR
allow     noun               N
allow     adjective          ADJ
allow     adverb             ADV
allow     participle         V.PTCP
allow     transgressive      V.CVB
allow     verb               V
allow     pronoun            PRO
allow     numeral            NUM
allow     preposition        ADP
allow     conjunction        CONJ
allow     particle           PART
allow     interjection       INTJ
allow     predicative        PRED
allow     fixed-phrase-word  FIXED
deny      no-rule-admits     *
