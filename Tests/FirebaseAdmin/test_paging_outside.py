"""Pages from the end in live-repl as a user meets them: the built binary as
a process, `load last N` then `load older`, while the Python firebase-admin
package adds children at the end, changes and removes others.

The first page must be the query's last N children by Firebase's order
(firebase_order.py). Each `load older` must be one change that only
inserts rows at the top (rows 0..p-1, p its `"prepended"`), and from then
on the rows shown must be every child from the oldest loaded one to the
end: children added at the end add rows and push none out. Applied as a
list view applies them, the stages must reach the counts `show` prints.

LIVE_SERVER_URL and LIVE_REPL are set by Tools/test-firebase-admin;
LIVE_TEST_SEED replays a run (the seed is printed on failure).
"""
import random
import unittest

from firebase_admin import db

from firebase_order import ordered, value_rank
from test_repl_outside import KEYS, REPL, SEED, apply_stages, setUpModule  # noqa: F401

VALUES = [None, False, True, -1, 0, 2.5, 10, "", "a", "B", "\u00e9", "e\u0301"]


def child(rng):
    value = rng.choice(VALUES)
    return {"t": "x"} if value is None else {"n": value, "t": "x"}


def sort_value(child):
    return child.get("n") if isinstance(child, dict) else None


class PagingOutsideTests(unittest.TestCase):
    def test_older_pages_are_prepended_and_the_window_stays_anchored(self):
        rng = random.Random(SEED + 13)
        for index in range(4):
            self.run_scenario(index, rng)

    def run_scenario(self, index, rng):
        order = rng.choice(["n", "$key"])
        size = rng.randint(1, 4)
        ref = db.reference("/paging-outside/%d" % index)
        ref.set({k: child(rng) for k in rng.sample(KEYS, rng.randint(6, 16))})
        where = "seed %d scenario %d order %s size %d (replay: LIVE_TEST_SEED=%d)" % (SEED, index, order, size, SEED)
        repl = REPL(ref.path, ["--order-by", order, "--json"])
        added = 0
        try:
            reply, _ = repl.command("load last %d" % size)
            self.assertIn("stages", reply, "%s: %s" % (where, reply))
            shown = self.show(repl, where)
            counts = [len(shown)]
            self.assertEqual(shown, ordered(ref.get(), order)[-size:], "%s: the first page" % where)
            anchored = False
            for round_ in range(5):
                step = "%s round %d" % (where, round_)
                if anchored:
                    # Another client: new children at the end, changes, a removal.
                    for _ in range(rng.randint(1, 3)):
                        added += 1
                        key = "\uffee%02d" % added
                        ref.child(key).set({"n": "\uffff%02d" % added, "t": "new"} if order == "n" else {"t": "new"})
                    ref.child(rng.choice(shown)).child("t").set("changed %d" % round_)
                    if rng.random() < 0.3 and len(shown) > 1:
                        ref.child(rng.choice(shown[1:])).delete()
                reply, between = repl.command("sync")
                self.assertTrue(reply.get("synced"), "%s: %s" % (step, reply))
                for line in between:
                    counts = apply_stages(counts, line, step)
                before = self.show(repl, step)
                self.assertEqual([len(before)], counts, "%s: stages applied vs show" % step)
                full = ordered(ref.get(), order)
                if anchored:
                    # Children added at the end pushed none out: the oldest loaded stays.
                    self.assertIn(oldest, before, "%s: %s" % (step, before))
                    self.assertEqual(before, full[full.index(before[0]):], "%s: every child from the oldest loaded" % step)
                reply, between = repl.command("load older")
                for line in between:
                    counts = apply_stages(counts, line, step)
                prepended = reply.get("prepended")
                self.assertIsNotNone(prepended, "%s: %s" % (step, reply))
                counts = apply_stages(counts, reply, step)
                after = self.show(repl, step)
                self.assertEqual([len(after)], counts, "%s: stages applied vs show" % step)
                inserted = sorted(row for stage in reply["stages"] for _, row in stage["insertedRows"])
                self.assertEqual(inserted, list(range(prepended)), "%s: %s" % (step, reply))
                self.assertFalse(any(stage["deletedRows"] for stage in reply["stages"]), "%s: %s" % (step, reply))
                self.assertEqual(after[prepended:], before, "%s: the rows shown stay, below the new ones" % step)
                first = full.index(before[0]) if before else len(full)
                self.assertEqual(after, full[max(0, first - size):], "%s: the page before them" % step)
                # The window starts at the oldest loaded child, unless an older
                # one ties with it (the same sort value): then it stays the last
                # children (limitToLast).
                data = ref.get()
                index_ = full.index(after[0])
                tie = order == "n" and index_ > 0 and value_rank(sort_value(data[full[index_ - 1]])) \
                    == value_rank(sort_value(data[after[0]]))
                window = repl.command("query")[0]["text"][0]
                self.assertEqual("limitToLast" in window, tie, "%s: %s" % (step, window))
                anchored = not tie
                oldest = after[0]
                shown = after
        finally:
            status = repl.close()
        self.assertEqual(status, 0, "%s\n%s" % (where, "\n".join(repl.transcript)))

    def show(self, repl, where):
        reply, _ = repl.command("show")
        if "sections" not in reply:
            raise AssertionError("%s: show printed %s" % (where, reply))
        return [key for section in reply["sections"] for key in section["keys"]]


if __name__ == "__main__":
    unittest.main()
