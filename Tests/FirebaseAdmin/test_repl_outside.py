"""live-repl as a user meets it: the built binary as a process, watching a
running live-server while the Python firebase-admin package writes.

After every batch of random writes, `sync` then `show` must print exactly
the query's window: which children, firebase-admin's own get() of the same
query; in what order, the independent model in firebase_order.py (not
firebase-admin's client-side sort, which compares keys as plain strings).
While the REPL is idle, the writes must come out as `"between"` lines whose
child events, applied by prevKey, reproduce that order without any command
being typed, and whose stages, applied to the rows per section as a list view
applies them, reach the counts `show` prints (multi-path updates arrive as
grouped changes); an idle REPL must not use the CPU.

LIVE_SERVER_URL and LIVE_REPL are set by Tools/test-firebase-admin;
LIVE_TEST_SEED replays a run (the seed is printed on failure).
"""
import json
import os
import queue
import random
import shutil
import subprocess
import threading
import time
import unittest

import firebase_admin
from firebase_admin import db

from firebase_order import child_value, ordered, value_rank

SEED = int(os.environ.get("LIVE_TEST_SEED", "20261123"))
WAIT = 30  # seconds: a bound for a hung process, never a way to wait

# Keys whose Firebase order differs from a plain string sort, and names that
# are canonically equivalent but distinct (precomposed and decomposed).
KEYS = ["a", "b", "Z", "_", "007", "7", "10", "-1", "-", "-0", "00", "2147483648", "1e3",
        "😀", "｡", "x y", "\u00e9", "e\u0301", "\u00c5", "A\u030a", "\u212b",
        "\u1ea5", "a\u0302\u0301", "\ud55c", "\u1112\u1161\u11ab"]
VALUES = [None, False, True, -1, 0, 2.5, 10, 1e3, "", "a", "B", "😀", "\u00e9", "e\u0301", {"k": 1}]
GROUPS = ["g0", "g1", 1, True, None]


def setUpModule():
    if not firebase_admin._apps:
        firebase_admin.initialize_app(options={"databaseURL": "https://live-test.firebaseio.com"})


class REPL:
    """A live-repl process in --json mode with its standard input kept open."""

    def __init__(self, path, options):
        self.args = [os.environ["LIVE_REPL"], "--url", os.environ["LIVE_SERVER_URL"], "--path", path, "--json"] + options
        self.process = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True, encoding="utf-8", bufsize=1)
        self.lines = queue.Queue()
        self.transcript = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def next(self, waiting_for="anything"):
        try:
            line = self.lines.get(timeout=WAIT)
        except queue.Empty:
            raise AssertionError("live-repl printed nothing for %d s while waiting for %s; it printed:\n%s"
                                 % (WAIT, waiting_for, "\n".join(self.transcript)))
        if line is None:
            raise AssertionError("live-repl ended; it printed:\n" + "\n".join(self.transcript))
        self.transcript.append(line)
        try:
            return json.loads(line)
        except ValueError:
            raise AssertionError("not a JSON line: %r; it printed:\n%s" % (line, "\n".join(self.transcript)))

    def command(self, line):
        """Sends a command; returns its reply and the between lines before it."""
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        between = []
        while True:
            reply = self.next()
            if reply.get("between"):
                between.append(reply)
            else:
                return reply, between

    def close(self):
        self.process.stdin.close()
        status = self.process.wait(timeout=WAIT)
        self.process.stdout.close()
        return status


