"""Flight recordings as a user meets them: the built live-repl records a
session (--record) while the Python firebase-admin package writes to a
running live-server and the REPL makes writes of its own; a second
live-repl then replays the file (--replay) and must say every change was
told the same, and show the same rows in the same sections. A copy of the
file with one change altered must be named at that change; --until stops
there and goes on from that state.

LIVE_SERVER_URL and LIVE_REPL are set by Tools/test-firebase-admin;
LIVE_TEST_SEED replays a run (the seed is printed on failure).
"""
import json
import os
import random
import subprocess
import tempfile
import unittest

from firebase_admin import db

from test_repl_outside import KEYS, REPL, WAIT, random_child, write_batch, setUpModule  # noqa: F401

SEED = int(os.environ.get("LIVE_TEST_SEED", "20261130"))


def replay(path, *options, commands=""):
    """Runs live-repl --replay PATH (--json); returns its status and lines."""
    run = subprocess.run([os.environ["LIVE_REPL"], "--replay", path, "--json", *options], input=commands,
                         capture_output=True, text=True, encoding="utf-8", timeout=WAIT)
    lines = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    return run.returncode, lines, run.stderr


def counts_after(entries):
    """The row counts after each change, as docs/RECORDING.md says: a
    change's "after", or the counts before it (its "before", the state's
    "counts" or the last change's) with its "rows" set."""
    afters, counts = [], None
    for e in entries:
        if e["k"] == "state":
            counts = e.get("counts")
        elif e["k"] == "change":
            before = e.get("before", counts)
            if "after" in e:
                counts = e["after"]
            else:
                counts = list(before)
                for section, count in e["rows"]:
                    counts[section] = count
            afters.append(counts)
    return afters


class RecordingOutsideTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.mkdtemp()
        self.file = os.path.join(self.directory, "session.jsonl")

    def record(self, rng, path, options):
        """A recorded session: firebase-admin's writes and the REPL's own;
        returns what show printed at the end."""
        ref = db.reference(path)
        ref.set({key: random_child(rng) for key in rng.sample(KEYS, 8)})
        repl = REPL(path, options + ["--record", self.file])
        for round in range(12):
            write_batch(ref, rng)
            if round % 3 == 1:
                key = rng.choice([k for k in KEYS if " " not in k])  # a command's path is one word
                reply, _ = repl.command("set /%s %s" % (key, json.dumps(random_child(rng), ensure_ascii=False)))
                self.assertNotIn("error", reply, "seed %d: %s" % (SEED, reply))
            reply, _ = repl.command("sync 20")
            self.assertNotIn("error", reply, "seed %d: %s" % (SEED, reply))
        shown, _ = repl.command("show")
        self.assertEqual(repl.close(), 0, "seed %d: %s" % (SEED, "\n".join(repl.transcript)))
        return [s["keys"] for s in shown["sections"]]

    def test_recorded_session_replays_identically(self):
        rng = random.Random(SEED)
        path = "/recording/%d" % SEED
        options = ["--order-by", "n", "--limit-last", "6", "--section-by", "g"]
        shown = self.record(rng, path, options)
        with open(self.file, encoding="utf-8") as f:
            entries = [json.loads(line) for line in f]
        self.assertEqual(entries[0]["k"], "header")
        self.assertEqual(entries[0]["path"], path)
        changes = [e for e in entries if e["k"] == "change"]
        afters = counts_after(entries)
        self.assertGreater(len(changes), 5, "seed %d" % SEED)
        self.assertTrue(any(e["k"] == "write" for e in entries) and any(e["k"] == "outcome" for e in entries))
        # Redacted by default: "t" is neither the order nor the sections.
        for e in entries:
            if e["k"] == "put" and isinstance(e["data"], dict) and isinstance(e["data"].get("t"), str):
                self.assertTrue(e["data"]["t"].startswith("~string:"), e)

        status, lines, stderr = replay(self.file, commands="show\n")
        verdict = lines[0]["text"][0]
        self.assertEqual(status, 0, "seed %d: %s %s" % (SEED, lines, stderr))
        self.assertEqual(verdict, "replayed %d changes, identical" % len(changes), "seed %d" % SEED)
        self.assertEqual([s["keys"] for s in lines[-1]["sections"]], shown, "seed %d: the same rows and sections" % SEED)

        # --until 3: stopped there, then the commands run on that state.
        status, lines, _ = replay(self.file, "--until", "3", commands="show\n")
        self.assertEqual(lines[0]["text"][0], "replayed 3 changes, identical so far; stopped (replay N goes on)")
        self.assertIn("sections", lines[-1], "seed %d: %s" % (SEED, lines))
        self.assertEqual([len(s["keys"]) for s in lines[-1]["sections"]], afters[2])

        # One change altered: named, as a defect, exit status 1.
        altered = os.path.join(self.directory, "altered.jsonl")
        with open(self.file, encoding="utf-8") as f:
            text = f.read().splitlines()
        target = changes[3]["n"]
        for i, line in enumerate(text):
            entry = json.loads(line)
            if entry["k"] == "change" and entry["n"] == target:
                entry.pop("rows", None)
                entry["after"] = afters[3] + [1]
                text[i] = json.dumps(entry, ensure_ascii=False)
        with open(altered, "w", encoding="utf-8") as f:
            f.write("\n".join(text) + "\n")
        status, lines, _ = replay(altered)
        self.assertEqual(status, 1)
        self.assertTrue(lines[0]["text"][0].startswith("change %d differs: a defect in LiveCollection" % target), lines)

    def test_refusals_say_why(self):
        with open(self.file, "w") as f:
            f.write('{"format":1,"identity":"x"}\n')
        status, _, stderr = replay(self.file)
        self.assertEqual(status, 1)
        self.assertIn("not a LiveCollection recording", stderr)
        status, _, stderr = replay(os.path.join(self.directory, "missing.jsonl"))
        self.assertEqual(status, 1)
        self.assertIn("cannot read", stderr)


if __name__ == "__main__":
    unittest.main()
