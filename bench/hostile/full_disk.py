"""Tiny filesystem: fill it under a running server, check writes and health, free it, check recovery without restart.
Usage: full_disk.py DIR LEXICONS LEXICON_SERVICE_EXE (DIR: a small tmpfs, e.g. mount -t tmpfs -o size=4m tmpfs DIR)."""
import tempfile, json, os, socket, subprocess, sys, time, urllib.request, urllib.error
import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
D = sys.argv[1]; LEX = sys.argv[2]; EXE = sys.argv[3]
def port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
g, h = port(), port()
log = open(os.path.join(tempfile.gettempdir(), "full_disk-server.log"), "w")
import atexit
srv = subprocess.Popen([EXE, "serve", "--address", f"127.0.0.1:{g}", "--http", f"127.0.0.1:{h}", "--lexicons", LEX,
                        "--processes", "1", "--db", f"{D}/games.db", "--db-wal-limit", "1"], stdout=log, stderr=subprocess.STDOUT)
atexit.register(lambda: srv.poll() is None and srv.kill())
H = f"http://127.0.0.1:{h}"
def call(path, body=None, tok=None):
    req = urllib.request.Request(H + path, data=None if body is None else json.dumps(body).encode(),
                                 headers={"content-type": "application/json", **({"authorization": "Bearer " + tok} if tok else {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r: return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e: return e.code, json.loads(e.read() or b"{}")
for _ in range(200):
    try:
        if call("/healthz?service=lexicon.v1.GameSessionService")[0] == 200: break
    except Exception: time.sleep(0.2)
ch = grpc.insecure_channel(f"127.0.0.1:{g}"); hs = health_pb2_grpc.HealthStub(ch)
def health(): return health_pb2.HealthCheckResponse.ServingStatus.Name(hs.Check(health_pb2.HealthCheckRequest(service="lexicon.v1.GameSessionService")).status)
def wal(): 
    try: return os.path.getsize(f"{D}/games.db-wal")
    except OSError: return 0
st, g1 = call("/v1/games", {"lexicon": "pl-scrabble", "playerNames": ["A", "B"]})
print("create", st, "health", health())
toks = g1["playerTokens"]; gid = g1["gameId"]
n = 0
# many games to grow the db
peak = 0
for i in range(150):
    st, _ = call("/v1/games", {"lexicon": "pl-scrabble", "playerNames": ["A", "B"]}); n += st == 200
    peak = max(peak, wal())
print("games created", n, "wal peak bytes", peak, "df", subprocess.run(["df", "-k", D], capture_output=True, text=True).stdout.split("\n")[1])
# fill
try:
    with open(f"{D}/filler", "wb") as f:
        while True: f.write(b"\0" * 4096); f.flush()
except OSError as e: print("filled:", e)
codes = {}
for i in range(400):
    st, body = call("/v1/games", {"lexicon": "pl-scrabble", "playerNames": ["A", "B"]})
    codes.setdefault((st, body.get("error", {}).get("status")), 0); codes[(st, body.get("error", {}).get("status"))] += 1
    if st != 200:
        print("first refusal after", i, "creates:", st, body); print("health at refusal:", health(), "healthz", call("/healthz?service=lexicon.v1.GameSessionService")[0]); break
print("writes while full:", codes, "health:", health(), "healthz:", call("/healthz?service=lexicon.v1.GameSessionService")[0])
time.sleep(3); print("health after 3 s full:", health())
os.unlink(f"{D}/filler")
t0 = time.time(); 
while time.time() - t0 < 30:
    st, body = call("/v1/games", {"lexicon": "pl-scrabble", "playerNames": ["A", "B"]})
    if st == 200: break
    time.sleep(0.5)
print(f"after freeing: create {st} after {time.time()-t0:.1f} s; health {health()}; wal {wal()} bytes")
# move in the old game
st, body = call(f"/v1/games/{gid}:move", {"pass": True, "requestId": "after"}, toks[0]); print("move in old game", st, body.get("version"))
srv.terminate(); print("server exit", srv.wait(30))
print("warning lines in log:", sum(1 for l in open(os.path.join(tempfile.gettempdir(), "full_disk-server.log")) if "WARNING" in l or "ERROR" in l))
