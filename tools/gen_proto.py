"""Generate the Python gRPC stubs from proto/ into lexicon_service/grpc_gen/ (run by `make proto`).

The stubs are committed, so the package works from a wheel without grpcio-tools; tests/test_packaging.py
regenerates them into a temporary directory and fails when they differ from what is committed (a
.proto changed without `make proto`). The generator is pinned (grpcio-tools in the dev extra of
pyproject.toml) so that the output is byte-for-byte reproducible; the runtime floors of grpcio and
protobuf there follow the versions stamped into the generated code.

protoc is run on every `*.proto` under proto/ (package lexicon.v1 lives in proto/lexicon/v1/) into a
temporary directory; the modules are then flattened into `lexicon_service/grpc_gen/` and their
imports rewritten (`from lexicon.v1 import game_pb2` -> `from lexicon_service.grpc_gen import game_pb2`),
so `from lexicon_service.grpc_gen import lexicon_pb2, lexicon_pb2_grpc` works. Files are rewritten
only when their content changes.
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
SUFFIXES = ("_pb2.py", "_pb2_grpc.py")


def _proto_files(proto_dir: Path) -> list[Path]:
    return sorted(proto_dir.rglob("*.proto"))


def _expected_outputs(protos: list[Path], out_dir: Path) -> list[Path]:
    return [out_dir / f"{p.stem}{suffix}" for p in protos for suffix in SUFFIXES]


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


def generated_stubs(proto_dir: Path = PROTO_DIR) -> dict[str, str]:
    """The stub modules for every .proto under ``proto_dir``: file name -> text."""
    from grpc_tools import protoc  # generator-only dependency (grpcio-tools, in the dev extra)

    protos = _proto_files(proto_dir)
    if not protos:
        raise SystemExit(f"gen_proto: no .proto files under {proto_dir}")
    stems = [p.stem for p in protos]
    if len(set(stems)) != len(stems):
        raise SystemExit(f"gen_proto: proto file names must be unique to be flattened: {stems}")
    include = Path(protoc.__file__).resolve().parent / "_proto"  # google/protobuf/*.proto
    stubs: dict[str, str] = {}
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
            if generated.is_file() and generated.name.endswith(SUFFIXES):
                stubs[generated.name] = _rewrite_imports(generated.read_text(encoding="utf-8"), packages)
    return stubs


def committed_stubs(out_dir: Path = OUT_DIR) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(out_dir.iterdir())
            if p.name.endswith(SUFFIXES)}


def generate(proto_dir: Path = PROTO_DIR, out_dir: Path = OUT_DIR) -> list[Path]:
    """Write the stubs into ``out_dir``; returns the files written or removed (empty when up to date)."""
    stubs = generated_stubs(proto_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    changed: list[Path] = []
    for name, text in stubs.items():
        target = out_dir / name
        if not target.exists() or target.read_bytes() != text.encode("utf-8"):
            target.write_bytes(text.encode("utf-8"))
            changed.append(target)
    for old in out_dir.iterdir():  # stubs of deleted protos
        if old.name.endswith((*SUFFIXES, "_pb2.pyi")) and old.name not in stubs:
            old.unlink()
            changed.append(old)
    init = out_dir / "__init__.py"
    if not init.exists():
        init.write_text('"""Generated gRPC stubs (see tools/gen_proto.py)."""\n', encoding="utf-8")
    return changed


def stale_stubs(proto_dir: Path = PROTO_DIR, out_dir: Path = OUT_DIR) -> list[str]:
    """Names of stub files that are missing, extra or differ from what the protos generate."""
    want, have = generated_stubs(proto_dir), committed_stubs(out_dir)
    return sorted(n for n in set(want) | set(have) if want.get(n) != have.get(n))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.gen_proto", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 when the stubs in grpc_gen/ are not what the protos generate")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_stubs()
        for name in stale:
            print(f"gen_proto: {name} is stale: run `make proto`", file=sys.stderr)
        return 1 if stale else 0
    for path in generate():
        print(f"gen_proto: wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
