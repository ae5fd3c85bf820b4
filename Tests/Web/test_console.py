"""live-server's data console (`live-server --console`, `/_/console`) in a
real browser, with a client we did not write listening: firebase-admin.

- The tree opens lazily and lists children in Firebase's key order
  (checked against an independent model of the documented rules).
- Edits, additions and deletions made in the page reach a firebase-admin
  listener as the events a write at those paths makes.
- A query's window is the children the documented rules select, in order.
- A watched location follows another client's writes live.
- The tree works from the keyboard.
- The console is off without the flag, refused on a non-loopback address
  without tokens, and served with tokens (whose page then needs a token).

LIVE_SERVER is the built tool; LIVE_TEST_SEED replays a run.
"""
import json
import os
import random
import subprocess
import sys
import threading
import unittest
import urllib.error
import urllib.request

import firebase_admin
from firebase_admin import db
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from test_inspector import WAIT, browser, request, unnamed

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "FirebaseAdmin"))
from firebase_order import key_rank, ordered, window  # noqa: E402

SEED = int(os.environ.get("LIVE_TEST_SEED", "20261127"))
KEYS = ["a", "b", "Z", "_", "007", "7", "10", "-1", "1e3", "\uff61", "\u00e9", "e\u0301", "\U0001f600", "\ufb01", "__proto__", "constructor"]


