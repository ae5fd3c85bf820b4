"""Flight recordings at their boundaries, as an ordinary user meets them:
the built live-repl as a process, run as user nobody (65534) when the tests
run as root (as CI does), through `setpriv`; as it is otherwise. Sessions
are offline, their data injected with `put` (no server is needed).

- As nobody, in nobody's directory: `--record FILE` makes a file readable
  by its owner alone (0600), and a second live-repl, also nobody, replays
  it: every change told the same, the same rows shown; the same again
  read from a pipe (`--replay <(cat FILE)`).
- A directory nobody cannot write to: `--record` there fails at once
  (status 1), saying `Permission denied` and naming the file; nothing is
  left there.
- A full disk (a file size limit, RLIMIT_FSIZE, below what the session
  records): the session goes on, and at its end says the recording could
  not be written (`File too large`, status 1); the file holds the last
  recording that fit, whole (every line JSON, a header first), which
  replays identically; no temporary file is left beside it.
- A recording nobody cannot read: `--replay` says `cannot read` and why
  (status 1), and leaves it as it was.
- Two live-repl processes recording into one file at once: the file is
  always one of their recordings, whole, never a mix, and it replays.

LIVE_REPL is set by Tools/test-firebase-admin.
"""
import json
import os
import resource
import subprocess
import tempfile
import unittest

from test_boundary_outside import AS_ROOT, NOBODY, UserDirTestCase, as_user, give_away

WAIT = 30  # seconds: a bound for a hung process, never a way to wait


def session(count, start=0):
    """Commands that inject `count` children, one `put` each, then show them."""
    lines = ['put /k%03d {"s": %d, "t": "title %d, long enough to be worth a tag"}' % (i, i % 7, i)
             for i in range(start, start + count)]
    return "\n".join(lines + ["show", "quit"]) + "\n"


