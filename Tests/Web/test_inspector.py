"""The inspector page of `live-repl --web` in a real browser: headless
Chromium driven through WebDriver (Debian's chromium-driver, Python's
selenium), against the built live-repl and live-server as processes.

- Seeded random commands are typed into the page's command box. After each,
  once the page has applied the change the session pushed, the rows in the
  page's DOM, section by section, must equal what `show --json` prints on
  the REPL's standard input.
- Another client writes to live-server while the REPL is idle: the page must
  come to show what `show` prints after `sync`, the changes pushed to it as
  they happen, also after the page is reloaded in the middle.
- Throughout, the page must find no change whose stages disagree with the
  sections shown after it.
- The server refuses events and commands without the printed token, commands
  from another origin, requests naming another host, and lines with line
  breaks.

LIVE_REPL and LIVE_SERVER are the built tools; LIVE_TEST_SEED replays a run
(the seed is printed on failure).
"""
import json
import os
import queue
import random
import subprocess
import tempfile
import threading
import unittest
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

SEED = int(os.environ.get("LIVE_TEST_SEED", "20261127"))
WAIT = 30  # seconds: a bound for a hung browser or process, never a way to wait
KEYS = ["a", "b", "Z", "_", "007", "7", "10", "-1", "1e3", "\uff61", "\u00e9", "e\u0301", "\u212b", "\ud55c"]
GROUPS = ["g0", "g1", 1, True, None]


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("LIVE_CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900"):
        options.add_argument(flag)
    return webdriver.Chrome(service=Service(os.environ.get("LIVE_CHROMEDRIVER", "/usr/bin/chromedriver")),
                            options=options)


