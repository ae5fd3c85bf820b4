"""live-repl in Firebase's default order, by priority, as a user meets it:
the built binary as a process, with no --order-by, watching a running
live-server while the Python firebase-admin package writes children with
priorities, changes priorities alone, and replaces children (which drops
their priority).

After every batch of writes, `sync` then `show` must print the query's
window (bounds on priorities, limits, sections by a child) in the order of
an independent model of Firebase's documented rules (firebase_order.py):
no priority first, then numbers, then strings, ties by key. The priorities
are read back from the server in its export format (`format=export`), which
firebase-admin does not ask for; the server's own REST answer to the same
query must hold the same children.

LIVE_SERVER_URL and LIVE_REPL are set by Tools/test-firebase-admin;
LIVE_TEST_SEED replays a run (the seed is printed on failure).
"""
import json
import os
import random
import unittest
import urllib.parse
import urllib.request

from firebase_admin import db

from firebase_order import key_rank, priority_of, priority_rank, window
from test_repl_outside import KEYS, REPL, SEED, Scenario, apply_events, apply_stages, grouped, random_child, \
    setUpModule, show_sections, write_batch  # noqa: F401 (setUpModule initialises firebase-admin)

# Priorities of every kind a priority can be, numbers and strings mixed, with
# strings that a code point sort and a UTF-16 sort put in different orders.
PRIORITIES = [None, -1, 0, 2.5, 10, 1e3, "", "0", "a", "B", "\u00e9", "e\u0301", "😀", "｡"]
BOUNDS = [p for p in PRIORITIES if p is not None]


def with_priority(value, priority):
    """A child's value as written with a priority (export format)."""
    if priority is None:
        return value
    if isinstance(value, dict):
        return dict(value, **{".priority": priority})
    return {".value": value, ".priority": priority}


def server_read(path, query=None):
    """GET from live-server itself: the export format, or a query's answer."""
    params = {"format": "export"} if query is None else query
    url = os.environ["LIVE_SERVER_URL"] + urllib.parse.quote(path) + ".json?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=30) as reply:
        return json.loads(reply.read().decode("utf-8"))


class PriorityScenario(Scenario):
    """A query in priority order (bounds, limit, sections) and its window."""

    def __init__(self, rng):
        self.order = "$priority"
        self.bounds = {}
        kind = rng.choice([None, "start", "end", "equal", "range"])
        if kind == "range":
            low, high = sorted(rng.sample(BOUNDS, 2), key=priority_rank)
            self.bounds = {"start": low, "end": high}
        elif kind:
            self.bounds = {kind: rng.choice(BOUNDS)}
        self.limit = (rng.choice(["first", "last"]), rng.randint(1, 6)) if rng.random() < 0.6 else None
        self.section = "g" if rng.random() < 0.5 else None

    def rest_query(self):
        query = {"orderBy": json.dumps("$priority")}
        names = {"start": "startAt", "end": "endAt", "equal": "equalTo"}
        for name, value in self.bounds.items():
            query[names[name]] = json.dumps(value, ensure_ascii=False)
        if self.limit:
            query["limitToFirst" if self.limit[0] == "first" else "limitToLast"] = str(self.limit[1])
        return query

    def expected(self, export):
        """The window in priority order, and grouped as `show` prints it."""
        bounds = {name: self.bounds.get(name) for name in ("start", "end", "equal")}
        limit = {"first": None, "last": None}
        if self.limit:
            limit[self.limit[0]] = self.limit[1]
        keys = sorted(window(export, "$priority", **bounds, **limit),
                      key=lambda k: (priority_rank(priority_of(export[k])), key_rank(k)))
        return keys, grouped(keys, export, self.section)


def write_priorities(ref, rng):
    """One to four writes that set, change or drop priorities: with the
    value, in the export format, or alone, at a child's `.priority` path."""
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["set", "priority", "alone", "update", "plain"])
        key = rng.choice(KEYS)
        if kind == "set":  # a whole child with a priority
            ref.child(key).set(with_priority(random_child(rng), rng.choice(PRIORITIES)))
        elif kind == "priority":  # the same data under another priority
            child = server_read(ref.path + "/" + key)
            if isinstance(child, dict) and ".value" in child:
                child = child[".value"]
            elif isinstance(child, dict):
                child = {name: value for name, value in child.items() if name != ".priority"}
            ref.child(key).set(with_priority(child if child is not None else random_child(rng), rng.choice(BOUNDS)))
        elif kind == "alone":  # priorities alone, as setPriority writes them (an absent child gets none)
            ref.update({name + "/.priority": rng.choice(BOUNDS + [None])
                        for name in rng.sample(KEYS, rng.randint(1, 3))})
        elif kind == "update":  # several children, each with its priority
            ref.update({name: with_priority(random_child(rng), rng.choice(PRIORITIES))
                        for name in rng.sample(KEYS, rng.randint(2, 4))})
        else:  # writes that know nothing of priorities (a set drops one)
            write_batch(ref, rng)


class PriorityOrderTests(unittest.TestCase):
    def test_default_order_by_priority_while_firebase_admin_writes(self):
        rng = random.Random(SEED + 7)
        for index in range(8):
            self.run_scenario(index, rng)

    def run_scenario(self, index, rng):
        scenario = PriorityScenario(rng)
        ref = db.reference("/outside/priority/%d" % index)
        ref.set({k: with_priority(random_child(rng), rng.choice(PRIORITIES)) for k in rng.sample(KEYS, rng.randint(4, 12))})
        repl = REPL(ref.path, scenario.options())
        where = "seed %d scenario %d %s (replay: LIVE_TEST_SEED=%d)" % (SEED, index, " ".join(scenario.options()), SEED)
        try:
            reply, _ = repl.command("sync")
            self.assertTrue(reply.get("synced"), "%s: %s" % (where, reply))
            shown, counts = show_sections(repl, scenario, where)
            mirror = [k for rows in shown for k in rows]
            for round_ in range(6):
                write_priorities(ref, rng)
                context = "%s round %d" % (where, round_)
                reply, between = repl.command("sync")
                self.assertTrue(reply.get("synced"), "%s: %s" % (context, reply))
                for line in between:
                    apply_events(mirror, line)
                    counts = apply_stages(counts, line, context)
                export = server_read(ref.path) or {}
                if not isinstance(export, dict):
                    export = {}
                flat, sections = scenario.expected(export)
                answer = server_read(ref.path, scenario.rest_query()) or {}
                self.assertEqual(sorted(answer), sorted(flat), "%s: the server's REST answer vs the model" % context)
                shown_sections, shown_counts = show_sections(repl, scenario, context)
                self.assertEqual(shown_counts, counts, "%s: stages applied vs show" % context)
                self.assertEqual(shown_sections, sections, "%s: show vs the model (priorities %s)" % (
                    context, {k: priority_of(export[k]) for k in flat}))
                if not scenario.section:
                    self.assertEqual(mirror, flat, "%s: child events applied by prevKey vs the model; events %s" % (
                        context, [line["events"] for line in between]))
        finally:
            status = repl.close()
        self.assertEqual(status, 0, "%s\n%s" % (where, "\n".join(repl.transcript)))


if __name__ == "__main__":
    unittest.main()
