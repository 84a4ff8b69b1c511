# Czech Scrabble tournament variant PLUS (RULES.md §7): KLASIK plus all cases and transgressives.
# Nouns, adjectives, pronouns, numerals in every case and number; every verb form including
# transgressives; adverbs, prepositions, conjunctions, particles; no interjections.
#
# Tags the Czech expander must emit: see cs-box.profile (same vocabulary).
#
# Features used: PROPN ABBR CLITIC UNKNOWN N ADJ PRO NUM V V.PTCP V.CVB ADV ADP CONJ PART INTJ
[profile]
name = cs-plus
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
allow     noun               N
allow     adjective          ADJ
allow     pronoun            PRO
allow     numeral            NUM
allow     verb               V
allow     participle         V.PTCP
allow     transgressive      V.CVB
allow     adverb             ADV
allow     preposition        ADP
allow     conjunction        CONJ
allow     particle           PART
deny      no-rule-admits     *
