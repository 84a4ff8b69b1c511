# Czech Scrabble, box rules (RULES.md §7 `cs` box rules; seed 000 §1.9).
# Headwords of a standard Czech dictionary; nouns only nominative singular and plural; adjectives
# nominative of all genders and both numbers; verbs: infinitive, present tense 1st-3rd person
# singular and plural (both NESEME and NESEM: two forms with the same tag), imperative; pronouns
# restricted likewise (nominative). Other word classes and two-letter words are "by agreement":
# the rules marked OPTION below; delete or flip them for a club's agreement.
#
# Tags the Czech expander must emit for this profile (build_tools/tags.py vocabulary):
#   noun              N;NOM;SG  N;NOM;PL            (+ MASC|FEM|NEUT, ANIM|INAN as known)
#   verbal noun       N;V.MSDR;NOM;SG               (dělání: a noun)
#   adjective         ADJ;NOM;MASC;SG ...           (CMPR/SPRL for degrees, POSS possessive,
#                                                    SHORT short forms, NEG for ne- forms)
#   pronoun/numeral   PRO;NOM;SG  NUM;NOM;PL
#   infinitive        V;NFIN
#   present           V;IND;PRS;1;PL   (perfective verbs' present-form future: V;IND;FUT;1;PL)
#   imperative        V;IMP;2;SG  V;IMP;1;PL
#   l-participle      V.PTCP;ACT;PRF;MASC;SG        passive participle  V.PTCP;PASS;FEM;SG
#   transgressive     V.CVB;PRS;MASC;SG  V.CVB;PST;...   conditional  V;COND;1;SG (bych)
#   adverb ADV (+CMPR/SPRL), ADP, CONJ, PART, INTJ; PROPN proper names; ABBR abbreviations;
#   CLITIC contractions (byls, tys, žes)
#
# Features used: PROPN ABBR CLITIC UNKNOWN N NOM ADJ CMPR SPRL PRO NUM V NFIN IND PRS FUT IMP
#                ADV ADP CONJ PART INTJ
[profile]
name = cs-box
language = cs
min-length = 2
max-length = 15
letters = aábcčdďeéěfghiíjklmnňoópqrřsštťuúůvwxyýzž

[rules]
deny      unknown-lemma      UNKNOWN
deny      proper-name        PROPN
deny      abbreviation       ABBR
deny      clitic             CLITIC
allow     noun-nominative    N NOM
allow     adjective-nominative ADJ NOM !CMPR !SPRL
allow     pronoun-nominative PRO NOM
allow     numeral-nominative NUM NOM
allow     infinitive         V NFIN
allow     present            V IND PRS|FUT !PST
allow     imperative         V IMP
allow     adverb             ADV !CMPR !SPRL   # OPTION (by agreement)
allow     preposition        ADP               # OPTION (by agreement)
allow     conjunction        CONJ              # OPTION (by agreement)
allow     particle           PART              # OPTION (by agreement)
deny      interjection       INTJ              # OPTION (by agreement): flip to allow
deny      no-rule-admits     *