def apply_events(keys, change):
    """Applies a change line's child events to a list of keys as Firebase
    defines them, one change at a time (a line holding several marks each
    event with its "change"): each prevKey names the child before it in the
    order after its whole change. Removed and moved children leave; then the
    added and moved ones are placed, each once the child it follows is in
    place (in one change, a child may follow another that moves after it is
    added)."""
    groups = {}
    for event in change["events"]:
        groups.setdefault(event.get("change", 0), []).append(event)
    for number in sorted(groups):
        events = groups[number]
        for event in events:
            if event["type"] in ("child_removed", "child_added", "child_moved") and event["key"] in keys:
                keys.remove(event["key"])
        placing = [e for e in events if e["type"] in ("child_added", "child_moved")]
        waiting = {e["key"] for e in placing}
        while placing:
            ready = next((e for e in placing if e["prevKey"] is None or e["prevKey"] not in waiting), None)
            if ready is None:
                raise AssertionError("the prevKeys of %s form a cycle" % placing)
            placing.remove(ready)
            waiting.discard(ready["key"])
            prev = ready["prevKey"]
            keys.insert(0 if prev is None else keys.index(prev) + 1, ready["key"])
    return keys


def apply_stages(counts, change, where):
    """Applies a change line's stages to the rows per section, as a list view
    does under UIKit's batch rules (deletions and move sources in the old
    index space, insertions and move destinations in the new one); each stage
    must reach the counts it reports. Returns the counts after the last."""
    for stage in change["stages"]:
        after = stage["counts"]
        deleted = set(stage["deletedSections"])
        inserted = set(stage["insertedSections"])
        moved = {f: t for f, t in stage["movedSections"]}
        kept = [s for s in range(len(counts)) if s not in deleted]
        free = [i for i in range(len(after)) if i not in inserted and i not in moved.values()]
        unmoved = [s for s in kept if s not in moved]
        if len(free) != len(unmoved):
            raise AssertionError("%s: stage %s does not fit %s sections" % (where, stage, len(counts)))
        target = dict(zip(unmoved, free))
        target.update(moved)
        new = [0] * len(after)
        for s in kept:
            new[target[s]] = counts[s]
        for s, _ in stage["deletedRows"]:
            new[target[s]] -= 1
        for (f, _), (t, _) in stage["movedRows"]:
            new[target[f]] -= 1
            new[t] += 1
        for s, _ in stage["insertedRows"]:
            new[s] += 1
        for s in inserted:  # an inserted section comes with its rows
            new[s] = after[s]
        if new != after:
            raise AssertionError("%s: stage %s turns %s into %s, not the %s it reports" % (where, stage, counts, new, after))
        counts = list(after)
    return counts


def show_sections(repl, scenario, where):
    """`show`: the keys of each section (one list without sections) and the
    row count of each."""
    reply, _ = repl.command("show")
    if "sections" not in reply:
        raise AssertionError("%s: show printed %s" % (where, reply))
    sections = [s["keys"] for s in reply["sections"]]
    counts = [len(rows) for rows in sections]
    if not scenario.section:
        sections = [k for k in sections if k] or [[]]
    return sections, counts


class Scenario:
    """One query (order, bounds, limit, sections) and its expected window."""

    def __init__(self, rng):
        self.order = rng.choice(["n", "$key", "$value", "n"])
        self.bounds = {}
        self.limit = None
        kind = rng.choice([None, "start", "end", "equal", "range"])
        pool = KEYS if self.order == "$key" else [v for v in VALUES if v is not None and not isinstance(v, dict)]
        if kind == "range":
            low, high = sorted(rng.sample(pool, 2), key=self.rank)
            self.bounds = {"start": low, "end": high}
        elif kind:
            self.bounds = {kind: rng.choice(pool)}
        if rng.random() < 0.6:
            self.limit = (rng.choice(["first", "last"]), rng.randint(1, 6))
        self.section = "g" if self.order != "$value" and rng.random() < 0.4 else None

    def rank(self, v):
        from firebase_order import key_rank
        return key_rank(v) if self.order == "$key" else value_rank(v)

    def options(self):
        # Priority order is the default: no --order-by then.
        options = [] if self.order == "$priority" else ["--order-by", self.order]
        for name, value in self.bounds.items():
            flag = {"start": "--start-at", "end": "--end-at", "equal": "--equal-to"}[name]
            options.append(flag + "=" + json.dumps(value, ensure_ascii=False))
        if self.limit:
            options += ["--limit-" + self.limit[0], str(self.limit[1])]
        if self.section:
            options += ["--section-by", self.section]
        return options

    def query(self, ref):
        q = ref.order_by_key() if self.order == "$key" else ref.order_by_value() if self.order == "$value" \
            else ref.order_by_child(self.order)
        if "start" in self.bounds: q = q.start_at(self.bounds["start"])
        if "end" in self.bounds: q = q.end_at(self.bounds["end"])
        if "equal" in self.bounds: q = q.equal_to(self.bounds["equal"])
        if self.limit and self.limit[0] == "first": q = q.limit_to_first(self.limit[1])
        if self.limit and self.limit[0] == "last": q = q.limit_to_last(self.limit[1])
        return q

    def expected(self, ref):
        """The window in query order, and grouped into sections as show prints it."""
        chosen = set(self.query(ref).get() or {})
        data = ref.get() or {}
        keys = ordered(data, self.order, chosen)
        return keys, grouped(keys, data, self.section)