class REPLWeb:
    """live-repl --json --web, its standard input kept open."""

    def __init__(self, options):
        # The address holds the page's token: it goes to a private file,
        # not to standard error (which is not a terminal here).
        address = os.path.join(tempfile.mkdtemp(), "address")
        self.process = subprocess.Popen([os.environ["LIVE_REPL"], "--json", "--web", "--web-address-file", address]
                                        + options,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, encoding="utf-8", bufsize=1)
        first = self.process.stderr.readline()
        if "inspector at " not in first or "token=" in first:
            self.process.kill()
            raise AssertionError("live-repl --web did not start, or showed its token: %r" % first)
        with open(address) as f:
            self.url = f.read().strip()
        if (os.stat(address).st_mode & 0o077) != 0:
            raise AssertionError("the address file is readable by others")
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def type(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def show(self):
        """`show` typed on standard input: the keys of each section."""
        self.type("show")
        while True:
            line = self.lines.get(timeout=WAIT)
            if line is None:
                raise AssertionError("live-repl ended")
            value = json.loads(line)
            if "sections" in value:
                return [s["keys"] for s in value["sections"]]

    def close(self):
        self.process.stdin.close()
        status = self.process.wait(timeout=WAIT)
        self.process.stdout.close()
        self.process.stderr.close()
        return status


def random_command(rng):
    key = rng.choice(KEYS)
    child = lambda: {"score": rng.randint(0, 9), "group": rng.choice(GROUPS)}  # noqa: E731
    kind = rng.choice(["put", "put", "patch", "remove", "score", "put", "put", "patch", "remove", "score", "query"])
    if kind == "query":
        return "query --order-by %s --section-by group" % rng.choice(["score", "$key"])
    if kind == "put":
        return "put /%s %s" % (key, json.dumps(child(), ensure_ascii=False))
    if kind == "patch":
        members = {k: (child() if rng.random() < 0.7 else None) for k in rng.sample(KEYS, rng.randint(1, 4))}
        return "patch / %s" % json.dumps(members, ensure_ascii=False)
    if kind == "remove":
        return "put /%s null" % key
    return "put /%s/score %d" % (key, rng.randint(0, 9))


def open_page(options, extra="&duration=40", seconds=WAIT):
    """live-repl --json --web with `options`, and headless Chromium on its
    page (the address with `extra`) once the page is connected."""
    repl = REPLWeb(options)
    driver = browser()
    try:
        driver.get(repl.url + extra)
        wait = WebDriverWait(driver, seconds)
        wait.until(lambda d: d.execute_script("return window.liveInspector && window.liveInspector.connected"))
    except BaseException:
        driver.quit()
        repl.close()
        raise
    return repl, driver, wait


def unnamed(driver):
    """The controls and items of the page that have no accessible name (no
    label, aria-label or text): every one must have one."""
    return driver.execute_script("""
        return [...document.querySelectorAll('input, textarea, button, select, [role=treeitem], [role=listitem]')]
          .filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label') && !e.textContent.trim())
          .map(e => e.outerHTML.slice(0, 120));""")


def settle(driver, wait, where):
    """Waits until the page has drawn every stage it was sent and has the
    contents of every row it draws; returns the sections it shows (keys)."""
    wait.until(lambda d: d.execute_script(
        "const i = window.liveInspector; return i.idle() && i.rendered().every(r => !r.pending)"), where)
    return driver.execute_script("return window.liveInspector.shown.map(s => s.keys)")


def drawn_rows(driver):
    """The rows in the document: [section, row, key, sort, summary]."""
    return driver.execute_script("""
        return window.liveInspector.rendered().map(r => [r.section, r.row, r.key, r.sort, r.summary]);""")


def session_rows(url, keys):
    """What the session holds now for `keys`: {key: [sort, summary]}, read
    through the page's own request."""
    page, token = url.split("?", 1)[0], url.split("token=", 1)[1]
    origin = page.rstrip("/")
    request = urllib.request.Request(page + "rows?token=" + token, data=json.dumps(keys).encode(), method="POST",
                                     headers={"Origin": origin, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=WAIT) as answer:
        return json.loads(answer.read())


def check_drawn(test, driver, expected, where, url=None):
    """Every row in the document is at its place in `expected`, with
    contents (with `url`: the session's current sort value and summary); the
    rows in view are all there."""
    rows = drawn_rows(driver)
    for section, row, key, sort, summary in rows:
        test.assertEqual(key, expected[section][row], "%s: row %d.%d" % (where, section, row))
        test.assertTrue(summary and summary != "\u2026", "%s: row %d.%d has no contents" % (where, section, row))
    if url:
        held = session_rows(url, [r[2] for r in rows])
        drawn = {key: [sort, summary] for _, _, key, sort, summary in rows}
        test.assertEqual(drawn, held, "%s: the contents drawn are the session's" % where)
    total = sum(map(len, expected))
    if total <= 20:
        test.assertEqual(len(rows), total, where)


def request(url, method="GET", body=None, headers=None):
    """The status of a request (read, then closed)."""
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=body, method=method, headers=headers or {}),
                                    timeout=WAIT) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


