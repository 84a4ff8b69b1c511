"""The scan for English on a Czech or Polish page: every word of the page's rendered text (and of its
options, placeholders, titles and labels) against the words of the English translation table, less the
words the page's own table also uses (Token, GCG, SVG, PNG, blank ...) and the names given in `allowed`.
Text marked translate="no" (a record author's own notes) is left out: it is shown as its author wrote it."""

from __future__ import annotations

SCAN = """allowed => {
  // words are runs of letters standing alone: a game id such as add1809... holds no word
  // a text's plural forms ("{n, plural, one {...} other {...}}") are its words, the syntax's keywords are not
  const words = text => (String(text).replace(/\\{\\w+, plural,|\\b(?:zero|one|two|few|many|other) \\{/g, " ").match(/[\\p{L}\\p{N}_]+/gu) || []).filter(w => /^\\p{L}{3,}$/u.test(w)).map(w => w.toLowerCase());
  const own = new Set([...Object.values(STRINGS[LANG]), ...Object.values((typeof ERROR_TEXTS === 'object' && ERROR_TEXTS[LANG]) || {})].flatMap(words));
  const english = new Set(Object.values(STRINGS.en).flatMap(words).filter(w => !own.has(w) && !allowed.includes(w)));
  // a record's own text (its author's #note lines) is marked translate="no": shown as written, not scanned
  const quoted = [...document.querySelectorAll('[translate="no"]')].filter(el => !el.hidden);
  for (const el of quoted) el.hidden = true;
  const shown = [document.body.innerText, document.title];
  for (const el of quoted) el.hidden = false;
  for (const el of document.querySelectorAll('[placeholder],[title],[aria-label]')) {
    shown.push(el.getAttribute('placeholder') || '', el.getAttribute('title') || '', el.getAttribute('aria-label') || '');
  }
  for (const o of document.querySelectorAll('option')) shown.push(o.textContent);
  return [...new Set(shown.flatMap(words).filter(w => english.has(w)))];
}"""


def english_words(page, allowed=()) -> list[str]:
    return page.evaluate(SCAN, [w.lower() for w in allowed])


def assert_no_english(page, allowed=()):
    lang = page.evaluate("() => LANG")
    assert lang in ("cs", "pl"), lang
    found = english_words(page, allowed)
    if found:
        text = page.evaluate("() => document.body.innerText")
        lines = [line for line in text.splitlines() if any(w in line.lower() for w in found)]
        raise AssertionError(f"English on the {lang} page: {found} in {lines}")
