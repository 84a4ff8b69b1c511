"""`lexicon-build`: compile word sources into a lexicon for one rule set.

    lexicon-build --rules pl-scrabble --headwords data/pl/headwords.txt \
                  --headwords data/pl/headwords-sjp-growy.txt \
                  --headwords data/pl/headwords-sjp-growy-guessed.txt \
                  --hunspell data/pl/pl_PL.dic -o lexicons/pl-scrabble.lex    (the default Polish build)

Options: build_tools/arguments.py. Stages (``run``): read the sources (sources.py; ``_read`` turns each into passes, ``Pass``) ->
expand and admit (pipeline.run over every pass: its expand function and the profile's admission in
worker processes; the passes come from sources.LIST_PASSES for word and tagged lists and from the
languages, the table ``LANGUAGES``: polish/language.py, czech/language.py) -> compile (compile.py: canonical
tables, tries) -> save (save.py, atomic write). Sources can be combined and repeated.

What each source means per language:
- --headwords: lemmas expanded by the language's generator (Polish: Morfeusz 2 / SGJP;
  Czech: build_tools.czech).
- --words: already inflected forms, admitted as they are (rule word-list; length/letters still checked).
- --tagged: form<TAB>lemma<TAB>tag, admitted or refused by the profile's tag rules.
- --hunspell X.dic (X.aff beside it): Czech: stems with their paradigm flags go to the Czech
  expander. Polish: SGJP's paradigm for a stem SGJP knows; a stem it does not know is
  inflected by analogy with an SGJP lemma of the --headwords lists, corroborated by the
  entry's affix forms (polish/passes.hunspell_entry_forms, polish/guess.py); the affix forms are never
  admitted on their own. Headwords SGJP does not know are inflected by analogy too.
- --models (Polish): a headword list whose SGJP lemmas are analogy models besides the build's own
  (build_tools/polish/models.py); their forms are not admitted.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import shutil
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterator
import resource

from lexicon_service import __version__

from build_tools import pipeline
from build_tools.defaults import default_models, default_sources
from build_tools.errors import BuildError
from build_tools.leave_fitting import DEFAULT_BUILD_GAMES, DEFAULT_GAMES, MAX_GAMES
from build_tools.winprob import DEFAULT_GAMES as WIN_TABLE_GAMES
from build_tools.model import HeadwordEntry, Rejection
from build_tools.parallel import sigterm_action
from build_tools.arguments import build_parser
from build_tools.pipeline import Pass
from lexicon_service.command_line import error_line, run_reporting_errors
from build_tools.compile import Compiler
from build_tools.profiles import ProfileError, load_profile
from build_tools.save import add_leave_table, add_move_graph, add_win_table, check_output, save_lexicon
from build_tools.sources import LIST_PASSES, aff_path_for, list_items, read_headwords
from build_tools.sources import check_text_source, hunspell_files, manifest_entry
from lexicon_service.lexicon import NAME_RE
from lexicon_service.lexicon_format import move_graph_bytes, refusals_bytes, tables_bytes
from lexicon_service.rules import RuleSetError, load_rule_set


class Terminated(BaseException):
    """SIGTERM, raised in the main process so that a save in progress cleans up (as on Ctrl-C)."""


class Progress:
    """A progress bar on stderr ('\\r'-redrawn on a terminal, a line every 10% otherwise)."""

    def __init__(self, label: str, total: int, enabled: bool = True) -> None:
        self.label, self.total, self.enabled = label, max(total, 1), enabled
        self.tty = sys.stderr.isatty()
        self.start = time.monotonic()
        self.last = 0.0
        self.last_decile = -1

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        frac = min(done / self.total, 1.0)
        if self.tty:
            if now - self.last < 0.2 and done < self.total:
                return
            self.last = now
            bar = "#" * int(frac * 30)
            sys.stderr.write(f"\r{self.label} [{bar:<30}] {frac:6.1%} {done}/{self.total} "
                             f"{now - self.start:5.1f}s")
            sys.stderr.flush()
        else:
            decile = int(frac * 10)
            if decile > self.last_decile:
                self.last_decile = decile
                sys.stderr.write(f"{self.label}: {frac:.0%} ({done}/{self.total}, "
                                 f"{now - self.start:.1f}s)\n")

    def finish(self) -> None:
        if self.enabled and self.tty:
            sys.stderr.write("\n")


def _count_lines(path: Path) -> int:
    n = 0
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            n += block.count(b"\n")
    return n


def _source_stream(records, compiler, progress, counter: list):
    """The items of a source for the pipeline; rejections of the reader go straight to the report.
    ``counter``: [lines read, lines read at the last progress update]."""
    report = compiler.report
    for item in records:
        if item.__class__ is tuple:         # a run of a list's readings (sources.list_items)
            counter[0] += len(item[3])
        else:
            counter[0] += 1
        if counter[0] - counter[1] >= 5000:
            counter[1] = counter[0]
            progress.update(counter[0])
        if item.__class__ is Rejection:
            compiler.add_rejection(item)
            continue
        if item.__class__ is HeadwordEntry:
            report.headwords += 1
        yield item


# --- the languages (build_tools/polish/language.py, build_tools/czech/language.py): the passes each
# runs over headword and Hunspell sources; a build imports only its own language's (module, class)
LANGUAGES = {"pl": ("build_tools.polish.language", "Polish"), "cs": ("build_tools.czech.language", "Czech")}


def _language_class(language: str):
    """The class of a rule set's language, or None when no expander is known for it."""
    where = LANGUAGES.get(language)
    return getattr(importlib.import_module(where[0]), where[1]) if where is not None else None


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _leave_games(args) -> int:
    """Self-play games for the build's leave table: --leave-games, else DEFAULT_BUILD_GAMES for a
    --defaults build and none for others."""
    if args.leave_games is not None:
        return args.leave_games
    return DEFAULT_BUILD_GAMES if args.defaults else 0