class InspectorTests(unittest.TestCase):
    def test_the_page_shows_what_show_prints_after_every_command(self):
        rng = random.Random(SEED)
        where = "seed %d (replay: LIVE_TEST_SEED=%d)" % (SEED, SEED)
        repl, driver, wait = open_page(["--offline", "--order-by", "score", "--section-by", "group"])
        try:
            box = driver.find_element(By.ID, "command")
            self.assertEqual(driver.find_element(By.CSS_SELECTOR, "label[for=command]").text, "Command")
            self.assertEqual(unnamed(driver), [], where)
            for step in range(25):
                command = random_command(rng)
                outputs = driver.execute_script("return window.liveInspector.outputs")
                box.send_keys(command + Keys.ENTER)
                wait.until(lambda d: d.execute_script("return window.liveInspector.outputs") > outputs)
                label = "%s step %d: %s" % (where, step, command)
                expected = repl.show()
                wait.until(lambda d: settle(d, wait, label) == expected, label)
                check_drawn(self, driver, expected, label, repl.url)
                problems = driver.execute_script("return window.liveInspector.problems")
                self.assertEqual(problems, [], label)
                # The stats follow the output, as their own event.
                children = "children: %d" % sum(map(len, expected))
                wait.until(lambda d: children in d.find_element(By.ID, "stats").text,
                           "%s step %d: %s" % (where, step, children))
            box.send_keys("query --order-by score --section-by group" + Keys.ENTER)
            wait.until(lambda d: "orderBy=score" in d.find_element(By.ID, "query").text, where)
            self.assertIn("sections: by group", driver.find_element(By.ID, "query").text, where)
            self.assertEqual(unnamed(driver), [], "%s: with rows and a log" % where)
        finally:
            driver.quit()
            status = repl.close()
        self.assertEqual(status, 0, where)


    def test_changes_from_the_server_are_pushed_while_idle(self):
        rng = random.Random(SEED + 1)
        where = "seed %d (replay: LIVE_TEST_SEED=%d)" % (SEED, SEED)
        server = subprocess.Popen([os.environ["LIVE_SERVER"], "--port", "0"], stdout=subprocess.PIPE, text=True)
        base = server.stdout.readline().strip()
        repl, driver, wait = open_page(["--url", base, "--path", "/items", "--order-by", "score", "--section-by", "group"])
        try:
            for round_ in range(8):
                # Another client, while the REPL waits for input.
                for _ in range(rng.randint(1, 4)):
                    key = rng.choice(KEYS)
                    url = "%s/items/%s.json" % (base, urllib.parse.quote(key))
                    if rng.random() < 0.25:
                        request(url, "DELETE")
                    else:
                        child = {"score": rng.randint(0, 9), "group": rng.choice(GROUPS)}
                        request(url, "PUT", json.dumps(child).encode())
                if round_ == 4:
                    driver.refresh()
                    wait.until(lambda d: d.execute_script("return window.liveInspector && window.liveInspector.connected"))
                repl.type("sync")
                expected = repl.show()
                label = "%s round %d: %s" % (where, round_, expected)
                wait.until(lambda d: settle(d, wait, label) == expected, label)
                check_drawn(self, driver, expected, label, repl.url)
                self.assertEqual(driver.execute_script("return window.liveInspector.problems"), [],
                                 "%s round %d" % (where, round_))
            # Only the page, with the printed token, may listen and send.
            page = repl.url.split("?", 1)[0]
            port = page.rsplit(":", 1)[1].strip("/")
            token = repl.url.split("token=", 1)[1]
            origin = {"Origin": "http://127.0.0.1:%s" % port, "Content-Type": "text/plain"}
            self.assertEqual(request(page + "events"), 403, where)
            self.assertEqual(request(page + "command?token=" + token, "POST", b"show", origin), 202, where)
            self.assertEqual(request(page + "command?token=" + token, "POST", b"show",
                                     {"Origin": "http://evil.example", "Content-Type": "text/plain"}), 403, where)
            self.assertEqual(request(page + "command?token=" + token, "POST", b"show\nquit", origin), 400, where)
            self.assertEqual(request(page + "command?token=wrong", "POST", b"show", origin), 403, where)
            rows = {"Origin": "http://127.0.0.1:%s" % port, "Content-Type": "application/json"}
            self.assertEqual(request(page + "rows?token=" + token, "POST", b'["a"]', rows), 200, where)
            self.assertEqual(request(page + "rows?token=" + token, "POST", b'{"a": 1}', rows), 400, where)
            self.assertEqual(request(page + "rows?token=" + token, "POST", b'["a"]',
                                     {"Content-Type": "application/json"}), 403, where)
            self.assertEqual(request(page, headers={"Host": "evil.example:" + port}), 403, where)
        finally:
            driver.quit()
            status = repl.close()
            server.terminate()
            server.wait(timeout=WAIT)
            server.stdout.close()
        self.assertEqual(status, 0, where)


if __name__ == "__main__":
    unittest.main()
