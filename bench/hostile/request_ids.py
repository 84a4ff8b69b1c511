"""Request ids across players, games and kinds, a replayed final pass, records for observer and director.
Usage: request_ids.py API_URL (a running serve --http without --token-file)."""
import json, sys, urllib.request, urllib.error
H = sys.argv[1]
def call(path, body=None, tok=None, method=None):
    req = urllib.request.Request(H + path, data=None if body is None else json.dumps(body).encode(), method=method,
        headers={"content-type": "application/json", **({"authorization": "Bearer " + tok} if tok else {})})
    try:
        with urllib.request.urlopen(req, timeout=10) as r: return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e: return e.code, json.loads(e.read() or b"{}")
def new(**kw):
    st, g = call("/v1/games", {"lexicon": "pl-scrabble", "playerNames": ["Ann", "Bob"], **kw}); assert st == 200, g; return g
g1, g2 = new(seed=7), new(seed=7)
A1, B1 = g1["playerTokens"]; A2, B2 = g2["playerTokens"]
print("same seed, same racks?", call(f"/v1/games/{g1['gameId']}", tok=A1)[1]["rack"], call(f"/v1/games/{g2['gameId']}", tok=A2)[1]["rack"])
# token of game 1 on game 2
print("A1 on g2:", call(f"/v1/games/{g2['gameId']}", tok=A1))
# request id reused across games by same person
s, r = call(f"/v1/games/{g1['gameId']}:move", {"pass": True, "requestId": "r"}, A1); print("g1 A pass", s, r.get("replayed"))
s, r = call(f"/v1/games/{g2['gameId']}:move", {"pass": True, "requestId": "r"}, A2); print("g2 A pass same rid", s, r.get("replayed"), r.get("version"))
# same rid, different content from same player
s, r = call(f"/v1/games/{g1['gameId']}:move", {"exchange": "A", "requestId": "r"}, A1); print("g1 A same rid other content", s, str(r)[:200])
# Bob same rid
s, r = call(f"/v1/games/{g1['gameId']}:move", {"pass": True, "requestId": "r"}, B1); print("g1 B same rid", s, r.get("replayed"), r.get("game", {}).get("you"))
# play until end by passes (6 scoreless turns?) with request ids; then replay final pass and check observer view
g = new(); A, B = g["playerTokens"]; gid = g["gameId"]; toks = [A, B]
i = 0; last = None
while True:
    st, view = call(f"/v1/games/{gid}")
    if view["status"] != "GAME_STATUS_PLAYING": break
    t = view["turn"]; last = (t, f"p{i}", view["version"])
    s, r = call(f"/v1/games/{gid}:move", {"pass": True, "requestId": f"p{i}", "expectedVersion": view["version"]}, toks[t]); i += 1
    if s != 200: print("pass", s, r); break
print("game ended after", i, "passes; status", view["status"])
t, rid, ver = last
s, r = call(f"/v1/games/{gid}:move", {"pass": True, "requestId": rid, "expectedVersion": ver}, toks[t]); print("final pass replay", s, r.get("replayed"), r.get("game", {}).get("status"), str(r)[:150] if s != 200 else "")
s, r = call(f"/v1/games/{gid}:move", {"pass": True, "requestId": rid, "expectedVersion": ver}, toks[1 - t]); print("final pass rid by other player", s, str(r)[:200])
s, r = call(f"/v1/games/{gid}:move", {"pass": True, "requestId": rid, "expectedVersion": ver}); print("final pass rid no token", s, str(r)[:200])
print("observer record after end:", [l for l in call(f"/v1/games/{gid}/record")[1]["gcg"].splitlines() if l.startswith("#")])
print("g1 observer record:", [l for l in call(f"/v1/games/{g1['gameId']}/record")[1]["gcg"].splitlines() if l.startswith("#") ])
print("g1 director record:", [l for l in call(f"/v1/games/{g1['gameId']}/record", tok=g1["directorToken"])[1]["gcg"].splitlines() if l.startswith("#") ])
# challenge with request id by wrong player
s, r = call(f"/v1/games/{g1['gameId']}:challenge", {"requestId": "r"}, B1); print("challenge rid r by B", s, str(r)[:200])
s, r = call(f"/v1/games/{g1['gameId']}:undo", {"requestId": "r"}, B1); print("undo rid r by B", s, str(r)[:200])
s, r = call(f"/v1/games/{g1['gameId']}:end", {"requestId": "r"}, A1); print("end by player", s, str(r)[:200])
s, r = call(f"/v1/games/{g1['gameId']}:adjustScore", {"player": 0, "delta": 5}, A1); print("adjust by player", s, str(r)[:200])
s, r = call(f"/v1/games:view", {"gameId": g1['gameId']}); print("view", s, str(r)[:300])