def _refusal_details(lang, refused: dict) -> dict[str, str]:
    """{headword: what explain adds to its refusals} from a language that says more than the rule
    (Czech: the place name and derivation of a place-name adjective); {} from the others."""
    details = getattr(lang, "refusal_details", None)
    if details is None or not refused:
        return {}
    return details(sorted({head for pairs in refused.values() for _rule, head in pairs}))


def run(args) -> int:
    """read the sources -> expand and admit (build_tools.pipeline) -> compile -> save."""
    t0 = time.monotonic()
    rule_set, profile = _rules_and_profile(args)
    language = rule_set.language
    lang_class = _language_class(language)
    sources, manifest_sources = _check_sources(args, getattr(lang_class, "hunspell_encoding", None))
    if args.paradigms and not args.headwords:
        raise BuildError("--paradigms says how to inflect --headwords lists, and there are none "
                         "(a --hunspell dictionary is inflected by its own flags)")
    out = check_output(Path(args.output))
    name = _lexicon_name(args, out)
    lang = _language(args, lang_class, manifest_sources)
    log = _open_rejected(args, sources, out)
    if not args.quiet:
        _announce(args, language, out, rule_set.id)
    compiler = Compiler(profile, rule_set.tile_set, rejected_log=log)
    builder = {"name": "lexicon-build", "version": __version__}
    if lang is not None:
        builder.update(lang.builder_info())
    # The build's objects live until it ends and make no cycles worth collecting: the collector's
    # full passes over them cost a Polish build seconds in this process (the workers turn it off
    # per chunk; they inherit this)
    gc_enabled = gc.isenabled()
    gc.disable()
    spent: list = []        # the last pass (its state: millions of objects), let go in ``meanwhile``
    encoded: list = []

    def meanwhile(tables: dict) -> None:
        # while the forms trie is built: free what the passes kept, encode tables.json
        spent.clear()
        if lang is not None:
            lang.release()
        encoded.append(tables_bytes(tables))

    try:
        for step in _read(args, sources, language, lang, compiler, builder):          # read
            pipeline.run(compiler, step.items, step.language, workers=args.workers,   # expand and admit
                         defer=step.defer)
            spent[:] = [step]
        step = None
        details = _refusal_details(lang, compiler.refused)
        if not args.quiet:
            sys.stderr.write(f"compiling {len(compiler.keys)} forms...\n")
        forms, heads, tables, readings, n_readings = compiler.finish(meanwhile)      # compile
    finally:
        gc.unfreeze()        # Polish.attested may have frozen the build's objects
        if gc_enabled:
            gc.enable()
        if log is not None:
            log.close()
    report = compiler.report
    if not forms:  # a lexicon refusing every word would be served as if it were one
        rejected = sum(compiler.report.rejected_by_reason.values())
        given = ", ".join(f"--{kind} {f}" for kind, f in sources)
        notes = "".join(f"\n{note}" for note in getattr(lang, "notes", ()))  # e.g. how to guess from more models
        raise BuildError(f"no form was admitted from {given} ({rejected} refused), so nothing was written to {out}: "
                         f"is the list empty, or does the profile refuse every form?{notes}")
    counts = {"forms": len(forms), "headwords": len(heads), "readings": n_readings,
              "admitted_by_rule": dict(sorted(report.admitted_by_rule.items())),
              "rejected_by_reason": dict(sorted(report.rejected_by_reason.items())),
              **(lang.counts(compiler) if lang is not None else {})}
    manifest = _manifest(name, rule_set, profile, manifest_sources, counts, builder)
    move_graph = move_graph_bytes(forms.keys(), rule_set)                              # move graph
    save_lexicon(out, forms, heads, tables, readings, manifest,                       # save (and leaves)
                 tables_bytes=encoded[0] if encoded else None, move_graph=move_graph,
                 refusals=refusals_bytes(compiler.refused, details) if compiler.refused else None,
                 leave_games=_leave_games(args), quiet=args.quiet, threads=args.workers)
    print_summary(out, manifest, report, time.monotonic() - t0, getattr(lang, "given", None))
    for note in getattr(lang, "notes", ()):
        print(note, file=sys.stderr)
    return 0


