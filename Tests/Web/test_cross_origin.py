"""Which web pages may reach live-server, in a real browser: headless
Chromium driven through WebDriver (as in test_inspector.py), against the
built live-server as a process. Chromium resolves evil.test and rebind.test
to 127.0.0.1 (--host-resolver-rules), so a page served here by Python's
http.server can come from an origin that is not loopback.

- Another origin cannot read or write an open-mode server: a page on
  http://evil.test tries an EventSource, a CORS read, POSTs that stand for a
  DELETE and a PUT (x-http-method-override, sent as no-cors requests, which
  need no preflight) and an image whose GET asks for a DELETE; the page
  reads nothing and the data are unchanged.
- DNS rebinding: a name that resolves to loopback, with the server's own
  port, is answered with the Host error, not the data, also to the page's
  own (same-origin) reads and writes.
- A web app under development on http://localhost:<port> reads, writes
  (preflighted, its ETag exposed) and listens to a stream.
- With tokens, any origin is served (Access-Control-Allow-Origin: *), and
  a request without the token is answered 401 and changes nothing.
- Directly, without a browser: the exact statuses and headers of the Host
  and Origin checks, of CORS preflights and streams, and of
  x-http-method-override, honoured on POST only.

LIVE_SERVER is the built tool. Nothing here is random.
"""
import http.server
import json
import os
import subprocess
import threading
import unittest
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_inspector import WAIT

SEED_DATA = {"a": {"n": 1}}
TOKEN = "s3cret"


def browser():
    """Headless Chromium as test_inspector's browser(), with evil.test and
    rebind.test resolving to 127.0.0.1."""
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("LIVE_CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900",
                 "--host-resolver-rules=MAP evil.test 127.0.0.1, MAP rebind.test 127.0.0.1"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(os.environ.get("LIVE_CHROMEDRIVER", "/usr/bin/chromedriver")),
                            options=options)


def start_server(*flags):
    """live-server on a free port of 127.0.0.1: the process and its URL."""
    server = subprocess.Popen([os.environ["LIVE_SERVER"], "--port", "0", *flags],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = server.stdout.readline().strip()
    if not base.startswith("http://127.0.0.1:"):
        server.kill()
        server.wait(timeout=WAIT)
        server.stdout.close()
        raise AssertionError("live-server did not start: %r" % base)
    return server, base


def stop_server(server):
    server.terminate()
    server.wait(timeout=WAIT)
    server.stdout.close()


class Pages:
    """Python's http.server on 127.0.0.1, serving the pages put in `pages`
    (path: HTML), under whatever name the browser uses for it."""

    def __init__(self):
        pages = self.pages = {}

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                page = pages.get(self.path.split("?", 1)[0])
                if page is None:
                    self.send_error(404)
                    return
                body = page.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=WAIT)


def page(script, **values):
    """An HTML page running `script` (an async function's body, given
    `values` as constants) once; it keeps what it saw in window.results and
    sets window.settled when the function is done, failed or not."""
    constants = "".join("const %s = %s;\n" % (name, json.dumps(value)) for name, value in values.items())
    return """<!doctype html><meta charset="utf-8"><title>cross-origin</title><body><script>
%s
window.results = {};
(async () => {
%s
})().catch(e => { window.results.failure = String(e); }).finally(() => { window.settled = true; });
</script></body>""" % (constants, script)


# Helpers the pages' scripts share.
PAGE_HELPERS = """
const results = window.results;
// A CORS read: its status and body, or the error that kept them from the page.
const read = (url, init) => fetch(url, init).then(async r => ({status: r.status, body: await r.text()}),
                                                  e => ({error: e.name}));
// A no-cors request: what the page learns of its answer (an opaque response, or an error).
const blind = (url, init) => fetch(url, Object.assign({mode: "no-cors"}, init))
    .then(r => ({type: r.type, status: r.status}), e => ({error: e.name}));
// An EventSource until its first event or error: what it saw.
const listen = url => new Promise(resolve => {
    const source = new EventSource(url), seen = [];
    const done = what => { seen.push(what); source.close(); resolve(seen); };
    source.onmessage = e => done({message: e.data});
    source.addEventListener("put", e => done({put: JSON.parse(e.data)}));
    source.onerror = () => done({error: source.readyState});
});
// An image's load or error.
const image = url => new Promise(resolve => {
    const img = new Image();
    img.onload = () => resolve("load");
    img.onerror = () => resolve("error");
    img.src = url;
});
"""


