"""Generate the Python gRPC stubs from proto/ into lexicon_service/grpc_gen/ (run by `make proto`).

protoc is run on every `*.proto` under proto/ (package lexicon.v1 lives in proto/lexicon/v1/) into a
temporary directory; the modules are then flattened into `lexicon_service/grpc_gen/` and their
imports rewritten (`from lexicon.v1 import game_pb2` -> `from lexicon_service.grpc_gen import game_pb2`),
so `from lexicon_service.grpc_gen import lexicon_pb2, lexicon_pb2_grpc` works. Idempotent: files are
rewritten only when their content changes, and nothing runs when the stubs are newer than the protos.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
OUT_DIR = ROOT / "lexicon_service" / "grpc_gen"
SUFFIXES = ("_pb2.py", "_pb2_grpc.py")  # matched by .gitignore and `make clean` (lexicon_service/grpc_gen/*_pb2*.py)


def _proto_files(proto_dir: Path) -> list[Path]:
    return sorted(proto_dir.rglob("*.proto"))


def _expected_outputs(protos: list[Path], out_dir: Path) -> list[Path]:
    return [out_dir / f"{p.stem}{suffix}" for p in protos for suffix in SUFFIXES]


def _up_to_date(protos: list[Path], out_dir: Path) -> bool:
    outputs = _expected_outputs(protos, out_dir)
    if not all(o.exists() for o in outputs):
        return False
    newest_input = max([p.stat().st_mtime for p in protos] + [Path(__file__).stat().st_mtime])
    return min(o.stat().st_mtime for o in outputs) >= newest_input


def _rewrite_imports(text: str, packages: set[str]) -> str:
    # `from lexicon.v1 import game_pb2 as ...` -> `from lexicon_service.grpc_gen import game_pb2 as ...`
    for package in sorted(packages, key=len, reverse=True):
        text = re.sub(
            rf"^from {re.escape(package)} import ",
            "from lexicon_service.grpc_gen import ",
            text,
            flags=re.MULTILINE,
        )
        text = re.sub(
            rf"^import {re.escape(package)}\.(\w+)",
            r"from lexicon_service.grpc_gen import \1",
            text,
            flags=re.MULTILINE,
        )
    return text


def generate(proto_dir: Path = PROTO_DIR, out_dir: Path = OUT_DIR, force: bool = False) -> list[Path]:
    """Generate the stubs; returns the files written (empty when everything was up to date)."""
    from grpc_tools import protoc  # build-time dependency (grpcio-tools, in the dev extra)

    protos = _proto_files(proto_dir)
    if not protos:
        raise SystemExit(f"gen_proto: no .proto files under {proto_dir}")
    stems = [p.stem for p in protos]
    if len(set(stems)) != len(stems):
        raise SystemExit(f"gen_proto: proto file names must be unique to be flattened: {stems}")
    out_dir.mkdir(parents=True, exist_ok=True)
    if not force and _up_to_date(protos, out_dir):
        return []

    include = Path(protoc.__file__).resolve().parent / "_proto"  # google/protobuf/*.proto
    written: list[Path] = []
    with tempfile.TemporaryDirectory() as tmp:
        args = [
            "grpc_tools.protoc",
            f"-I{proto_dir}",
            f"-I{include}",
            f"--python_out={tmp}",
            f"--grpc_python_out={tmp}",
            *[str(p.relative_to(proto_dir)) for p in protos],
        ]
        status = protoc.main(args)
        if status != 0:
            raise SystemExit(f"gen_proto: protoc failed (status {status})")
        packages = {".".join(p.relative_to(proto_dir).parent.parts) for p in protos}
        packages.discard("")
        for generated in sorted(Path(tmp).rglob("*")):
            if not generated.is_file() or not generated.name.endswith(SUFFIXES):
                continue
            text = _rewrite_imports(generated.read_text(encoding="utf-8"), packages)
            target = out_dir / generated.name
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                target.write_text(text, encoding="utf-8")
                written.append(target)
            else:
                target.touch()  # keep the up-to-date check cheap next time
    # Stale stubs of deleted protos.
    expected = {p.name for p in _expected_outputs(protos, out_dir)}
    for old in out_dir.iterdir():
        if old.name.endswith((*SUFFIXES, "_pb2.pyi")) and old.name not in expected:
            old.unlink()
    init = out_dir / "__init__.py"
    if not init.exists():
        init.write_text('"""Generated gRPC stubs (see build_tools/gen_proto.py)."""\n', encoding="utf-8")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m build_tools.gen_proto", description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="regenerate even when the stubs look up to date")
    args = parser.parse_args(argv)
    written = generate(force=args.force)
    for path in written:
        print(f"gen_proto: wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