def _language(args, lang_class, manifest_sources: list):
    """The build's language object (None for a language without passes of its own), which may add
    its inputs to ``manifest_sources``; BuildError for an option it does not take."""
    lang = lang_class(args, manifest_sources) if lang_class is not None else None
    if lang is None and args.paradigms:
        raise BuildError("--paradigms is for Czech and Polish builds")
    if lang is None and args.models:
        raise BuildError("--models is for Polish builds")
    return lang


def _announce(args, language: str, out: Path, rule_set_id: str) -> None:
    # the first progress bar of a Polish build comes after Morfeusz has loaded (6-13 s)
    # (--models and --paradigms have loaded it already, reading their lists)
    morfeusz = language == "pl" and (args.headwords or args.hunspell) and not (args.models or args.paradigms)
    first = "; loading Morfeusz 2 (SGJP) first, which takes about 10 s" if morfeusz else ""
    sys.stderr.write(f"lexicon-build: building {out} for rule set {rule_set_id}{first}\n")
    sys.stderr.flush()


def _manifest(name: str, rule_set, profile, manifest_sources: list, counts: dict, builder: dict) -> dict:
    return {
        "name": name,
        "rule_set": {"id": rule_set.id, "language": rule_set.language, "source_text": rule_set.source_text},
        "profile": {"name": profile.name, "source_text": profile.source_text},
        "sources": manifest_sources,
        "counts": counts,
        "builder": builder,
        "options": {"profile": profile.name, "rules": rule_set.id},
    }


def _lexicon_name(args, out: Path) -> str:
    """--name, or the output's file name without .lex: a name the loader accepts (a lexicon it would
    refuse to load is not built)."""
    name = args.name if args.name is not None else (out.name[:-4] if out.name.endswith(".lex") else out.name)
    if not NAME_RE.fullmatch(name):
        where = "--name" if args.name is not None else f"-o {out} (give --name)"
        raise BuildError(f"{where}: {name!r} is not a lexicon name (a letter or digit, then letters, digits, "
                         "'.', '_', '-'; at most 64)")
    return name


def _rules_and_profile(args):
    try:
        rule_set = load_rule_set(args.rules)
    except (RuleSetError, OSError, ValueError) as exc:
        raise BuildError(f"rule set {args.rules!r}: {exc}") from None
    try:
        profile = load_profile(args.profile or rule_set.profile)
    except ProfileError as exc:
        raise BuildError(str(exc)) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BuildError(f"profile {args.profile or rule_set.profile}: {error_line(exc)}") from None
    if profile.language and profile.language != rule_set.language:
        raise BuildError(f"profile {profile.name!r} is for language {profile.language!r}, "
                         f"rule set {rule_set.id!r} for {rule_set.language!r}")
    return rule_set, profile


def _check_sources(args, hunspell_encoding: str | None) -> tuple[list, list]:
    """[(kind, path)] in build order, and their manifest entries (sha256, size); a .dic and its
    .aff are checked as text in ``hunspell_encoding``, or else in the one the .aff declares."""
    sources = [("words", f) for f in args.words] + [("tagged", f) for f in args.tagged] + \
              [("headwords", f) for f in args.headwords] + [("hunspell", f) for f in args.hunspell]
    if not sources:
        raise BuildError("no sources: give at least one of --headwords, --words, --tagged, --hunspell")
    manifest_sources = []
    for kind, f in sources:
        p = Path(f)
        aff = hunspell_files(p, "hunspell source") if kind == "hunspell" else None
        if aff is None and not p.is_file():
            raise BuildError(f"{kind} source {f}: " + ("not a file" if p.exists() else "no such file"))
        manifest_sources.append(manifest_entry(kind, p))
        if aff is not None:
            manifest_sources.append(manifest_entry("hunspell-aff", aff))
        check_text_source(kind, p, hunspell_encoding)
    return sources, manifest_sources