def grouped(keys, data, section):
    """The keys in sections by their value at `section`, as `show` prints
    them (one list without sections)."""
    if not section:
        return [keys]
    groups = {}
    for key in keys:
        value = child_value(data[key], section) if isinstance(data[key], dict) else None
        groups.setdefault(json.dumps(value, sort_keys=True), (value, []))[1].append(key)
    return [rows for _, rows in sorted(groups.values(), key=lambda g: value_rank(g[0]))]


def random_child(rng):
    child = {}
    if rng.random() < 0.85:
        child["n"] = rng.choice(VALUES)
    if rng.random() < 0.6:
        child["g"] = rng.choice(GROUPS)
    child["t"] = rng.choice(["x", "y" * rng.randint(1, 40)])
    return {k: v for k, v in child.items() if v is not None} or rng.choice([1, "v", False])


def member_value(rng, member, present=False):
    """A value for child member n (any kind) or g (a section: never an object);
    with present, not null (firebase-admin refuses to set null)."""
    return rng.choice([v for v in (VALUES if member == "n" else GROUPS) if v is not None or not present])


def write_batch(ref, rng):
    """One to four writes of several kinds, deep paths included."""
    for _ in range(rng.randint(1, 4)):
        kind = rng.choice(["set", "deep", "update", "delete", "push", "value"])
        key = rng.choice(KEYS)
        if kind == "set":
            ref.child(key).set(random_child(rng))
        elif kind == "deep":  # may create the child
            member = rng.choice(["n", "g"])
            ref.child(key).child(member).set(member_value(rng, member, present=True))
        elif kind == "update":
            paths = {}
            for name in rng.sample(KEYS, rng.randint(2, 4)):
                if rng.random() < 0.6:
                    member = rng.choice(["n", "g"])
                    paths[name + "/" + member] = member_value(rng, member)
                else:
                    paths[name] = rng.choice([random_child(rng), None])
            ref.update(paths)
        elif kind == "delete":
            ref.child(key).delete()
        elif kind == "push":
            ref.push(random_child(rng))
        else:
            ref.child(key).set(rng.choice([v for v in VALUES if v is not None]))


