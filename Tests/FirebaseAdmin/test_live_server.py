"""The Python firebase-admin package, through its own public API, against a
running live-server (FIREBASE_DATABASE_EMULATOR_HOST and LIVE_SERVER_URL are
set by Tools/test-firebase-admin).

firebase-admin sorts query results on the client comparing keys as plain
strings, which is not Firebase's order: these tests check which children
come back, against an independent model of Firebase's ordering below.
"""
import os
import random
import threading
import time
import unittest

import firebase_admin
from firebase_admin import db

from firebase_order import window

SEED = int(os.environ.get("LIVE_TEST_SEED", "20261121"))


def setUpModule():
    firebase_admin.initialize_app(options={"databaseURL": "https://live-test.firebaseio.com"})


class LiveServerTests(unittest.TestCase):
    def test_crud(self):
        ref = db.reference("/crud")
        ref.set({"a": {"n": 1}, "b": [1, 2, 3]})
        self.assertEqual(ref.get(), {"a": {"n": 1}, "b": [1, 2, 3]})
        ref.update({"a/n": 2, "c": "x"})
        self.assertEqual(ref.child("a/n").get(), 2)
        pushed = ref.child("log").push({"m": "hi"})
        self.assertEqual(len(pushed.key), 20)
        self.assertEqual(pushed.get(), {"m": "hi"})
        ref.child("c").delete()
        self.assertIsNone(ref.child("c").get())
        self.assertEqual(set(ref.get(shallow=True)), {"a", "b", "log"})
        ref.delete()
        self.assertIsNone(ref.get())

    def test_push_ids_increase(self):
        ref = db.reference("/pushes")
        keys = [ref.push(i).key for i in range(50)]
        self.assertEqual(keys, sorted(keys))
        self.assertEqual(len(set(keys)), 50)

    def test_queries_against_the_model(self):
        rng = random.Random(SEED)
        names = ["a", "b", "Z", "_", "10", "9", "007", "7", "-1", "-", "x y", "é", "😀", "2147483648"]
        values = [None, False, True, -1, 0, 2.5, 10, "", "a", "B", "😀", {"k": 1}]
        ref = db.reference("/q")
        for round_ in range(40):
            data = {}
            for name in rng.sample(names, rng.randint(3, len(names))):
                child = {"n": rng.choice(values)} if rng.random() < 0.8 else {"other": 1}
                data[name] = child
            ref.set(data)
            stored = ref.get() or {}
            for _ in range(10):
                order = rng.choice(["n", "$key", "$value"])
                q = ref.order_by_key() if order == "$key" else ref.order_by_value() if order == "$value" else ref.order_by_child("n")
                kw = {}
                kinds = rng.sample(["start", "end", "equal", "first", "last"], rng.randint(0, 2))
                if "equal" in kinds and ("start" in kinds or "end" in kinds):
                    kinds.remove("equal")
                if "first" in kinds and "last" in kinds:
                    kinds.remove("last")
                for kind in kinds:
                    if kind in ("first", "last"):
                        kw[kind] = rng.randint(0, 5)
                    else:
                        pool = names if order == "$key" else [v for v in values if not isinstance(v, dict) and v is not None]
                        kw[kind] = rng.choice(pool)
                if "start" in kw: q = q.start_at(kw["start"])
                if "end" in kw: q = q.end_at(kw["end"])
                if "equal" in kw: q = q.equal_to(kw["equal"])
                if "first" in kw: q = q.limit_to_first(kw["first"])
                if "last" in kw: q = q.limit_to_last(kw["last"])
                got = set(q.get() or {})
                want = window(stored, order, kw.get("start"), kw.get("end"), kw.get("equal"), kw.get("first"), kw.get("last"))
                self.assertEqual(got, want, "seed %d round %d order %s %r" % (SEED, round_, order, kw))

    def test_queries_across_child_writes(self):
        # The server keeps an index per order for repeated queries: children
        # written one at a time (below the location) update it, and every
        # answer must still be the model's.
        rng = random.Random(SEED + 1)
        names = ["a", "b", "Z", "_", "10", "9", "007", "7", "-1", "x y", "é", "😀", "2147483648", "k1", "k2"]
        scalars = [False, True, -1, 0, 2.5, 10, "", "a", "B", "😀"]
        ref = db.reference("/qi")
        # Enough children for the server to index the location (1,000).
        data = {"f%04d" % i: {"n": rng.choice(scalars)} for i in range(1000)}
        data.update({name: {"n": rng.choice(scalars)} for name in names})
        ref.set(data)
        for round_ in range(40):
            name = rng.choice(names)
            roll = rng.random()
            if roll < 0.2:
                ref.child(name).delete()
            elif roll < 0.6:
                ref.child(name).update({"n": rng.choice(scalars)})
            elif roll < 0.8:
                ref.child(name).set(rng.choice(scalars))
            else:
                ref.child(name).child("n").set(rng.choice(scalars))
            stored = ref.get() or {}
            for order in ["n", "$key", "$value"]:
                q = ref.order_by_key() if order == "$key" else ref.order_by_value() if order == "$value" else ref.order_by_child("n")
                kw = {}
                pool = names if order == "$key" else scalars
                if rng.random() < 0.5:
                    kw["start"] = rng.choice(pool)
                    q = q.start_at(kw["start"])
                if rng.random() < 0.3:
                    kw["end"] = rng.choice(pool)
                    q = q.end_at(kw["end"])
                kind = rng.choice(["first", "last"])
                kw[kind] = rng.randint(1, 5)
                q = q.limit_to_first(kw[kind]) if kind == "first" else q.limit_to_last(kw[kind])
                want = window(stored, order, kw.get("start"), kw.get("end"), None, kw.get("first"), kw.get("last"))
                for attempt in range(2):
                    got = set(q.get() or {})
                    self.assertEqual(got, want, "seed %d round %d order %s %r read %d" % (SEED, round_, order, kw, attempt))

    def test_transactions(self):
        # No update is lost: 4 threads each commit 10 increments.
        # firebase-admin gives up after 25 conflicting tries
        # (TransactionAbortedError), which a busy 2-core machine can reach
        # under this contention; the caller then runs the transaction again,
        # as an application would. A server that refuses every conditional
        # write still fails, after 20 such rounds.
        ref = db.reference("/counter")
        ref.set(0)
        errors = []
        aborted = []

        def bump():
            try:
                for _ in range(10):
                    for _ in range(20):
                        try:
                            ref.transaction(lambda v: (v or 0) + 1)
                            break
                        except db.TransactionAbortedError as e:
                            aborted.append(e)
                    else:
                        raise AssertionError("a transaction never committed in 20 rounds of 25 tries")
            except Exception as e:  # noqa: BLE001
                errors.append(e)

        threads = [threading.Thread(target=bump) for _ in range(4)]
        for t in threads: t.start()
        for t in threads: t.join()
        self.assertEqual(errors, [], "%d rounds aborted" % len(aborted))
        self.assertEqual(ref.get(), 40)

    def test_etags(self):
        ref = db.reference("/tagged")
        ref.set({"v": 1})
        value, etag = ref.get(etag=True)
        self.assertEqual(value, {"v": 1})
        ok, _, _ = ref.set_if_unchanged(etag, {"v": 2})
        self.assertTrue(ok)
        ok, current, _ = ref.set_if_unchanged(etag, {"v": 3})
        self.assertFalse(ok)
        self.assertEqual(current, {"v": 2})

    def test_listen_receives_put_and_patch(self):
        ref = db.reference("/listened")
        ref.set({"a": 1})
        events = []
        arrived = threading.Condition()

        def callback(event):
            with arrived:
                events.append((event.event_type, event.path, event.data))
                arrived.notify_all()

        # An exception in the listener's thread before close() is a failure.
        # close() ends the response under the thread's blocking read; the
        # read raises when the next bytes arrive (AttributeError from
        # http.client, firebase-admin's own behaviour), which is expected.
        thread_errors = []
        closed = threading.Event()
        default_hook = threading.excepthook

        def hook(args):
            if not (closed.is_set() and args.exc_type is AttributeError):
                thread_errors.append(args.exc_value)
                default_hook(args)

        threading.excepthook = hook
        registration = ref.listen(callback)
        try:
            def wait_for(n):
                with arrived:
                    self.assertTrue(arrived.wait_for(lambda: len(events) >= n, timeout=10), events)

            wait_for(1)
            ref.child("b").set({"t": "x"})
            wait_for(2)
            ref.update({"a": 2, "c/d": 3})
            wait_for(3)
        finally:
            closed.set()
            registration.close()
            threading.excepthook = default_hook
        self.assertEqual(thread_errors, [])
        self.assertEqual(events[0], ("put", "/", {"a": 1}))
        self.assertEqual(events[1], ("put", "/b", {"t": "x"}))
        self.assertEqual(events[2][0:2], ("patch", "/"))
        self.assertEqual(events[2][2], {"a": 2, "c/d": 3})


if __name__ == "__main__":
    unittest.main(verbosity=2)