def _input_files(args, sources) -> list:
    """Every file the build reads: the sources, a .dic's .aff, the paradigm source, a profile or rules file."""
    files = [f for _, f in sources] + [aff_path_for(f) for kind, f in sources if kind == "hunspell"]
    if args.paradigms:
        files += [args.paradigms, aff_path_for(args.paradigms)]
    files += args.models
    return files + [f for f in (args.profile, args.rules) if f]


def _open_rejected(args, sources, out: Path):
    if args.rejected and any(_same_file(args.rejected, f) for f in _input_files(args, sources)):
        raise BuildError(f"--rejected {args.rejected} is one of the build's input files; it would be overwritten")
    rejected, output = os.path.realpath(args.rejected or ""), os.path.realpath(out)   # no RuntimeError on a loop
    if args.rejected and (rejected == output or rejected.startswith(output + os.sep)):
        raise BuildError(f"--rejected {args.rejected} is in the output lexicon {out}")
    try:
        return open(args.rejected, "w", encoding="utf-8") if args.rejected else None
    except OSError as exc:
        raise BuildError(f"--rejected {args.rejected}: {exc.strerror or exc}") from None


def _read(args, sources, language: str, lang, compiler, builder: dict) -> Iterator[Pass]:
    """The passes of every source, in order: word and tagged lists as runs of readings
    (sources.LIST_PASSES), headword lists and Hunspell dictionaries through the language's passes,
    then the language's last pass. A generator: each pass is made after the one before has been
    run, so a pass can use what the earlier ones admitted (Polish: SGJP's lemmas are the models)."""
    for kind, f in sources:
        p = Path(f)
        progress = Progress(f"{kind} {p.name}", _count_lines(p), enabled=not args.quiet)
        counter = [0, 0]

        def stream(records, progress=progress, counter=counter):
            return _source_stream(records, compiler, progress, counter)

        if kind in LIST_PASSES:
            yield Pass(stream(list_items(kind, p)), LIST_PASSES[kind])
        elif lang is None:
            raise BuildError(f"no expander for language {language!r} (known: {', '.join(LANGUAGES)})")
        elif kind == "headwords":
            yield from lang.headwords(compiler, stream(read_headwords(p)), builder)
        elif kind == "hunspell":
            yield from lang.hunspell(compiler, p, stream)
        progress.update(progress.total)
        progress.finish()
    if lang is not None:
        yield from lang.finish(compiler)