def exchange(url, method="GET", body=None, headers=None):
    """A request made directly: its status, headers and body."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, method=method, headers=headers or {}),
                                    timeout=WAIT) as answer:
            return answer.status, answer.headers, answer.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers, error.read()


def stored(base, path="/items", auth=""):
    """The value at `path`, read directly."""
    status, _, body = exchange("%s%s.json%s" % (base, path, auth))
    if status != 200:
        raise AssertionError("reading %s: %d %r" % (path, status, body))
    return json.loads(body)


def seed(base, auth=""):
    status, _, body = exchange("%s/items.json%s" % (base, auth), "PUT", json.dumps(SEED_DATA).encode())
    if status != 200:
        raise AssertionError("seeding: %d %r" % (status, body))


class BrowserTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.pages = Pages()
        try:
            cls.driver = browser()
        except BaseException:
            cls.pages.close()
            raise

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()
        cls.pages.close()

    def server(self, *flags):
        server, base = start_server(*flags)
        self.addCleanup(stop_server, server)
        return base

    def run_page(self, url):
        """Opens `url` (a page made by page()) and returns its results once it settled."""
        self.driver.get(url)
        WebDriverWait(self.driver, WAIT).until(lambda d: d.execute_script("return window.settled === true"),
                                               "the page at %s did not settle" % url)
        return self.driver.execute_script("return window.results")

    def test_another_origin_cannot_read_or_write_an_open_server(self):
        base = self.server()
        seed(base)
        self.pages.pages["/attack.html"] = page(PAGE_HELPERS + """
            const [stream, cors, deleted, written, img] = await Promise.all([
                listen(server + "/items.json"),
                read(server + "/items.json"),
                blind(server + "/items.json?x-http-method-override=DELETE", {method: "POST"}),
                blind(server + "/items/x.json?x-http-method-override=PUT", {method: "POST", body: '{"x":1}'}),
                image(server + "/items.json?x-http-method-override=DELETE"),
            ]);
            Object.assign(results, {stream, cors, deleted, written, img});
            """, server=base)
        where = "a page on http://evil.test"
        seen = self.run_page("http://evil.test:%d/attack.html" % self.pages.port)
        self.assertNotIn("failure", seen, where)
        # The stream was refused: an error, no event.
        self.assertEqual(len(seen["stream"]), 1, "%s: %r" % (where, seen))
        self.assertIn("error", seen["stream"][0], "%s: the stream must not deliver: %r" % (where, seen))
        self.assertEqual(seen["cors"], {"error": "TypeError"}, "%s: the CORS read must fail" % where)
        # The no-cors POSTs reached the server and were answered (the page
        # learns nothing of the answer), so the data below are checked after them.
        self.assertEqual(seen["deleted"], {"type": "opaque", "status": 0}, where)
        self.assertEqual(seen["written"], {"type": "opaque", "status": 0}, where)
        self.assertEqual(seen["img"], "error", where)
        self.assertEqual(stored(base), SEED_DATA, "%s: the data must be unchanged" % where)

    def test_a_name_resolving_to_loopback_is_refused(self):
        base = self.server()
        seed(base)
        port = int(base.rsplit(":", 1)[1])
        url = "http://rebind.test:%d/items.json" % port
        self.driver.get(url)
        shown = self.driver.find_element(By.TAG_NAME, "body").text
        error = json.loads(shown)
        self.assertIn("Host", error.get("error", ""), "the page at %s shows %r" % (url, shown))
        self.assertNotIn('"n"', shown, url)
        # The page is now same-origin with the name: its own reads and writes.
        self.driver.execute_script("""
            window.settled = false;
            const attempt = init => fetch(location.href, init)
                .then(async r => ({status: r.status, body: await r.text()}), e => ({error: e.name}));
            window.results = {};
            (async () => {
                window.results.read = await attempt();
                window.results.write = await attempt({method: "PUT", body: '{"x": 1}',
                                                      headers: {"Content-Type": "application/json"}});
            })().finally(() => { window.settled = true; });""")
        WebDriverWait(self.driver, WAIT).until(lambda d: d.execute_script("return window.settled === true"), url)
        seen = self.driver.execute_script("return window.results")
        for name in ("read", "write"):
            self.assertEqual(seen[name].get("status"), 403, "%s %s: %r" % (url, name, seen))
            self.assertIn("Host", json.loads(seen[name]["body"])["error"], "%s %s: %r" % (url, name, seen))
        self.assertEqual(stored(base), SEED_DATA, url)

    def test_a_loopback_origin_reads_writes_and_listens(self):
        base = self.server()
        seed(base)
        self.pages.pages["/app.html"] = page(PAGE_HELPERS + """
            results.events = [];
            const source = new EventSource(server + "/items.json");
            const first = new Promise(resolve => source.addEventListener("put", resolve, {once: true}));
            source.addEventListener("put", e => results.events.push(JSON.parse(e.data)));
            source.onerror = () => results.events.push({error: source.readyState});
            window.source = source;
            results.read = await read(server + "/items.json");
            await first;
            const written = await fetch(server + "/items/b.json", {
                method: "PUT", body: JSON.stringify({n: 2}),
                headers: {"Content-Type": "application/json", "X-Firebase-ETag": "true"}});
            results.write = {status: written.status, body: await written.json(),
                             etag: written.headers.get("ETag")};
            """, server=base)
        url = "http://localhost:%d/app.html" % self.pages.port
        seen = self.run_page(url)
        self.assertNotIn("failure", seen, "%s: %r" % (url, seen))
        self.assertEqual(seen["read"]["status"], 200, "%s: %r" % (url, seen))
        self.assertEqual(json.loads(seen["read"]["body"]), SEED_DATA, url)
        self.assertEqual(seen["write"]["status"], 200, "%s: %r" % (url, seen))
        self.assertEqual(seen["write"]["body"], {"n": 2}, url)
        self.assertTrue(seen["write"]["etag"], "%s: the ETag is exposed: %r" % (url, seen))
        pushed = {"path": "/b", "data": {"n": 2}}
        WebDriverWait(self.driver, WAIT).until(
            lambda d: pushed in d.execute_script("return window.results.events"),
            "%s: the stream did not deliver the write" % url)
        events = self.driver.execute_script("window.source.close(); return window.results.events")
        self.assertEqual(events[0], {"path": "/", "data": SEED_DATA}, url)
        self.assertNotIn("error", json.dumps(events), "%s: %r" % (url, events))
        self.assertEqual(stored(base), {"a": {"n": 1}, "b": {"n": 2}}, url)

    def test_with_tokens_any_origin_is_served_and_needs_the_token(self):
        base = self.server("--token", TOKEN)
        auth = "?auth=" + TOKEN
        seed(base, auth)
        self.pages.pages["/tokens.html"] = page(PAGE_HELPERS + """
            results.read = await read(server + "/items.json" + auth);
            results.stream = await listen(server + "/items.json" + auth);
            results.unread = await read(server + "/items.json");
            results.unwritten = await read(server + "/items/x.json", {
                method: "PUT", body: '{"x": 1}', headers: {"Content-Type": "application/json"}});
            results.undeleted = await read(server + "/items.json?x-http-method-override=DELETE",
                                           {method: "POST"});
            results.unstreamed = await listen(server + "/items.json");
            """, server=base, auth=auth)
        where = "a page on http://evil.test, with tokens"
        seen = self.run_page("http://evil.test:%d/tokens.html" % self.pages.port)
        self.assertNotIn("failure", seen, "%s: %r" % (where, seen))
        self.assertEqual(seen["read"]["status"], 200, "%s: %r" % (where, seen))
        self.assertEqual(json.loads(seen["read"]["body"]), SEED_DATA, where)
        self.assertEqual(seen["stream"], [{"put": {"path": "/", "data": SEED_DATA}}], where)
        for name in ("unread", "unwritten", "undeleted"):
            self.assertEqual(seen[name].get("status"), 401, "%s, %s without the token: %r" % (where, name, seen))
            self.assertNotIn('"n"', seen[name]["body"], where)
        self.assertEqual(len(seen["unstreamed"]), 1, "%s: %r" % (where, seen))
        self.assertIn("error", seen["unstreamed"][0], "%s: a stream without the token: %r" % (where, seen))
        self.assertEqual(stored(base, auth=auth), SEED_DATA, where)


class DirectTests(unittest.TestCase):
    """The same rules, as exact statuses and headers, without a browser."""

    def setUp(self):
        server, self.base = start_server()
        self.addCleanup(stop_server, server)
        self.port = int(self.base.rsplit(":", 1)[1])
        seed(self.base)

    def status(self, path, method="GET", body=None, headers=None):
        return exchange(self.base + path, method, body, headers)[0]

    def refused(self, path, what, method="GET", body=None, headers=None):
        """Asserts a 403 whose JSON error names `what`."""
        status, _, answer = exchange(self.base + path, method, body, headers)
        self.assertEqual(status, 403, "%s %s %r: %r" % (method, path, headers, answer))
        self.assertIn(what, json.loads(answer)["error"], "%s %s %r" % (method, path, headers))

    def test_method_override_is_honoured_on_post_only(self):
        self.assertEqual(self.status("/items.json?x-http-method-override=DELETE"), 400)
        self.assertEqual(self.status("/items.json", headers={"X-HTTP-Method-Override": "DELETE"}), 400)
        self.assertEqual(self.status("/items/a.json?x-http-method-override=DELETE", "PUT", b'{"n": 5}'), 400)
        self.assertEqual(self.status("/items/a.json?x-http-method-override=DELETE", "PATCH", b'{"n": 5}'), 400)
        self.assertEqual(self.status("/items.json?x-http-method-override=DELETE", "DELETE"), 400)
        self.assertEqual(stored(self.base), SEED_DATA)
        self.assertEqual(self.status("/items/c.json?x-http-method-override=PUT", "POST", b'{"n": 3}'), 200)
        self.assertEqual(self.status("/items/a.json", "POST", b"",
                                     {"X-HTTP-Method-Override": "DELETE"}), 200)
        self.assertEqual(stored(self.base), {"c": {"n": 3}})

    def test_the_host_must_be_loopback_with_the_servers_port(self):
        for host in ("evil.test:%d" % self.port, "rebind.test:%d" % self.port, "evil.test",
                     "127.0.0.1:%d" % (self.port + 1 if self.port < 65535 else self.port - 1),
                     "localhost.evil.test:%d" % self.port, "127.0.0.1.evil.test:%d" % self.port):
            self.refused("/items.json", "Host", headers={"Host": host})
            self.refused("/items/x.json", "Host", "PUT", b"1", {"Host": host})
            self.refused("/items.json", "Host", headers={"Host": host, "Accept": "text/event-stream"})
        for host in ("localhost:%d" % self.port, "127.0.0.1:%d" % self.port, "127.1.2.3:%d" % self.port,
                     "[::1]:%d" % self.port, "LOCALHOST:%d" % self.port,
                     # A bare name is no browser's: one always names a port other than 80.
                     "localhost", "127.0.0.1"):
            self.assertEqual(self.status("/items.json", headers={"Host": host}), 200, host)
        self.assertEqual(stored(self.base), SEED_DATA)

    def test_an_origin_must_be_loopback(self):
        for origin in ("http://evil.test", "http://evil.test:%d" % self.port, "null", "file://",
                       "http://localhost.evil.test", "http://127.0.0.1.evil.test", "ftp://localhost"):
            self.refused("/items.json", "Origin", headers={"Origin": origin})
            self.refused("/items/x.json", "Origin", "PUT", b"1", {"Origin": origin})
            self.refused("/items.json?x-http-method-override=DELETE", "Origin", "POST", b"",
                         {"Origin": origin, "Content-Type": "text/plain"})
            self.refused("/items.json", "Origin", headers={"Origin": origin, "Accept": "text/event-stream"})
            self.refused("/items/x.json", "Origin", "OPTIONS",
                         headers={"Origin": origin, "Access-Control-Request-Method": "PUT"})
        self.assertEqual(stored(self.base), SEED_DATA)
        for origin in ("http://localhost:5173", "http://localhost", "https://localhost:8443",
                       "http://127.0.0.1:8080", "http://[::1]:3000"):
            status, headers, body = exchange(self.base + "/items.json", headers={"Origin": origin})
            self.assertEqual(status, 200, origin)
            self.assertEqual(json.loads(body), SEED_DATA, origin)
            self.assertEqual(headers["Access-Control-Allow-Origin"], origin)
            self.assertIn("Origin", headers.get_all("Vary"), origin)
            self.assertIn("ETag", headers["Access-Control-Expose-Headers"], origin)

    def test_a_preflight_from_a_loopback_origin(self):
        origin = "http://localhost:5173"
        status, headers, _ = exchange(self.base + "/items/x.json", "OPTIONS", headers={
            "Origin": origin, "Access-Control-Request-Method": "PUT",
            "Access-Control-Request-Headers": "content-type"})
        self.assertEqual(status, 204)
        self.assertEqual(headers["Access-Control-Allow-Origin"], origin)
        methods = [m.strip() for m in headers["Access-Control-Allow-Methods"].split(",")]
        for method in ("GET", "PUT", "PATCH", "POST", "DELETE"):
            self.assertIn(method, methods)
        self.assertIn("content-type", headers["Access-Control-Allow-Headers"].lower())
        self.assertEqual(stored(self.base), SEED_DATA)
        # The request it stands for.
        status, headers, _ = exchange(self.base + "/items/x.json", "PUT", b'{"n": 2}',
                                      {"Origin": origin, "Content-Type": "application/json"})
        self.assertEqual(status, 200)
        self.assertEqual(headers["Access-Control-Allow-Origin"], origin)
        self.assertEqual(stored(self.base), {"a": {"n": 1}, "x": {"n": 2}})

    def test_a_stream_from_a_loopback_origin(self):
        origin = "http://localhost:5173"
        request = urllib.request.Request(self.base + "/items.json",
                                         headers={"Origin": origin, "Accept": "text/event-stream"})
        with urllib.request.urlopen(request, timeout=WAIT) as answer:
            self.assertEqual(answer.status, 200)
            self.assertEqual(answer.headers["Content-Type"], "text/event-stream")
            self.assertEqual(answer.headers["Access-Control-Allow-Origin"], origin)
            self.assertEqual(answer.readline(), b"event: put\n")
            self.assertEqual(json.loads(answer.readline()[len(b"data: "):]), {"path": "/", "data": SEED_DATA})

    def test_with_tokens_any_origin_is_served(self):
        server, base = start_server("--token", TOKEN)
        self.addCleanup(stop_server, server)
        auth = "?auth=" + TOKEN
        seed(base, auth)
        evil = {"Origin": "http://evil.test"}
        status, headers, body = exchange(base + "/items.json" + auth, headers=evil)
        self.assertEqual(status, 200)
        self.assertEqual(json.loads(body), SEED_DATA)
        self.assertEqual(headers["Access-Control-Allow-Origin"], "*")
        status, headers, _ = exchange(base + "/items/x.json", "OPTIONS", headers=dict(
            evil, **{"Access-Control-Request-Method": "PUT"}))
        self.assertEqual(status, 204)
        self.assertEqual(headers["Access-Control-Allow-Origin"], "*")
        self.assertEqual(exchange(base + "/items.json", headers=evil)[0], 401)
        self.assertEqual(exchange(base + "/items.json", "DELETE", headers=evil)[0], 401)
        self.assertEqual(exchange(base + "/items.json?x-http-method-override=DELETE", "POST", b"", evil)[0], 401)
        self.assertEqual(stored(base, auth=auth), SEED_DATA)


if __name__ == "__main__":
    unittest.main()
