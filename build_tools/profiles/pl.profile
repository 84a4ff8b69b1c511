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
# Features used: PROPN ABBR UNKNOWN CLITIC NONSTD ADJA FUSED N V.MSDR ADJ ADV V V.PTCP V.CVB PRO NUM
#                ADP CONJ PART INTJ PRED FIXED
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
deny      marked-incorrect   NONSTD
deny      combining-form     ADJA     # lipcowo- (lipcowo-sierpniowy): bound, not a word
allow     guessed            GUESSED  # inflected by analogy (guess_pl): a headword SGJP lacks
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
deny      other              *
