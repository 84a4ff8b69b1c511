"""Write the descriptor set of proto/ with source info (comments) for server reflection (run by `make proto`).

grpcio-reflection serves each file through FileDescriptor.CopyToProto, which has no comments: the
Python stubs carry none. lexicon_service/server/reflection.py serves the files of this set instead,
so `grpcurl describe` shows the protos' doc comments. Deterministic: protoc's output for the same
protos; rewritten only when it changes.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_DIR = ROOT / "proto"
OUT = ROOT / "lexicon_service" / "grpc_gen" / "api_descriptors.binpb"


def descriptor_set(proto_dir: Path = PROTO_DIR) -> bytes:
    """A serialized FileDescriptorSet of every .proto under proto_dir (imports excluded), with source info."""
    from grpc_tools import protoc  # generator-only dependency (grpcio-tools, in the dev extra)

    protos = sorted(str(p.relative_to(proto_dir)) for p in proto_dir.rglob("*.proto"))
    include = Path(protoc.__file__).resolve().parent / "_proto"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "set.binpb"
        status = protoc.main(["grpc_tools.protoc", f"-I{proto_dir}", f"-I{include}", "--include_source_info",
                              f"--descriptor_set_out={out}", *protos])
        if status != 0:
            raise SystemExit(f"gen_descriptors: protoc failed (status {status})")
        return out.read_bytes()


def main() -> int:
    data = descriptor_set()
    if not OUT.exists() or OUT.read_bytes() != data:
        OUT.parent.mkdir(parents=True, exist_ok=True)
        tmp = OUT.with_suffix(".tmp")
        tmp.write_bytes(data)
        tmp.replace(OUT)
        print(f"gen_descriptors: wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