class RecordingBoundaryTests(UserDirTestCase):

    def repl(self, *args, commands="", limits=()):
        """live-repl as the test user: its status, its --json lines and its
        standard error."""
        def limited():
            for which, value in limits:
                resource.setrlimit(which, value)
        run = subprocess.run(as_user([os.environ["LIVE_REPL"], "--json", *args]), input=commands, capture_output=True,
                             text=True, encoding="utf-8", timeout=WAIT, cwd=self.dir,
                             env=dict(os.environ, HOME=self.home), preexec_fn=limited if limits else None)
        lines = [json.loads(line) for line in run.stdout.splitlines() if line.strip().startswith("{")]
        return run.returncode, lines, run.stderr

    def record(self, path, commands, limits=()):
        return self.repl("--offline", "--order-by", "s", "--record", path, commands=commands, limits=limits)

    def replay(self, path):
        """The replay's verdict and the rows it shows at the end."""
        status, lines, errors = self.repl("--replay", path, commands="show\n")
        self.assertEqual(status, 0, "%s %s" % (lines, errors))
        return lines[0]["text"][0], shown(lines)

    def entries(self, path):
        with open(path, encoding="utf-8") as f:
            entries = [json.loads(line) for line in f]
        self.assertEqual(entries[0]["k"], "header")
        self.assertEqual(entries[1]["k"], "state")
        return entries

    def test_records_and_replays_as_an_ordinary_user(self):
        path = os.path.join(self.dir, "session.jsonl")
        status, lines, errors = self.record(path, session(12))
        self.assertEqual(status, 0, errors)
        info = os.stat(path)
        self.assertEqual(info.st_mode & 0o7777, 0o600)
        if AS_ROOT:
            self.assertEqual(info.st_uid, NOBODY)
        changes = [e for e in self.entries(path) if e["k"] == "change"]
        self.assertEqual(len(changes), 12)
        verdict, rows = self.replay(path)
        self.assertEqual(verdict, "replayed 12 changes, identical")
        self.assertEqual(rows, shown(lines))
        # Read from a pipe, as `--replay <(zcat session.jsonl.gz)` gives it.
        piped = subprocess.run(as_user(["bash", "-c", 'exec "$0" --json --replay <(cat "$1")', os.environ["LIVE_REPL"], path]),
                               input="show\n", capture_output=True, text=True, encoding="utf-8", timeout=WAIT, cwd=self.dir)
        self.assertEqual(piped.returncode, 0, piped.stderr)
        piped_lines = [json.loads(line) for line in piped.stdout.splitlines() if line.strip().startswith("{")]
        self.assertEqual(piped_lines[0]["text"][0], "replayed 12 changes, identical")
        self.assertEqual(shown(piped_lines), shown(lines))

    def test_a_directory_it_cannot_write_is_refused_at_once(self):
        closed = os.path.join(self.dir, "closed")
        os.mkdir(closed)
        if AS_ROOT:
            os.chmod(closed, 0o755)  # root's: nobody cannot write in it
        else:
            os.chmod(closed, 0o555)
            self.addCleanup(os.chmod, closed, 0o755)
        path = os.path.join(closed, "session.jsonl")
        status, _, errors = self.record(path, session(3))
        self.assertEqual(status, 1)
        self.assertIn("Permission denied", errors)
        self.assertIn(path, errors)
        self.assertEqual(os.listdir(closed), [])

    def test_a_full_disk_keeps_the_last_whole_recording(self):
        path = os.path.join(self.dir, "session.jsonl")
        limit = 6000
        status, lines, errors = self.record(path, session(60), limits=[(resource.RLIMIT_FSIZE, (limit, limit))])
        self.assertEqual(status, 1, "a recording not written is a failure: %s" % errors)
        self.assertIn("File too large", errors + json.dumps(lines))
        self.assertEqual(sum(len(keys) for keys in shown(lines)), 60, "the session went on")
        self.assertLessEqual(os.path.getsize(path), limit)
        changes = [e for e in self.entries(path) if e["k"] == "change"]
        self.assertGreater(len(changes), 0)
        self.assertLess(len(changes), 60)
        self.assertEqual(sorted(os.listdir(self.dir)), ["home", "session.jsonl"], "no temporary file left")
        verdict, _ = self.replay(path)
        self.assertEqual(verdict, "replayed %d changes, identical" % len(changes))

    def test_a_recording_it_cannot_read_is_refused(self):
        path = os.path.join(self.dir, "session.jsonl")
        status, _, errors = self.record(path, session(3))
        self.assertEqual(status, 0, errors)
        with open(path, "rb") as f:
            before = f.read()
        if AS_ROOT:
            os.chown(path, 0, 0)  # root's, 0600: nobody cannot read it
        else:
            os.chmod(path, 0)
            self.addCleanup(os.chmod, path, 0o600)
        status, _, errors = self.repl("--replay", path, commands="show\n")
        self.assertEqual(status, 1)
        self.assertIn("cannot read", errors)
        self.assertIn("ermission denied", errors)
        with open(path, "rb") as f:
            self.assertEqual(f.read(), before)

    def test_two_processes_recording_into_one_file(self):
        path = os.path.join(self.dir, "session.jsonl")
        commands = [session(40), session(25, start=100)]
        # Standard error to files: a pipe nobody reads could fill and stall a process.
        errors = [tempfile.TemporaryFile() for _ in commands]
        processes = [subprocess.Popen(as_user([os.environ["LIVE_REPL"], "--json", "--offline", "--order-by", "s",
                                               "--record", path]),
                                      stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=error,
                                      text=True, encoding="utf-8", cwd=self.dir, env=dict(os.environ, HOME=self.home))
                     for error in errors]
        # Each command is written to both before either is told to quit:
        # their writes of the file interleave.
        streams = [c.splitlines(keepends=True) for c in commands]
        while any(streams):
            for process, lines in zip(processes, streams):
                if lines:
                    process.stdin.write(lines.pop(0))
                    process.stdin.flush()
        for process in processes:
            process.stdin.close()
        for process, error in zip(processes, errors):
            status = process.wait(timeout=WAIT)
            error.seek(0)
            self.assertEqual(status, 0, error.read())
            error.close()
        changes = [e for e in self.entries(path) if e["k"] == "change"]
        self.assertIn(len(changes), (40, 25), "one recording, whole")
        keys = {e["path"] for e in self.entries(path) if e["k"] == "put"}
        self.assertTrue(all(k < "/k100" for k in keys) or all(k >= "/k100" for k in keys), "never a mix")
        self.assertEqual([name for name in os.listdir(self.dir) if ".tmp." in name], [])
        verdict, _ = self.replay(path)
        self.assertEqual(verdict, "replayed %d changes, identical" % len(changes))


def shown(lines):
    """The rows the last `show` printed, section by section."""
    for line in reversed(lines):
        if "sections" in line:
            return [s["keys"] for s in line["sections"]]
    return []


if __name__ == "__main__":
    unittest.main()