class REPLOutsideTests(unittest.TestCase):
    def run_scenario(self, index, rng, idle):
        scenario = Scenario(rng)
        ref = db.reference("/outside/%d" % index)
        ref.set({k: random_child(rng) for k in rng.sample(KEYS, rng.randint(4, 12))})
        repl = REPL(ref.path, scenario.options())
        where = "seed %d scenario %d %s (replay: LIVE_TEST_SEED=%d)" % (SEED, index, " ".join(scenario.options()), SEED)
        try:
            reply, _ = repl.command("sync")
            self.assertTrue(reply.get("synced"), "%s: %s" % (where, reply))
            mirror, _, counts = self.show(repl, scenario, ref, where)
            for round_ in range(6):
                write_batch(ref, rng)
                flat, sections = scenario.expected(ref)
                if idle:
                    # Nothing is typed: the change must come by itself.
                    while mirror != flat:
                        line = repl.next("%s round %d: %s (child events so far give %s)" % (where, round_, flat, mirror))
                        self.assertTrue(line.get("between"), "%s round %d: %s" % (where, round_, line))
                        apply_events(mirror, line)
                        counts = apply_stages(counts, line, "%s round %d" % (where, round_))
                reply, between = repl.command("sync")
                self.assertTrue(reply.get("synced"), "%s round %d: %s" % (where, round_, reply))
                for line in between:
                    apply_events(mirror, line)
                    counts = apply_stages(counts, line, "%s round %d" % (where, round_))
                shown, shown_sections, shown_counts = self.show(repl, scenario, ref, where)
                self.assertEqual(counts, shown_counts, "%s round %d: stages applied vs show" % (where, round_))
                self.assertEqual(shown_sections, sections, "%s round %d: show" % (where, round_))
                self.assertEqual(mirror, shown, "%s round %d: events applied by prevKey vs show" % (where, round_))
        finally:
            status = repl.close()
        self.assertEqual(status, 0, "%s\n%s" % (where, "\n".join(repl.transcript)))

    def show(self, repl, scenario, ref, where):
        sections, counts = show_sections(repl, scenario, where)
        flat = [k for rows in sections for k in rows]
        return list(flat) if not scenario.section else self.query_order(flat, scenario, ref), sections, counts

    @staticmethod
    def query_order(keys, scenario, ref):
        return ordered(ref.get() or {}, scenario.order, keys)

    def test_live_query_order_and_filter_changes(self):
        """`query` while firebase-admin writes: a new window, order, section
        rule or --where filter is one change line whose stages, applied as a
        list view applies them, reach what `show` prints; the query's child
        events, applied by prevKey, give the new window (a --where change
        alone has none); rows are the window's children that meet --where."""
        rng = random.Random(SEED + 2)
        ref = db.reference("/outside/requery")
        ref.set({k: random_child(rng) for k in rng.sample(KEYS, 12)})
        scenario = Scenario(rng)
        scenario.section = "g"
        repl = REPL(ref.path, scenario.options())
        where = "seed %d (replay: LIVE_TEST_SEED=%d)" % (SEED, SEED)
        try:
            reply, _ = repl.command("sync")
            self.assertTrue(reply.get("synced"), "%s: %s" % (where, reply))
            _, _, counts = self.show(repl, scenario, ref, where)
            mirror, _ = scenario.expected(ref)
            condition = None
            for round_ in range(12):
                write_batch(ref, rng)
                reply, between = repl.command("sync")
                for line in between:
                    apply_events(mirror, line)
                    counts = apply_stages(counts, line, "%s round %d" % (where, round_))
                old_options, old_condition = scenario.options(), condition
                if rng.random() < 0.6:
                    fresh = Scenario(rng)
                    fresh.section = "g" if rng.random() < 0.8 else None
                    if fresh.section != scenario.section:
                        fresh.section = scenario.section  # the kind of sections stays: the live path
                    scenario = fresh
                condition = rng.choice([None, ("n", ">=", 0), ("n", "<", "a"), ("n", "!=", True), ("g", "==", "g1")])
                options = scenario.options() + (["--where", "%s %s %s" % (condition[0], condition[1], json.dumps(condition[2]))]
                                                if condition else [])
                line = "query " + " ".join("'%s'" % o.replace("'", "'\\''") for o in options)
                reply, between = repl.command(line)
                context = "%s round %d: %s (from %s)" % (where, round_, line, " ".join(old_options))
                for b in between:
                    apply_events(mirror, b)
                    counts = apply_stages(counts, b, context)
                self.assertIn("stages", reply, "%s: %s" % (context, reply))
                if scenario.options() != old_options or condition == old_condition:
                    mirror = []  # listening anew: a new listener's events
                else:
                    self.assertEqual(reply["events"], [], "%s: a --where change alone has no events" % context)
                apply_events(mirror, reply)
                counts = apply_stages(counts, reply, context)
                reply, between = repl.command("sync")
                self.assertTrue(reply.get("synced"), "%s: %s" % (context, reply))
                for b in between:
                    apply_events(mirror, b)
                    counts = apply_stages(counts, b, context)
                flat, _ = scenario.expected(ref)
                self.assertEqual(mirror, flat, "%s: events applied by prevKey vs the window" % context)
                expected = self.filtered_sections(ref, scenario, flat, condition)
                shown, shown_sections, shown_counts = self.show(repl, scenario, ref, context)
                self.assertEqual(shown_counts, counts, "%s: stages applied vs show" % context)
                self.assertEqual(shown_sections, expected, "%s: show" % context)
        finally:
            status = repl.close()
        self.assertEqual(status, 0, "%s\n%s" % (where, "\n".join(repl.transcript)))

    @staticmethod
    def filtered_sections(ref, scenario, flat, condition):
        """The window's keys that meet the condition, as `show` groups them."""
        data = ref.get() or {}
        def meets(key):
            if not condition:
                return True
            path, op, bound = condition
            actual = value_rank(child_value(data[key], path) if isinstance(data[key], dict) else None)
            b = value_rank(bound)
            return {">=": actual >= b, "<": actual < b, "!=": actual != b, "==": actual == b}[op]
        return grouped([k for k in flat if meets(k)], data, scenario.section)

    def test_random_writes_sync_then_show(self):
        rng = random.Random(SEED)
        for index in range(10):
            self.run_scenario(index, rng, idle=False)

    def test_idle_repl_prints_outside_writes(self):
        rng = random.Random(SEED + 1)
        for index in range(10, 18):
            self.run_scenario(index, rng, idle=True)

    def test_canonically_equivalent_names_in_one_request(self):
        ref = db.reference("/outside/names")
        pairs = [("\u00e9", "e\u0301"), ("\u00c5", "A\u030a"), ("\u00c5", "\u212b"),
                 ("a\u0323\u0302", "a\u0302\u0323"), ("\u1ead", "a\u0323\u0302"),
                 ("\ud55c", "\u1112\u1161\u11ab")]
        data = {}
        for i, (one, other) in enumerate(pairs):
            data[one] = {"n": 2 * i}
            data[other] = {"n": 2 * i + 1}
        ref.set({})
        ref.update(data)
        self.assertEqual(set(ref.get() or {}), set(data))
        repl = REPL(ref.path, ["--order-by", "n"])
        try:
            reply, _ = repl.command("sync")
            self.assertTrue(reply.get("synced"), reply)
            reply, _ = repl.command("show")
            self.assertEqual(reply["sections"][0]["keys"], ordered(data, "n"))
        finally:
            repl.close()

    def test_deep_writes_below_primitives_and_priorities(self):
        """firebase-admin writes and deletes deep inside children: below a
        primitive (a delete leaves it, as the server does; a write makes it
        an object) and through a nested priority. live-repl's rows must equal
        the server's after each (`sync` compares keys, order and values)."""
        ref = db.reference("/outside/deep")
        ref.set({"k": {"a": 5, "n": 1}, "m": {"n": 2, "p": {"q": {".value": 1, ".priority": 4}}}})
        repl = REPL(ref.path, ["--order-by", "n"])
        try:
            for path, value in [("k/a/b", None), ("k/a/b/c", None), ("k/a/b/c", True), ("k/a/b/c", None),
                                ("m/p/q/r", 2), ("m/p/q/r", None), ("k/n", 3)]:
                if value is None:
                    ref.child(path).delete()
                else:
                    ref.child(path).set(value)
                reply, _ = repl.command("sync 30")
                self.assertTrue(reply.get("synced"), "after %s = %r: %s" % (path, value, reply))
            shown, _ = repl.command("show")
            self.assertEqual([k for section in shown["sections"] for k in section["keys"]], ["m", "k"])
        finally:
            repl.close()

    def test_sync_while_firebase_admin_writes_without_pause(self):
        """`sync` returns while another client keeps writing: the collection
        meets one of the server's answers (it used to chase them until its
        timeout), and `show` afterwards is in Firebase's order."""
        ref = db.reference("/outside/churn")
        ref.set({"k%d" % i: {"n": i} for i in range(3000)})
        ref.child("c0").set({"n": 0})
        stop = threading.Event()
        written = [1]

        def write():
            # Moves one of 20 children at a time until the sync is answered.
            while not stop.is_set():
                ref.child("c%d" % (len(written) % 20)).set({"n": -len(written)})
                written.append(1)

        writer = threading.Thread(target=write, daemon=True)
        writer.start()
        repl = REPL(ref.path, ["--order-by", "n"])
        try:
            reply, _ = repl.command("sync 60")
            stop.set()
            writer.join(WAIT)
            self.assertTrue(reply.get("synced"), "after %d writes (seed %d): %s" % (len(written), SEED, reply))
            reply, _ = repl.command("sync")
            self.assertTrue(reply.get("synced"), reply)
            shown, _ = repl.command("show")
            keys = [k for section in shown["sections"] for k in section["keys"]]
            self.assertEqual(keys, ordered(ref.get(), "n"))
        finally:
            stop.set()
            repl.close()

    def test_idle_repl_uses_no_cpu(self):
        """A REPL connected to the server and waiting for input costs no CPU
        beyond reading the stream's keep-alives. The window it is watched for
        is made of real work (firebase-admin writing elsewhere), not a pause."""
        ref = db.reference("/outside/idle")
        ref.set({"a": {"n": 1}})
        other = db.reference("/outside/idle-elsewhere")
        repl = REPL(ref.path, ["--order-by", "n"])
        try:
            reply, _ = repl.command("sync")
            self.assertTrue(reply.get("synced"), reply)
            before, started = cpu_ticks(repl.process.pid), time.monotonic()
            writes = 0
            while time.monotonic() - started < 3 or writes < 20:
                other.set(writes)
                writes += 1
            ticks, elapsed = cpu_ticks(repl.process.pid) - before, time.monotonic() - started
            share = ticks / os.sysconf("SC_CLK_TCK") / elapsed
            self.assertLess(share, 0.1, "the idle live-repl used %.0f%% of a core for %.1f s (%d ticks)"
                            % (100 * share, elapsed, ticks))
        finally:
            repl.close()


