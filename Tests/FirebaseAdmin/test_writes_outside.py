"""Writes typed into live-repl, as a user meets them: the built binary as a
process, connected to a running live-server while the Python firebase-admin
package writes too.

Each `set`, `update`, `push` and `remove` must show at once: its change line
carries the write as `pending`, with the stages a list view applies. Later,
between commands, the same write comes back `confirmed`, or `reverted` with
the server's reason (a stale `--if-match` ETag), and a revert's stages undo
it. Applied one after another as a list view applies them, every stage must
reach the counts it reports and, after `sync`, the counts `show` prints;
`show` must be the query's window by Firebase's order (firebase_order.py),
from what firebase-admin reads back. Every write is answered exactly once.

LIVE_SERVER_URL and LIVE_REPL are set by Tools/test-firebase-admin;
LIVE_TEST_SEED replays a run (the seed is printed on failure).
"""
import json
import random
import unittest

from firebase_admin import db

from test_repl_outside import KEYS, REPL, SEED, Scenario, apply_stages, member_value, random_child, \
    setUpModule, show_sections, write_batch  # noqa: F401 (setUpModule initialises firebase-admin)

# Keys a REPL path can hold (a word: no space).
PATH_KEYS = [k for k in KEYS if " " not in k]


def repl_write(rng):
    """A random write command, and whether the server must refuse it."""
    kind = rng.choice(["set", "deep", "update", "remove", "push", "stale"])
    key = rng.choice(PATH_KEYS)
    dumps = lambda v: json.dumps(v, ensure_ascii=False)  # noqa: E731
    if kind == "set":
        return "set /%s %s" % (key, dumps(random_child(rng))), False
    if kind == "deep":
        member = rng.choice(["n", "g"])
        return "set /%s/%s %s" % (key, member, dumps(member_value(rng, member, present=True))), False
    if kind == "update":
        paths = {}
        for name in rng.sample(PATH_KEYS, rng.randint(2, 4)):
            member = rng.choice(["n", "g"])
            paths[name + "/" + member] = member_value(rng, member)
        return "update / %s" % dumps(paths), False
    if kind == "remove":
        return "remove /%s" % key, False
    if kind == "push":
        return "push / %s" % dumps(random_child(rng)), False
    return "set --if-match stale-etag /%s %s" % (key, dumps(random_child(rng))), True


class WritesOutsideTests(unittest.TestCase):
    def test_writes_show_at_once_then_confirm_or_revert(self):
        rng = random.Random(SEED + 7)
        for index in range(4):
            self.run_scenario(index, rng)

    def run_scenario(self, index, rng):
        scenario = Scenario(rng)
        ref = db.reference("/writes-outside/%d" % index)
        ref.set({k: random_child(rng) for k in rng.sample(KEYS, rng.randint(4, 12))})
        repl = REPL(ref.path, scenario.options())
        where = "seed %d scenario %d %s (replay: LIVE_TEST_SEED=%d)" % (SEED, index, " ".join(scenario.options()), SEED)
        states = {}  # write id -> states seen, in order
        refused = set()  # ids of the writes the server must refuse
        try:
            reply, _ = repl.command("sync")
            self.assertTrue(reply.get("synced"), "%s: %s" % (where, reply))
            counts = show_sections(repl, scenario, where)[1]

            def take(line, step):
                nonlocal counts
                counts = apply_stages(counts, line, step)
                for write in line.get("writes", []):
                    states.setdefault(write["id"], []).append(write["state"])
                    if write["state"] == "reverted":
                        self.assertIn("ETag", write.get("error", ""), "%s: %s" % (step, line))

            for round_ in range(5):
                for n in range(rng.randint(1, 5)):
                    command, refuse = repl_write(rng)
                    step = "%s round %d: %s" % (where, round_, command)
                    reply, between = repl.command(command)
                    for line in between:
                        take(line, step)
                    self.assertIn("stages", reply, "%s: %s" % (step, reply))
                    # Shown at once: the command's own change holds the write, pending.
                    mine = [w for w in reply.get("writes", []) if w["state"] == "pending"]
                    self.assertEqual(len(mine), 1, "%s: %s" % (step, reply))
                    if refuse:
                        refused.add(mine[0]["id"])
                    take(reply, step)
                    if rng.random() < 0.4:
                        write_batch(ref, rng)  # another client, meanwhile
                reply, between = repl.command("sync")
                step = "%s round %d: sync" % (where, round_)
                self.assertTrue(reply.get("synced"), "%s: %s" % (step, reply))
                for line in between:
                    take(line, step)
                sections, shown_counts = show_sections(repl, scenario, where)
                self.assertEqual(counts, shown_counts, "%s: stages applied vs show" % step)
                self.assertEqual(sections, scenario.expected(ref)[1], "%s: show vs the server" % step)
                for id_, seen in states.items():
                    final = "reverted" if id_ in refused else "confirmed"
                    self.assertEqual(seen, ["pending", final], "%s: write %d" % (step, id_))
        finally:
            status = repl.close()
        self.assertEqual(status, 0, "%s\n%s" % (where, "\n".join(repl.transcript)))


if __name__ == "__main__":
    unittest.main()
