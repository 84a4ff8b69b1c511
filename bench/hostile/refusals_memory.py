"""Peak memory of one word explanation on a lexicon whose refused.tsv is hostile, its sha256 recomputed
in the manifest: one line of --line-mib MiB holding the key looked up, then --repeats lines of one key.

    python bench/hostile/refusals_memory.py --lexicon LEXICONS/cs-kriskros.lex --line-mib 512

Prints the peak resident memory (ru_maxrss) of `lexicon-service explain` on the lexicon as built and
on the hostile copy, and the difference.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def _explain_peak_mib(lexicons: Path, name: str, word: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    script = Path(sys.executable).parent / "lexicon-service"
    subprocess.run([script, "explain", "--lexicons", lexicons, "-l", name, word], check=False,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(peak, before) / 1024


def _hostile_copy(source: Path, target: Path, word: str, line_mib: int, repeats: int) -> None:
    shutil.copytree(source, target)
    refused = target / "refused.tsv"
    digest = hashlib.sha256()
    with open(refused, "wb") as out:
        for chunk in (b"a\tnoun\ta\n", f"{word}\tinterjection\t".encode()):
            out.write(chunk)
            digest.update(chunk)
        block = b"x" * (1 << 20)
        for _ in range(line_mib):
            out.write(block)
            digest.update(block)
        tail = b"\n" + f"{word}a\tnoun\t{word}\n".encode() * repeats
        out.write(tail)
        digest.update(tail)
    manifest = json.loads((target / "manifest.json").read_text(encoding="utf-8"))
    manifest["files"]["refused.tsv"] = {"bytes": refused.stat().st_size, "sha256": digest.hexdigest()}
    (target / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lexicon", required=True, type=Path, help="a built lexicon NAME.lex with refused.tsv")
    parser.add_argument("--word", default="kotx", help="the word explained (a form the lexicon does not hold)")
    parser.add_argument("--line-mib", type=int, default=512)
    parser.add_argument("--repeats", type=int, default=1_000_000)
    args = parser.parse_args()
    name = args.lexicon.name.removesuffix(".lex")
    with tempfile.TemporaryDirectory() as tmp:
        plain, hostile = Path(tmp) / "plain", Path(tmp) / "hostile"
        plain.mkdir()
        os.symlink(args.lexicon.resolve(), plain / args.lexicon.name)
        _hostile_copy(args.lexicon, hostile / args.lexicon.name, args.word, args.line_mib, args.repeats)
        base = _explain_peak_mib(plain, name, args.word)
        worst = _explain_peak_mib(hostile, name, args.word)
    print(f"explain {args.word}: peak {base:.0f} MiB on the lexicon as built, {worst:.0f} MiB with a refused.tsv of "
          f"one {args.line_mib} MiB line and {args.repeats:,} lines of one key: +{worst - base:.0f} MiB")


if __name__ == "__main__":
    main()