def cpu_ticks(pid):
    """User and system CPU time of a process so far, in clock ticks."""
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


@unittest.skipUnless(shutil.which("tmux"), "tmux is not installed")
class REPLTerminalTests(unittest.TestCase):
    def test_outside_write_appears_without_typing(self):
        ref = db.reference("/outside/terminal")
        ref.set({"a": {"n": 1}, "b": {"n": 2}})
        socket = "live-repl-outside-%d" % os.getpid()
        command = "env HOME=/nonexistent NO_COLOR=1 TERM=xterm-256color %s --url %s --path %s --order-by n" % (
            os.environ["LIVE_REPL"], os.environ["LIVE_SERVER_URL"], ref.path)
        subprocess.run(["tmux", "-L", socket, "new-session", "-d", "-x", "160", "-y", "40", command], check=True)
        try:
            screen = lambda: subprocess.run(["tmux", "-L", socket, "capture-pane", "-p"], capture_output=True,
                                            text=True).stdout
            self.wait_for(screen, lambda s: "2 children loaded" in s)
            ref.child("c").set({"n": 0})
            self.wait_for(screen, lambda s: "(from the server)" in s and "child_added c first" in s)
        finally:
            subprocess.run(["tmux", "-L", socket, "kill-server"], capture_output=True)

    def wait_for(self, screen, condition):
        """Looks at the screen every 50 ms until condition holds (tmux tells no one when it changes)."""
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if condition(screen()):
                return
            time.sleep(0.05)
        self.fail("the screen never showed it:\n" + screen())


if __name__ == "__main__":
    unittest.main(verbosity=2)
