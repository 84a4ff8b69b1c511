"""Clients in other languages against a real server: the Node.js example of docs/service.md
(@grpc/grpc-js + @grpc/proto-loader) and the generated TypeScript stubs (protobuf-es, loaded by node).
npm packages go into clients/node_modules (pinned by clients/package-lock.json), stubs into clients/gen/."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from test_service import write_lexicon  # noqa: F401

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = ROOT / "clients"
BUF = ROOT / ".venv" / "buf" / "node_modules" / ".bin" / "buf"

pytestmark = pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None,
                                reason="node and npm are not installed: the Node.js clients cannot be run")


@pytest.fixture(scope="module")
def node_modules():
    lock, installed = CLIENTS / "package-lock.json", CLIENTS / "node_modules" / ".package-lock.json"
    if not installed.exists() or installed.stat().st_mtime < lock.stat().st_mtime:
        subprocess.run(["npm", "ci", "--silent", "--no-audit", "--no-fund"], cwd=CLIENTS, check=True, timeout=300)
    return CLIENTS / "node_modules"


@pytest.fixture(scope="module")
def ts_stubs(node_modules):
    if not BUF.exists():
        pytest.skip("buf is not installed (make buf-lint installs it)")
    subprocess.run([str(BUF), "generate", "--template", "clients/buf.gen.yaml"], cwd=ROOT, check=True, timeout=120)
    return CLIENTS / "gen" / "ts"


def node(script: str, *args: str) -> list[str]:
    env = {**os.environ, "LEXICON_PROTO_DIR": str(ROOT / "proto")}
    done = subprocess.run(["node", script, *args], cwd=CLIENTS, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_readme_node_example_is_the_tested_script():
    readme = (ROOT / "docs" / "service.md").read_text(encoding="utf-8")
    script = (CLIENTS / "node" / "check_words.js").read_text(encoding="utf-8")
    assert f"```js\n{script}```" in readme


def test_node_example_client(server, node_modules):  # noqa: F811
    _, port = server
    assert node("node/check_words.js", f"localhost:{port}", "pl-scrabble", "żółw", "zółw") == [
        "żółw\tWORD_STATUS_VALID",
        "zółw\tWORD_STATUS_INVALID",
        "not acceptable",
        "8H KOT: MOVE_REASON_OK 10 points, leave ABCD",
        "INVALID_ARGUMENT: words[0]: empty word (with google.rpc details)",
    ]


def test_typescript_stubs_load_and_call_the_server(server, ts_stubs):  # noqa: F811
    assert (ts_stubs / "lexicon" / "v1" / "game_pb.d.ts").read_text().count("reasonCode: MoveReason;") == 2
    _, port = server
    assert node("node/typed_client.js", f"localhost:{port}", "pl-scrabble") == [
        "żółw=VALID zółw=INVALID false",
        "OK 6 leave=TABC row8=.......KOt.....",
        "true TILE_PLACEMENT_MOVE,PASS bag=83",
        "wordCount is a number",
    ]


@pytest.mark.skipif(shutil.which("go") is None or shutil.which("protoc-gen-go") is None
                    or shutil.which("protoc-gen-go-grpc") is None,
                    reason="Go stubs: go, protoc-gen-go and protoc-gen-go-grpc are not installed (clients/README.md)")
def test_go_stubs_compile_and_call_the_server(server, tmp_path):  # noqa: F811
    """GOPATH mode with the Go libraries of the system (Debian: golang-google-grpc-dev and
    golang-google-protobuf-dev in /usr/share/gocode): no module download."""
    if not BUF.exists():
        pytest.skip("buf is not installed (make buf-lint installs it)")
    module = tmp_path / "src" / "example.com" / "czpl-lexicon"
    subprocess.run([str(BUF), "generate", "--template", "clients/buf.gen.go.yaml", "-o", str(module)],
                   cwd=ROOT, check=True, timeout=120)
    shutil.copytree(CLIENTS / "go", module / "clients" / "go")
    env = {**os.environ, "GO111MODULE": "off", "GOPATH": f"{tmp_path}:/usr/share/gocode", "GOFLAGS": "",
           "GOCACHE": str(ROOT / ".venv" / "go-cache")}
    binary = tmp_path / "check_words"
    subprocess.run(["go", "build", "-o", str(binary), "example.com/czpl-lexicon/clients/go/check_words"],
                   env=env, check=True, timeout=300)
    _, port = server
    done = subprocess.run([str(binary), f"localhost:{port}", "pl-scrabble", "żółw", "zółw"],
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["żółw\tWORD_STATUS_VALID", "zółw\tWORD_STATUS_INVALID",
                                        "MOVE_REASON_OK 10 leave=ABCD"]
