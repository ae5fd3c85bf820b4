"""live-repl --cache as a user meets it: the built binaries as processes,
firebase-admin writing.

A session that synced keeps its children in the cache directory. Started
again while the server is down, live-repl shows them at once, marked
cached; when a server comes back on that port with other data, the smallest
change arrives by itself as a `"between"` line whose stages, applied as a
list view applies them, reach what `show` prints. And a live-repl killed
with SIGKILL at random moments while firebase-admin writes never leaves a
cache file that is not whole.

LIVE_SERVER and LIVE_REPL are set by Tools/test-firebase-admin;
LIVE_TEST_SEED replays a run (the seed is printed on failure).
"""
import json
import os
import random
import shutil
import signal
import tempfile
import time
import unittest

import firebase_admin
from firebase_admin import db

from firebase_order import ordered
from test_data_file import Server, client
from test_repl_outside import REPL, apply_stages

SEED = int(os.environ.get("LIVE_TEST_SEED", "20261126"))


def repl(url, cache, *extra):
    """A live-repl on /items of url, ordered by n, keeping its children in cache."""
    saved = os.environ["LIVE_SERVER_URL"]
    os.environ["LIVE_SERVER_URL"] = url
    try:
        return REPL("/items", ["--order-by", "n", "--cache", cache] + list(extra))
    finally:
        os.environ["LIVE_SERVER_URL"] = saved


def cache_files(cache):
    return sorted(f for f in os.listdir(cache) if f.endswith(".cache")) if os.path.isdir(cache) else []


class CacheOutsideTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.cache = os.path.join(self.dir, "cache")
        self.servers, self.apps = [], []

    def tearDown(self):
        for server in self.servers:
            if server.process.poll() is None:
                server.stop()
        for app in self.apps:
            firebase_admin.delete_app(app)
        shutil.rmtree(self.dir, ignore_errors=True)

    def server(self, data, port=0):
        server = Server(os.path.join(self.dir, data), port)
        self.servers.append(server)
        app = client("cache-%d-%d" % (len(self.apps), SEED), server.url)
        self.apps.append(app)
        return server, db.reference("/items", app=app)

    def test_cache_first_start_then_the_smallest_change(self):
        rng = random.Random(SEED)
        where = "seed %d (replay: LIVE_TEST_SEED=%d)" % (SEED, SEED)
        first, ref = self.server("first.json")
        port = int(first.url.rsplit(":", 1)[1])
        data = {"k%02d" % i: {"n": rng.randint(0, 20)} for i in range(12)}
        ref.set(data)
        one = repl(first.url, self.cache)
        self.assertTrue(one.command("sync")[0].get("synced"), where)
        shown = one.command("show")[0]
        self.assertEqual(one.close(), 0, "\n".join(one.transcript))
        self.assertEqual(len(cache_files(self.cache)), 1, where)
        first.stop()

        # The server is down: the cached children show at once, marked so.
        two = repl(first.url, self.cache)
        try:
            self.assertEqual(two.command("show")[0], shown, where)
            status = two.command("query")[0]["text"][-1]
            self.assertIn("status cached", status, where)
            # Meanwhile the data changes elsewhere: one child changed, one
            # removed, one added; then a server comes back on the port.
            second, other = self.server("second.json")
            other.set(data)
            changed, removed = rng.sample(sorted(data), 2)
            other.child(changed).set({"n": 99})
            other.child(removed).delete()
            other.child("new").set({"n": -1})
            second.stop()
            self.server("second.json", port)
            line = two.next("the server's value as a change")
            self.assertTrue(line.get("between"), "%s: %s" % (where, line))
            counts = apply_stages([len(shown["sections"][0]["keys"])], line, where)
            # One change: a row moved and changed is reloaded in a stage of its own.
            stages = line["stages"]
            self.assertEqual(sum(len(s["insertedRows"]) for s in stages), 1, where)
            self.assertEqual(sum(len(s["deletedRows"]) for s in stages), 1, where)
            after = two.command("show")[0]
            expected = {k: v for k, v in data.items() if k != removed}
            expected[changed] = {"n": 99}
            expected["new"] = {"n": -1}
            self.assertEqual(after["sections"][0]["keys"], ordered(expected, "n"), where)
            self.assertEqual(counts, [len(expected)], where)
            self.assertIn("status live", two.command("query")[0]["text"][-1], where)
        finally:
            status = two.close()
        self.assertEqual(status, 0, "\n".join(two.transcript))

    def test_killed_while_writes_arrive_leaves_a_whole_cache(self):
        rng = random.Random(SEED + 1)
        server, ref = self.server("kill.json")
        ref.set({"k%03d" % i: {"n": i, "t": "x" * rng.randint(0, 2000)} for i in range(300)})
        for round_ in range(5):
            where = "seed %d round %d (replay: LIVE_TEST_SEED=%d)" % (SEED, round_, SEED)
            one = repl(server.url, self.cache)
            self.assertTrue(one.command("sync")[0].get("synced"), where)
            for _ in range(rng.randint(1, 30)):
                ref.child("k%03d" % rng.randrange(400)).set({"n": rng.randint(0, 500), "t": "y" * rng.randint(0, 3000)})
            # A random moment to kill at, up to past the one-second interval
            # after which the collection saves (a fault's timing, not a wait).
            time.sleep(rng.uniform(0, 1.5))
            one.process.send_signal(signal.SIGKILL)
            one.process.wait()
            one.process.stdin.close()
            one.process.stdout.close()
            for name in cache_files(self.cache):
                with open(os.path.join(self.cache, name), encoding="utf-8") as f:
                    header, body, rest = f.readline(), f.readline(), f.read()
                self.assertEqual(json.loads(header)["format"], 2, where)
                value = json.loads(body)
                self.assertEqual(value["path"], "/", where)
                # Then the children changed since, one whole line each
                # (a line the kill cut has no newline, and is not read).
                for line in rest.splitlines(keepends=True):
                    if not line.endswith("\n"):
                        break
                    change = json.loads(line)
                    self.assertEqual(change["path"].count("/"), 1, where)
                    self.assertIn("data", change, where)
            # And it starts from it.
            two = repl(server.url, self.cache)
            self.assertTrue(two.command("sync")[0].get("synced"), where)
            self.assertEqual(two.close(), 0, "\n".join(two.transcript))


if __name__ == "__main__":
    unittest.main()
