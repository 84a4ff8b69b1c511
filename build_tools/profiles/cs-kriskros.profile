# Kris Kros (Klasik), seed 004 (RULES.md §7 `cs-kriskros`). Lengths count TILES (CH is one tile).
# Nouns, pronouns, numerals: nominative singular and plural (verbal nouns dělání, bytí included).
# Adjectives: nominative of all genders and numbers, plus comparative and superlative; short
# forms (šťasten); possessive adjectives; present-participle adjectives that are headwords.
# Verbs (reflexives without se/si): both infinitives, present and future 1st-3rd person sg/pl
# (colloquial and bookish endings), the l-participle in all genders and numbers, the passive
# participle, the imperative; negated verbs and negated headwords (NEG allowed).
# Adverbs in all three degrees; prepositions, conjunctions, particles.
# Excluded: interjections, abbreviations, capitalised words, clitic contractions (byls, tys, žes),
# transgressives, conditional auxiliaries (bych, bys), bound morphemes, multi-word forms.
# Adjectives derived from place names (ostravská), with their comparatives and adverbs (pražštější,
# pražsky): the Czech expander tags them TOPO
# (build_tools/czech/places.py; country, nation and language adjectives such as český stay).
#
# Tags the Czech expander must emit: see cs-box.profile (same vocabulary).
#
# Features used: PROPN ABBR CLITIC UNKNOWN INTJ TOPO V.CVB N PRO NUM NOM ADJ SHORT V NFIN IND PRS FUT
#                V.PTCP ACT PRF PASS IMP ADV ADP CONJ PART
[profile]
name = cs-kriskros
language = cs
min-length = 2
max-length = 15
letters = aábcčdďeéěfghiíjklmnňoópqrřsštťuúůvwxyýzž

[rules]
deny      unknown-lemma      UNKNOWN
deny      proper-name        PROPN
deny      abbreviation       ABBR
deny      clitic             CLITIC
deny      interjection       INTJ
deny      transgressive      V.CVB
deny      place-name-adjective TOPO
allow     noun-nominative    N NOM
allow     pronoun-nominative PRO NOM
allow     numeral-nominative NUM NOM
allow     adjective-nominative ADJ NOM
# ne- adjectives are admitted: seed 004 admits them when they are headwords, and cs_CZ.dic gives
# the ne- flag (N) to 28% of adjectives only, velký/YKN -> nevelký being seed 004's own example.
# (From a --headwords list, the list decides: a line gives only its own word's forms, and
# nezelený needs its own entry; build_tools/czech/driver.py, kept.)
allow     adjective-short    ADJ SHORT !ACC      # šťasten, šťastna, šťastno (not šťastnu)
allow     infinitive         V NFIN
allow     present-future     V IND PRS|FUT !PST
allow     l-participle       V.PTCP ACT PRF
allow     passive-participle V.PTCP PASS !ACC     # nesen, nesena ... (not the accusative nesenu)
allow     imperative         V IMP
allow     adverb             ADV
allow     preposition        ADP
allow     conjunction        CONJ
allow     particle           PART
deny      no-rule-admits     *
