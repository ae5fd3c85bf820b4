"""Offline writes in live-repl as a user meets them: the built binaries as
processes, firebase-admin writing beside them, live-repl killed with
SIGKILL in the middle of its writes.

live-repl runs with --cache on live-server started on a data file, whose
journal holds one line per write the server applied. It writes its own keys
(r0..r5), online and offline (`offline`/`online`), while firebase-admin
writes other keys (a0..a5); it is killed at a random moment, often with
writes queued or on their way, and started again on the same cache. Every
write whose `pending` line was printed must reach the server exactly once
(once in the journal: nothing lost, nothing sent twice), in the order made
(each key ends as its last write left it), and after `sync`, `show` must be
the query's window by Firebase's order (firebase_order.py) from what
firebase-admin reads back.

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

from firebase_order import ordered
from test_cache_outside import repl
from test_data_file import Server, client
from firebase_admin import db

SEED = int(os.environ.get("LIVE_TEST_SEED", "20261126"))


def journal_writes(data):
    """Each (path, value) the server applied, in order, from its journal."""
    applied = []
    with open(data + ".journal", encoding="utf-8") as f:
        for line in f:
            applied.extend((path, value) for path, value in json.loads(line))
    return applied


class OfflineOutsideTests(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.cache = os.path.join(self.dir, "cache")
        self.data = os.path.join(self.dir, "data.json")
        self.server = Server(self.data)
        self.app = client("offline-%d" % SEED, self.server.url)
        self.ref = db.reference("/items", app=self.app)

    def tearDown(self):
        self.server.stop()
        firebase_admin.delete_app(self.app)
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_writes_offline_and_killed_reach_the_server_once_in_order(self):
        rng = random.Random(SEED + 11)
        self.ref.set({"a%d" % i: {"n": rng.randint(0, 9)} for i in range(6)})
        made = []  # (key, value or None), in the order live-repl showed them
        for round_ in range(6):
            where = "seed %d round %d (replay: LIVE_TEST_SEED=%d)" % (SEED, round_, SEED)
            one = repl(self.server.url, self.cache)
            transcript = one.transcript
            try:
                offline = False
                for step in range(rng.randint(3, 12)):
                    roll = rng.random()
                    if roll < 0.15:
                        offline = not offline
                        one.command("offline" if offline else "online")
                        continue
                    key = "r%d" % rng.randrange(6)
                    if roll < 0.3:
                        command, value = "remove /%s" % key, None
                    else:
                        value = {"n": rng.randint(0, 9), "w": "%d-%d-%d" % (SEED, round_, step)}
                        command = "set /%s %s" % (key, json.dumps(value))
                    reply, _ = one.command(command)
                    pending = [w for w in reply.get("writes", []) if w["state"] == "pending"]
                    self.assertEqual(len(pending), 1, "%s: %s -> %s" % (where, command, reply))
                    made.append((key, value))
                    if rng.random() < 0.3:
                        self.ref.child("a%d" % rng.randrange(6)).set({"n": rng.randint(0, 9)})
                # A random moment, often with writes queued or on their way
                # (a fault's timing, not a wait).
                time.sleep(rng.choice([0, 0, 0.005, 0.02, 0.1]))
            finally:
                one.process.send_signal(signal.SIGKILL)
                one.process.wait()
                one.process.stdin.close()
                one.process.stdout.close()
            queued = [f for f in os.listdir(self.cache) if f.endswith(".writes")]
            for name in queued:
                with open(os.path.join(self.cache, name), encoding="utf-8") as f:
                    lines = f.read().splitlines()
                # A log: its header whole, every line before the last whole
                # (a kill may cut only the line being appended).
                self.assertEqual(json.loads(lines[0])["format"], 2, "%s: %s" % (where, transcript))
                for line in lines[1:-1]:
                    json.loads(line)

        # Started once more: the writes kept are sent, and the collection syncs.
        where = "seed %d (replay: LIVE_TEST_SEED=%d)" % (SEED, SEED)
        last = repl(self.server.url, self.cache)
        try:
            reply, _ = last.command("sync")
            self.assertTrue(reply.get("synced"), "%s: %s\n%s" % (where, reply, "\n".join(last.transcript)))
            shown = last.command("show")[0]
        finally:
            status = last.close()
        self.assertEqual(status, 0, "\n".join(last.transcript))
        self.assertEqual([f for f in os.listdir(self.cache) if f.endswith(".writes")], [], where)

        # Nothing lost, nothing sent twice: each value written once.
        applied = [value["w"] for path, value in journal_writes(self.data)
                   if path.startswith("/items/r") and isinstance(value, dict) and "w" in value]
        wanted = [value["w"] for _, value in made if value is not None]
        self.assertEqual(sorted(applied), sorted(wanted), where)
        self.assertEqual(applied, wanted, "%s: applied in the order made" % where)
        # Each key as its last write left it.
        final = self.ref.get() or {}
        for key in {key for key, _ in made}:
            last_value = [value for k, value in made if k == key][-1]
            self.assertEqual(final.get(key), last_value, "%s: %s" % (where, key))
        self.assertEqual(shown["sections"][0]["keys"], ordered(final, "n"), where)


if __name__ == "__main__":
    unittest.main()
