"""The games database in a read-only directory: does serve start, and say what?
Usage: read_only_dir.py DIR LEXICONS LEXICON_SERVICE_EXE (DIR: a mount holding games.db, remounted ro first)."""
import os, tempfile, json, socket, subprocess, sys, time, urllib.request, urllib.error, atexit
D, LEX, EXE = sys.argv[1:4]
def port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p
h = port(); H = f"http://127.0.0.1:{h}"
srv = subprocess.Popen([EXE, "serve", "--address", f"127.0.0.1:{port()}", "--http", f"127.0.0.1:{h}", "--lexicons", LEX, "--processes", "1", "--db", f"{D}/games.db"], stdout=open(os.path.join(tempfile.gettempdir(), "read_only_dir-server.log"), "w"), stderr=subprocess.STDOUT)
atexit.register(lambda: srv.poll() is None and srv.kill())
def call(path, body=None):
    req = urllib.request.Request(H + path, data=None if body is None else json.dumps(body).encode(), headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as r: return r.status, r.read()[:160]
    except urllib.error.HTTPError as e: return e.code, e.read()[:160]
    except OSError as e: return None, str(e)
for _ in range(100):
    if call("/healthz")[0] == 200: break
    time.sleep(0.2)
print("exit code if stopped:", srv.poll())
print("games health on ro mount:", call("/healthz?service=lexicon.v1.GameSessionService"))
print("create on ro:", call("/v1/games", {"lexicon": "pl-scrabble", "playerNames": ["A", "B"]}))
subprocess.run(["mount", "-o", "remount,rw", D], check=True)
t0 = time.time()
while time.time() - t0 < 20 and call("/v1/games", {"lexicon": "pl-scrabble", "playerNames": ["A", "B"]})[0] != 200: time.sleep(0.5)
print(f"after remount rw: create ok after {time.time()-t0:.1f} s; health", call("/healthz?service=lexicon.v1.GameSessionService"))
srv.terminate(); srv.wait(30)
