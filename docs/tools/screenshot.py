"""The guide's screenshot (docs/src/images/table.png): a wonders server with three heuristic bots,
our seat played over the HTTP API to Age II, turn 3, then the page in headless Chromium at
1366×768 (WebDriver over chromedriver; Debian: chromium, chromium-driver).

    python3 docs/tools/screenshot.py target/release/wonders docs/src/images/table.png
"""
import json, os, subprocess, sys, time, urllib.request, base64, socket, tempfile

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

def call(method, url, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("content-type", "application/json")
    if token: req.add_header("authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read() or b"null")
    except urllib.error.HTTPError as e:
        raise SystemExit(f"{method} {url}: {e.code} {e.read()[:300]}")

wonders, out, age_turn = sys.argv[1], sys.argv[2], (2, 3)
port, dport = free_port(), free_port()
tmp = tempfile.mkdtemp()
srv = subprocess.Popen([wonders, "serve", "--addr", f"127.0.0.1:{port}", "--db", f"{tmp}/w.db"],
                       stderr=subprocess.DEVNULL)
base = f"http://127.0.0.1:{port}"
drv = None
try:
    for _ in range(100):
        try: call("GET", base + "/healthz"); break
        except Exception: time.sleep(0.1)
    t = call("POST", base + "/api/tables", {"players": 4, "seats": [{}, {"bot": "heuristic"}, {"bot": "heuristic"}, {"bot": "heuristic"}]})
    tid = t["id"]
    seat = call("POST", f"{base}/api/tables/{tid}/seats/0", {"name": "Ada"})
    token = seat["token"]
    while True:
        st = call("GET", f"{base}/api/tables/{tid}/state", token=token)
        view = st.get("view") or {}
        if (view.get("age"), view.get("turn")) >= age_turn and st["legal"]:
            break
        if st["legal"]:
            # prefer building a card, the first way to pay
            legal = st["legal"]
            pick = next((a for a in legal if a.get("type") == "build"), legal[0])
            call("POST", f"{base}/api/tables/{tid}/actions", {"action": pick, "turn_id": st.get("turn_id")}, token)
        else:
            time.sleep(0.05)
    drv = subprocess.Popen(["chromedriver", f"--port={dport}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wd = f"http://127.0.0.1:{dport}"
    for _ in range(100):
        try: call("GET", wd + "/status"); break
        except Exception: time.sleep(0.1)
    caps = {"capabilities": {"alwaysMatch": {"goog:chromeOptions": {"args": [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1366,768", "--hide-scrollbars"]}}}}
    sid = call("POST", wd + "/session", caps)["value"]["sessionId"]
    s = f"{wd}/session/{sid}"
    call("POST", s + "/url", {"url": base + "/"})
    call("POST", s + "/execute/sync", {"script": "localStorage.setItem('wonders.name', 'Ada'); localStorage.setItem('wonders.tokens', JSON.stringify(arguments[0]));", "args": [{tid: {"seat": 0, "token": token}}]})
    call("POST", s + "/url", {"url": f"{base}/t/{tid}"})
    time.sleep(3)
    # the viewport is 1366x768; set the window so the inner size is that
    png = call("GET", s + "/screenshot")["value"]
    open(out, "wb").write(base64.b64decode(png))
    call("DELETE", s)
    print("saved", out, "table", tid, "at", view.get("age"), view.get("turn"))
finally:
    if drv: drv.terminate()
    srv.terminate()
