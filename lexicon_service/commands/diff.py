"""`lexicon-service diff A.lex B.lex`: forms added and removed from lexicon A to lexicon B.

    lexicon-service diff old.lex new.lex
    + zrobiłbym
    - zrobiłom
    2 added, 1 removed (A: 10 forms, B: 11 forms)

Lines ``+ form`` (in B, not in A) and ``- form`` (in A, not in B), sorted by tile key; a summary
line goes to stderr. Exit status 0 when the lexicons hold the same forms, 1 otherwise.
"""

from __future__ import annotations

import sys

from lexicon_service.commands.check import add_lexicons_dir_argument, open_lexicon


def add_parser(subparsers) -> None:
    p = subparsers.add_parser("diff", help="list forms added and removed between two lexicons",
                              description=__doc__.split("\n\n")[0])
    p.add_argument("a", metavar="A.lex")
    p.add_argument("b", metavar="B.lex")
    add_lexicons_dir_argument(p)
    p.set_defaults(func=run)


def run(args) -> int:
    a = open_lexicon(args.a, args.lexicons)
    b = open_lexicon(args.b, args.lexicons)
    ka, kb = a.keys(), b.keys()
    out = sys.stdout
    ta, tb = a.display, b.display
    added = removed = 0
    i = j = 0
    lines = []
    while i < len(ka) or j < len(kb):
        if j >= len(kb) or (i < len(ka) and ka[i] < kb[j]):
            lines.append(f"- {ta(ka[i])}\n")
            removed += 1
            i += 1
        elif i >= len(ka) or kb[j] < ka[i]:
            lines.append(f"+ {tb(kb[j])}\n")
            added += 1
            j += 1
        else:
            i += 1
            j += 1
        if len(lines) >= 10000:
            out.write("".join(lines))
            lines.clear()
    out.write("".join(lines))
    out.flush()
    print(f"{added} added, {removed} removed (A: {len(ka)} forms, B: {len(kb)} forms)", file=sys.stderr)
    return 1 if (added or removed) else 0