def _shortened(text: str, limit: int = 80) -> str:
    """An example as the summary shows it: a 50 MB input line is not printed whole."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


def print_summary(out: Path, manifest: dict, report, seconds: float, models=None) -> None:
    c = manifest["counts"]
    w = sys.stdout.write
    w(f"lexicon {out}: {c['forms']} forms from {c['headwords']} headwords "
      f"({c['readings']} readings), rule set {manifest['rule_set']['id']}, "
      f"profile {manifest['profile']['name']}, {seconds:.1f}s\n")
    try:
        me = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        w(f"  CPU: this process {me.ru_utime + me.ru_stime:.1f}s, worker processes "
          f"{kids.ru_utime + kids.ru_stime:.1f}s; peak RSS {me.ru_maxrss / 1024:.0f} MB "
          f"(workers {kids.ru_maxrss / 1024:.0f} MB)\n")
    except (ImportError, OSError):
        pass
    w(f"  input: {report.headwords} headword entries, {report.readings_in} expanded forms, "
      f"{report.readings_admitted} admitted\n")
    if c.get("guessed_headwords"):
        unknown_to = "SGJP" if manifest["rule_set"].get("language") == "pl" else "the paradigm source"
        w(f"  inflected by analogy ({unknown_to} does not know them; lexicon-service explain "
          f"names the model): {c['guessed_headwords']} headwords\n")
    if models is not None:      # --models (polish.models.GivenModels)
        w(f"  analogy models from --models: {len(models.lemmas)} SGJP lemmas of {models.entries} entries; "
          f"not used (no SGJP lemma, or a bad line): {models.not_used}"
          + (f", e.g. {', '.join(models.examples)}" if models.examples else "") + "\n")
    w("  admitted forms by rule (first rule of each form):\n")
    for rule, n in sorted(report.admitted_by_rule.items(), key=lambda kv: (-kv[1], kv[0])):
        w(f"    {rule:<24} {n:>9}\n")
    if report.forms_rejected_only is None:      # counted only with --rejected (it costs seconds)
        w("  rejected (readings or input lines) by reason:\n")
    else:
        w(f"  rejected (readings or input lines) by reason; {report.forms_rejected_only} distinct "
          f"forms were rejected and are not in the lexicon:\n")
    for reason, n in sorted(report.rejected_by_reason.items(), key=lambda kv: (-kv[1], kv[0])):
        ex = ", ".join(_shortened(e) for e in report.examples.get(reason, [])[:4])
        w(f"    {reason:<24} {n:>9}   e.g. {ex}\n")


def _raise_terminated(signum, frame):
    raise Terminated()


def _default_sigterm_in_child() -> None:
    # A forked worker must die on SIGTERM (parallel.ordered_map sends it), even one stuck where Python
    # code never runs again, so it gets the default action back before it does anything.
    if signal.getsignal(signal.SIGTERM) is _raise_terminated:
        with contextlib.suppress(ValueError):
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_default_sigterm_in_child)


def sigterm_raises():
    """SIGTERM raises Terminated in this process (forked workers keep the default action: die)."""
    return sigterm_action(_raise_terminated)


def _run_interruptible(parser, args, spool_dir: Path) -> int:
    try:
        resolve_arguments(parser, args, spool_dir)
        return run(args)
    except KeyboardInterrupt:
        print("lexicon-build: interrupted; nothing written", file=sys.stderr)
        return 130
    except Terminated:
        print("lexicon-build: terminated; nothing written", file=sys.stderr)
        return 128 + signal.SIGTERM


STDIN_KINDS = ("words", "headwords", "tagged", "models")     # the sources that may be '-' (standard input)


def resolve_arguments(parser: argparse.ArgumentParser, args, spool_dir: Path) -> None:
    """--defaults RULESET as its --rules and shipped sources (before the user's own), --models default
    as the shipped list, and a '-' source as standard input, copied once into ``spool_dir`` (a build
    reads each source several times: checked, hashed, counted, read)."""
    if args.defaults:
        if args.rules and args.rules != args.defaults:
            parser.error(f"--defaults {args.defaults} builds rule set {args.defaults}, not --rules {args.rules}")
        args.rules = args.defaults
        for kind, paths in default_sources(args.defaults).items():
            setattr(args, kind, [str(path) for path in paths] + getattr(args, kind))
    if not args.rules:
        parser.error("give --rules RULESET (or --defaults RULESET for a default build)")
    args.models = [str(default_models()) if m == "default" else m for m in args.models]
    dashes = [(kind, i) for kind in STDIN_KINDS for i, f in enumerate(getattr(args, kind)) if f == "-"]
    if "-" in args.hunspell:
        parser.error("--hunspell -: a Hunspell dictionary needs its .aff beside it; give the .dic file")
    if len(dashes) > 1:
        parser.error("'-' (standard input) may be given once")
    if dashes:
        kind, i = dashes[0]
        spooled = spool_dir / "stdin"
        with open(spooled, "wb") as out:
            shutil.copyfileobj(getattr(sys.stdin, "buffer", sys.stdin), out)
        getattr(args, kind)[i] = str(spooled)


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.move_graph_only:
        return run_reporting_errors("lexicon-build", lambda a: add_move_graph(a.move_graph_only) and 0, args)
    if args.leaves:
        if args.games is not None and args.games > MAX_GAMES:
            parser.error(f"--games: at most {MAX_GAMES:,}")
        return run_reporting_errors("lexicon-build", lambda a: add_leave_table(
            a.leaves, a.games or DEFAULT_GAMES, a.seed, a.quiet, a.workers) and 0, args)
    if args.win_table:
        if args.games is not None and args.games > MAX_GAMES:
            parser.error(f"--games: at most {MAX_GAMES:,}")
        return run_reporting_errors("lexicon-build", lambda a: add_win_table(
            a.win_table, a.games or WIN_TABLE_GAMES, a.seed, a.quiet) and 0, args)
    if args.games is not None:
        parser.error("--games goes with --leaves or --win-table")
    if args.output is None:
        parser.error("the following arguments are required: -o/--output")
    with tempfile.TemporaryDirectory(prefix="lexicon-build-") as spool_dir, sigterm_raises():
        return run_reporting_errors("lexicon-build", _run_interruptible, parser, args, Path(spool_dir))


if __name__ == "__main__":
    raise SystemExit(main())