def start_server(*flags):
    server = subprocess.Popen([os.environ["LIVE_SERVER"], "--port", "0", "--keep-alive", "1", *flags],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    return server, server.stdout.readline().strip()


def stop_server(server):
    server.terminate()
    server.wait(timeout=WAIT)
    server.stdout.close()
    server.stderr.close()


class Listener:
    """A firebase-admin listener, its events kept in order."""

    def __init__(self, ref):
        self.events = []
        self.arrived = threading.Condition()
        self.registration = ref.listen(self._callback)

    def _callback(self, event):
        with self.arrived:
            self.events.append((event.event_type, event.path, event.data))
            self.arrived.notify_all()

    def wait_for(self, predicate, what):
        with self.arrived:
            if not self.arrived.wait_for(lambda: any(predicate(e) for e in self.events), timeout=WAIT):
                raise AssertionError("no event %s in %r" % (what, self.events))


def watched(driver):
    """The watched value, as JSON text (WebDriver's own conversion of an
    object drops a member named "__proto__")."""
    return json.loads(driver.execute_script("return JSON.stringify(window.liveConsole.watchValue)"))


class ConsoleTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server, cls.base = start_server("--console")
        os.environ["FIREBASE_DATABASE_EMULATOR_HOST"] = cls.base[len("http://"):]
        firebase_admin.initialize_app(options={"databaseURL": "https://live-console.firebaseio.com"})

    @classmethod
    def tearDownClass(cls):
        stop_server(cls.server)

    def test_browse_edit_query_and_watch(self):
        rng = random.Random(SEED)
        where = "seed %d (replay: LIVE_TEST_SEED=%d)" % (SEED, SEED)
        data = {key: {"score": rng.randint(0, 4)} for key in KEYS}
        items = db.reference("/items")
        items.set(data)
        # firebase-admin's listener close() returns once the next bytes
        # arrive; a read raising AttributeError then is its own behaviour.
        default_hook = threading.excepthook
        threading.excepthook = lambda args: None if args.exc_type is AttributeError else default_hook(args)
        listener = Listener(items)
        driver = browser()
        try:
            driver.get(self.base + "/_/console")
            wait = WebDriverWait(driver, WAIT)
            wait.until(lambda d: d.execute_script("return (window.liveConsole || {}).refreshed >= 1"))

            def node(path):
                """Clicks the tree item of `path` (found again if the tree was redrawn)."""
                def attempt(d):
                    try:
                        d.find_element(By.CSS_SELECTOR, '[role=treeitem][data-path=%s] > .node' % json.dumps(path)).click()
                        return True
                    except (StaleElementReferenceException, NoSuchElementException):
                        return False
                wait.until(attempt, "%s: no tree item %s" % (where, path))
            node("/items")

            def shown():
                return driver.execute_script("""
                    return [...document.querySelectorAll('[data-path="/items"] > ul > [role=treeitem]')]
                      .map(li => li.querySelector('.key').textContent);""")
            wait.until(lambda d: len(shown()) == len(data), where)
            self.assertEqual(shown(), sorted(data, key=key_rank), "%s: the tree lists keys in Firebase order" % where)

            # Saved as shown, a value keeps its priority.
            export = "%s/items/p.json?format=export" % self.base
            put = urllib.request.Request(export, data=b'{"score": 1, ".priority": 5}', method="PUT")
            urllib.request.urlopen(put, timeout=WAIT).close()
            data["p"] = {"score": 1}
            driver.find_element(By.ID, "refresh").click()
            wait.until(lambda d: len(shown()) == len(data), where)
            node("/items/p")
            wait.until(lambda d: d.execute_script("return window.liveConsole.loaded") == "/items/p")
            writes = driver.execute_script("return window.liveConsole.writes")
            driver.find_element(By.ID, "save").click()
            wait.until(lambda d: d.execute_script("return window.liveConsole.writes") > writes)
            with urllib.request.urlopen(export, timeout=WAIT) as answer:
                self.assertEqual(json.loads(answer.read()), {"score": 1, ".priority": 5}, where)

            # Edit a child's value.
            node("/items/a")
            wait.until(lambda d: d.execute_script("return window.liveConsole.loaded") == "/items/a")
            box = driver.find_element(By.ID, "value")
            box.clear()
            box.send_keys('{"score": 9, "note": "edited"}')
            driver.find_element(By.ID, "save").click()
            listener.wait_for(lambda e: e[:2] == ("put", "/a") and e[2] == {"score": 9, "note": "edited"}, "edit")
            data["a"] = {"score": 9, "note": "edited"}

            # Add a child under /items, then delete another.
            node("/items")
            wait.until(lambda d: d.execute_script("return window.liveConsole.loaded") == "/items")
            driver.find_element(By.ID, "child-key").send_keys("new key")
            driver.find_element(By.ID, "child-value").send_keys('{"score": 2}' + Keys.ENTER)
            listener.wait_for(lambda e: e[:2] == ("put", "/new key") and e[2] == {"score": 2}, "add")
            data["new key"] = {"score": 2}
            wait.until(lambda d: len(shown()) == len(data), where)
            node("/items/b")
            wait.until(lambda d: d.execute_script("return window.liveConsole.loaded") == "/items/b")
            driver.find_element(By.ID, "delete").click()
            listener.wait_for(lambda e: e[:2] == ("put", "/b") and e[2] is None, "delete")
            del data["b"]
            self.assertEqual(items.get(), data, where)

            # A query of /items: its window, in order.
            node("/items")
            wait.until(lambda d: d.execute_script("return window.liveConsole.loaded") == "/items")
            for order, start, first in (("score", 1, 4), ("$key", "7", 5)):
                for field, text in (("order-by", order), ("start-at", json.dumps(start)), ("limit-first", str(first))):
                    driver.find_element(By.ID, field).clear()
                    driver.find_element(By.ID, field).send_keys(text)
                queries = driver.execute_script("return window.liveConsole.queries || 0")
                driver.find_element(By.ID, "run-query").click()
                wait.until(lambda d: d.execute_script("return window.liveConsole.queries || 0") > queries)
                expected = ordered(data, order, window(data, order, start=start, first=first))
                self.assertEqual(driver.execute_script("return window.liveConsole.window"), expected,
                                 "%s: %s from %r, first %d" % (where, order, start, first))

            # Watch /items while another client writes.
            driver.find_element(By.ID, "watch").click()
            wait.until(lambda d: watched(d) == data)
            for _ in range(5):
                key = rng.choice(KEYS)
                if key in data and rng.random() < 0.3:
                    items.child(key).delete()
                    del data[key]
                else:
                    data[key] = {"score": rng.randint(0, 4)}
                    items.child(key).set(data[key])
                wait.until(lambda d: watched(d) == data, where)
            wait.until(lambda d: len(shown()) == len(data), "%s: the tree follows" % where)

            # The tree from the keyboard: down to the first child, then select it.
            node("/items")
            driver.find_element(By.CSS_SELECTOR, '[data-path="/items"]').send_keys(Keys.ARROW_DOWN, Keys.ENTER)
            first = "/items/" + sorted(data, key=key_rank)[0]
            wait.until(lambda d: d.execute_script("return window.liveConsole.loaded") == first, where)
            self.assertEqual(driver.find_element(By.ID, "selected").text, first)
            self.assertEqual(unnamed(driver), [], where)
        finally:
            driver.quit()
            listener.registration.close()
            threading.excepthook = default_hook

    def test_who_may_open_it(self):
        self.assertEqual(request(self.base + "/_/console"), 200)
        plain, base = start_server()
        try:
            self.assertEqual(request(base + "/_/console"), 404)
        finally:
            stop_server(plain)
        refused = subprocess.run([os.environ["LIVE_SERVER"], "--port", "0", "--host", "0.0.0.0",
                                  "--allow-remote-open", "--console"], capture_output=True, text=True, timeout=WAIT)
        self.assertNotEqual(refused.returncode, 0)
        self.assertIn("console", refused.stderr)
        tokened, base = start_server("--console", "--token", "s3cret")
        try:
            self.assertEqual(request(base + "/_/console"), 200)
            self.assertEqual(request(base + "/.json"), 401)
            self.assertEqual(request(base + "/.json?auth=s3cret"), 200)
        finally:
            stop_server(tokened)


if __name__ == "__main__":
    unittest.main()
