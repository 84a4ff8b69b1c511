# Czech Scrabble tournament variant KLASIK (RULES.md §7, external: Czech Scrabble Association).
# Nouns, adjectives, pronouns, numerals only in the nominative singular and plural; all verb forms
# except transgressives (infinitive, present/future, imperative, l-participle, passive
# participle, conditional forms of být); adverbs, prepositions, conjunctions, particles;
# no interjections. Verbal nouns are nouns (nominative only). Short adjective forms (šťasten)
# are nominatives and admitted; possessive adjectives are adjectives.
#
# Tags the Czech expander must emit: see cs-box.profile (same vocabulary).
#
# Features used: PROPN ABBR CLITIC UNKNOWN N ADJ PRO NUM NOM SHORT V V.PTCP V.CVB ADV ADP CONJ
#                PART INTJ
[profile]
name = cs-klasik
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
allow     noun-nominative    N NOM
allow     adjective-nominative ADJ NOM
allow     adjective-short    ADJ SHORT !ACC      # nominative short forms only
allow     pronoun-nominative PRO NOM
allow     numeral-nominative NUM NOM
allow     verb               V
allow     participle         V.PTCP
allow     adverb             ADV
allow     preposition        ADP
allow     conjunction        CONJ
allow     particle           PART
deny      no-rule-admits     *
