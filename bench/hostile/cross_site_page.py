"""A page on another origin, opened in headless Chromium, sends simple cross-site POSTs to a running server.
Usage: cross_site_page.py API_URL GAMES_DB CHROMIUM; prints the games created by the page (live_games rows)."""
import http.server, sqlite3, sys, threading, time
from playwright.sync_api import sync_playwright
API = sys.argv[1]; DB = sys.argv[2]; CHROMIUM = sys.argv[3]
def count(): 
    c = sqlite3.connect(f"file:{DB}?mode=ro", uri=True); n = c.execute("select count(*) from live_games").fetchone()[0]; c.close(); return n
G = '{"lexicon": "pl-scrabble", "playerNames": ["Ann", "Bob"]'
PAGE = f"""<!doctype html><html><body><iframe name=sink></iframe>
<form id=f method=POST action="{API}/v1/games" enctype="text/plain" target=sink><input type=hidden name='{G}, "x": "' value='"}}'></form>
<form id=g method=POST action="{API}/v1/games" enctype="application/x-www-form-urlencoded" target=sink><input type=hidden name='{G}}}' value=''></form>
<script>
document.getElementById("f").submit(); setTimeout(()=>document.getElementById("g").submit(), 300);
for (const t of ["text/plain", "text/plain; charset=utf-8", "application/x-www-form-urlencoded"]) fetch("{API}/v1/games", {{method:"POST", mode:"no-cors", headers:{{"Content-Type":t}}, body:'{G}}}'}}).catch(()=>{{}});
navigator.sendBeacon("{API}/v1/games", new Blob(['{G}}}'], {{type:"text/plain"}}));
fetch("{API}/v1/games", {{method:"POST", headers:{{"Content-Type":"application/json"}}, body:'{G}}}'}}).then(()=>document.title="read", ()=>document.title="refused");
fetch("{API}/v1/lexicons").then(r=>r.text()).then(t=>document.title+="|leak:"+t.slice(0,20), ()=>document.title+="|noread");
</script></body></html>"""
class P(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header("content-type", "text/html"); self.end_headers(); self.wfile.write(PAGE.encode())
    def log_message(self, *a): pass
srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), P); threading.Thread(target=srv.serve_forever, daemon=True).start()
before = count()
with sync_playwright() as p:
    b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"]); pg = b.new_page()
    pg.goto(f"http://127.0.0.1:{srv.server_address[1]}/"); time.sleep(3); print("page title:", pg.title()); b.close()
print("games before", before, "after", count(), "created by the page:", count() - before)
