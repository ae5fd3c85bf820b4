"""live-repl's write queue (--cache) at its boundaries, as an ordinary user
meets it: the built binaries as processes, run as user nobody (65534) when
the tests run as root (as CI does), through `setpriv`; as they are
otherwise. The queue is `<16 hex>.writes` in the cache directory: a header
line naming its scope and location, then one line per queued write.

- A planted queue is never sent. A legitimate run (offline, one write,
  quit) makes a queue in a private directory; its name and header, with a
  write of `/owned` in the same format, are planted in a directory that is
  root's (mode 0777, and 0755) or nobody's but writable by its group or
  others. live-repl as nobody on that directory (`sync`, `offline`, a write
  of its own, `online`, `sync`) says `Refusing the directory`, does not say
  its writes are kept in the cache, sends its own write (kept in memory),
  and never `/owned`; the planted file and the directory are left as they
  were. In nobody's own private directory, a queue file that is a symlink
  to the same queue elsewhere is not followed (nothing sent, its target
  unchanged); and the same queue as a regular file there is sent (so the
  planted queue is one live-repl would otherwise take).
- One user's queued writes never go with another's credential. With
  --cache and --auth, live-repl without --cache-scope does not start and
  names `--cache-scope`. Against `live-server --token tok-a --token tok-b`,
  through a TCP relay that notes each request's method, path and auth=:
  alice (tok-a) queues writes offline and quits (they are kept in the
  cache; nothing written); bob (tok-b, his own scope, the same directory)
  syncs and writes: every request of his run carries tok-b, his one write
  is the only one, none of alice's writes reach the server and her queue
  file is unchanged; alice started again sends them, in order, each with
  tok-a. Against a server that accepts tok-a alone, bob's run shows no
  write at all (a write of alice's sent with tok-b would be refused there,
  and so lost) and leaves her queue as it was; alice started again sends
  every write.
- Offline writes cost time linear in their bytes: N `set` commands typed
  offline (over 100 keys, so that the collection stays the same size and
  the queue is what grows), timed from the first to the REPL's answer to
  the last, for N = 1,000 and 10,000. Each is synced to disk; the 10,000
  run's time per write is at most 3x the 1,000 run's (a queue rewritten
  whole at each write would be about 10x), and the queue file holds the
  header and one line per write, at most 150 bytes each. The figures are
  printed.

LIVE_SERVER and LIVE_REPL are set by Tools/test-firebase-admin.
"""
import json
import os
import queue
import re
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.parse

from test_boundary_outside import AS_ROOT, NOBODY, Server, UserDirTestCase, as_user, call, give_away

WAIT = 30  # seconds: a bound for a hung process, never a way to wait
PLANTED = {"id": 1, "attempted": False, "write": {"set": "/owned", "value": True}}


def queue_files(directory):
    """The write queues in directory (their names), sorted."""
    if not os.path.isdir(directory):
        return []
    return sorted(f for f in os.listdir(directory) if f.endswith(".writes"))


def read_bytes(path):
    with open(path, "rb") as f:
        return f.read()


class Relay:
    """A TCP relay on a free loopback port in front of a server, noting the
    request lines clients send through it, in the order they come: so the
    credential (auth=) each request went with can be seen."""
    REQUEST = re.compile(rb"(GET|PUT|PATCH|POST|DELETE) (\S+) HTTP/1\.[01]\r\n")

    def __init__(self, url):
        host, port = urllib.parse.urlsplit(url).netloc.rsplit(":", 1)
        self.upstream = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = "http://127.0.0.1:%d" % self.listener.getsockname()[1]
        self.found = []  # (method, path, auth or None)
        self.lock = threading.Lock()
        self.sockets = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            server = socket.create_connection(self.upstream, timeout=WAIT)
            server.settimeout(None)
            with self.lock:
                self.sockets += [client, server]
            threading.Thread(target=self._pump, args=(client, server, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, False), daemon=True).start()

    def _pump(self, source, sink, noting):
        sent, seen = bytearray(), 0
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if noting:
                    sent.extend(data)
                    for match in self.REQUEST.finditer(sent, seen):
                        parts = urllib.parse.urlsplit(match.group(2).decode("latin-1"))
                        auth = urllib.parse.parse_qs(parts.query).get("auth", [None])[-1]
                        with self.lock:
                            self.found.append((match.group(1).decode(), parts.path, auth))
                        seen = match.end()
                sink.sendall(data)
        except OSError:
            pass
        try:
            sink.shutdown(socket.SHUT_WR)
        except OSError:
            pass

    def requests(self):
        """(method, path, auth or None) of every request sent so far, in order."""
        with self.lock:
            return list(self.found)

    def close(self):
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()
        with self.lock:
            for s in self.sockets:
                try:
                    s.shutdown(socket.SHUT_RDWR)  # wakes its pumps
                except OSError:
                    pass
                s.close()


class Run:
    """A finished live-repl run: its status, standard output and error."""

    def __init__(self, args, status, out, err):
        self.args, self.status, self.out, self.err = args, status, out, err

    def replies(self):
        """Its standard output's lines, as JSON."""
        return [json.loads(line) for line in self.out.splitlines() if line.strip()]

    def texts(self):
        return [t for reply in self.replies() for t in reply.get("text", [])]

    def __str__(self):
        return "live-repl %s (status %s):\n%s%s" % (" ".join(self.args), self.status, self.out, self.err)


class CacheBoundaryTests(UserDirTestCase):

    def start(self, *options):
        server = Server(self.home, options)
        self.addCleanup(server.stop)
        if server.url is None:
            status, errors = server.ended()
            self.fail("live-server %s did not start (status %s): %s" % (" ".join(options), status, errors))
        return server

    def repl_args(self, url, *options):
        return as_user([os.environ["LIVE_REPL"], "--url", url, "--path", "/items", "--json"] + list(options))

    def run_repl(self, url, script, *options):
        """live-repl (as nobody when root) reading script to its end."""
        args = self.repl_args(url, *options)
        process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, encoding="utf-8", env=dict(os.environ, HOME=self.home))
        self.addCleanup(lambda: process.poll() is None and process.kill())
        try:
            out, err = process.communicate(script, timeout=WAIT)
        except subprocess.TimeoutExpired:
            process.kill()
            out, err = process.communicate(timeout=WAIT)
            self.fail("live-repl %s did not end within %d s:\n%s%s" % (" ".join(args), WAIT, out, err))
        return Run(args, process.returncode, out, err)

    def private_dir(self, name):
        """A directory of nobody's (the user's own, when not root), 0700."""
        path = os.path.join(self.dir, name)
        os.mkdir(path, 0o700)
        give_away(path)
        return path

    def write_file(self, path, data, owner=None, file_mode=0o600):
        with open(path, "wb") as f:
            f.write(data)
        if AS_ROOT and owner is not None:
            os.chown(path, owner, owner)
        os.chmod(path, file_mode)

    # 1. A planted queue

    def test_a_planted_queue_in_a_shared_directory_is_refused(self):
        server = self.start()
        # A legitimate run makes a queue: its name and header are the ones to plant.
        legit = os.path.join(self.dir, "legit")
        run = self.run_repl(server.url, 'offline\nset /seed {"n": 1}\n', "--cache", legit)
        self.assertEqual(run.status, 0, run)
        names = queue_files(legit)
        self.assertEqual(len(names), 1, "%s\n%s" % (names, run))
        name = names[0]
        header = read_bytes(os.path.join(legit, name)).split(b"\n", 1)[0]
        self.assertIn(json.loads(header)["format"], (1, 2), header)
        planted = header + b"\n" + json.dumps(PLANTED).encode() + b"\n"
        me = os.getuid()

        variants = [("nobody's (the user's own), others may write, 0777", NOBODY if AS_ROOT else me, 0o777),
                    ("nobody's (the user's own), its group may write, 0770", NOBODY if AS_ROOT else me, 0o770)]
        if AS_ROOT:
            variants = [("root's, 0777", 0, 0o777), ("root's, 0755", 0, 0o755)] + variants
        for index, (what, owner, dir_mode) in enumerate(variants):
            with self.subTest(what):
                shared = os.path.join(self.dir, "shared-%d" % index)
                os.mkdir(shared)
                if AS_ROOT:
                    os.chown(shared, owner, owner)
                os.chmod(shared, dir_mode)
                planted_path = os.path.join(shared, name)
                self.write_file(planted_path, planted, owner=0, file_mode=0o644)
                mine = "mine-%d" % index
                run = self.run_repl(server.url, 'sync\noffline\nset /%s {"n": 1}\nonline\nsync\n' % mine,
                                    "--cache", shared)
                self.assertIn("Refusing the directory", run.out + run.err, run)
                self.assertFalse([t for t in run.texts() if "kept in the cache" in t], run)
                self.assertEqual(call(server.url + "/items/owned.json"), (200, None), "the planted write was sent: %s" % run)
                self.assertEqual(call(server.url + "/items/%s.json" % mine), (200, {"n": 1}),
                                 "its own write, kept in memory: %s" % run)
                self.assertEqual(read_bytes(planted_path), planted, "the planted file changed")
                self.assertEqual(sorted(os.listdir(shared)), [name], "live-repl wrote in the refused directory")

        # In the victim's own private directory, a queue that is a symlink
        # to a queue elsewhere is not followed.
        with self.subTest("a symlink in nobody's private directory"):
            victim = self.private_dir("victim")
            elsewhere = self.private_dir("elsewhere")
            target = os.path.join(elsewhere, "queue")
            self.write_file(target, planted, owner=NOBODY)
            link = os.path.join(victim, name)
            os.symlink(target, link)
            if AS_ROOT:
                os.lchown(link, NOBODY, NOBODY)
            run = self.run_repl(server.url, 'sync\noffline\nset /mine-link {"n": 2}\nonline\nsync\n', "--cache", victim)
            self.assertEqual(call(server.url + "/items/owned.json"), (200, None), "the symlink was followed: %s" % run)
            self.assertEqual(call(server.url + "/items/mine-link.json"), (200, {"n": 2}), run)
            self.assertEqual(read_bytes(target), planted, "the symlink's target changed")

        # The same queue as a regular file in a private directory is taken:
        # what is planted is a queue live-repl would otherwise send.
        private = self.private_dir("private")
        self.write_file(os.path.join(private, name), planted, owner=NOBODY)
        run = self.run_repl(server.url, "sync\n", "--cache", private)
        self.assertEqual(run.status, 0, run)
        self.assertNotIn("Refusing", run.out + run.err, run)
        self.assertEqual(call(server.url + "/items/owned.json"), (200, True), "the queue in a private directory: %s" % run)
        self.assertEqual(queue_files(private), [], run)

    # 2. One user's writes, another's credential

    def offline_writes(self, url, cache, token, scope, writes):
        """A run that queues writes offline and ends, leaving them in cache."""
        script = "sync\noffline\n" + "".join("set /%s %s\n" % (k, json.dumps(v)) for k, v in writes.items())
        run = self.run_repl(url, script, "--auth", token, "--cache", cache, "--cache-scope", scope)
        self.assertEqual(run.status, 0, run)
        kept = [t for t in run.texts() if "kept in the cache" in t]
        self.assertEqual(len(kept), 1, run)
        return run

    def test_queued_writes_never_go_with_another_users_token(self):
        server = self.start("--token", "tok-a", "--token", "tok-b")
        # Every run goes through a relay that notes each request's auth=.
        relay = Relay(server.url)
        self.addCleanup(relay.close)
        cache = os.path.join(self.dir, "cache")

        run = self.run_repl(relay.url, "sync\n", "--auth", "tok-a", "--cache", cache)
        self.assertNotEqual(run.status, 0, run)
        self.assertIn("--cache-scope", run.out + run.err, run)
        self.assertEqual(queue_files(cache), [], run)

        def requests_of(run_, before, token):
            """The requests a run made: each with token; its writes' (method, path)."""
            made = relay.requests()[before:]
            self.assertTrue(made, "no request went through the relay: %s" % run_)
            self.assertEqual([r for r in made if r[2] != token], [],
                             "requests without %s: %s\n%s" % (token, made, run_))
            return [(method, path) for method, path, _ in made if method != "GET"]

        alice = {"a1": {"by": "alice", "n": 1}, "a2": {"by": "alice", "n": 2}, "a3": {"by": "alice", "n": 3}}
        before = len(relay.requests())
        run = self.offline_writes(relay.url, cache, "tok-a", "alice", alice)
        self.assertEqual(requests_of(run, before, "tok-a"), [], "alice's writes were sent offline")
        self.assertEqual(call(server.url + "/items.json?auth=tok-a"), (200, None), "alice's writes were sent offline")
        queued = queue_files(cache)
        self.assertEqual(len(queued), 1, queued)
        alice_queue = os.path.join(cache, queued[0])
        before_bytes = read_bytes(alice_queue)

        before = len(relay.requests())
        run = self.run_repl(relay.url, 'sync\nset /b1 {"by": "bob"}\nsync\n',
                            "--auth", "tok-b", "--cache", cache, "--cache-scope", "bob")
        self.assertEqual(run.status, 0, run)
        writes = requests_of(run, before, "tok-b")
        self.assertEqual([path for _, path in writes], ["/items/b1.json"], "bob's run wrote: %s\n%s" % (writes, run))
        self.assertEqual(call(server.url + "/items.json?auth=tok-b"), (200, {"b1": {"by": "bob"}}),
                         "alice's writes went with bob's run: %s" % run)
        self.assertEqual(read_bytes(alice_queue), before_bytes, "bob's run changed alice's queue")
        self.assertEqual(queue_files(cache), queued, run)

        before = len(relay.requests())
        run = self.run_repl(relay.url, "sync\n", "--auth", "tok-a", "--cache", cache, "--cache-scope", "alice")
        self.assertEqual(run.status, 0, run)
        writes = requests_of(run, before, "tok-a")
        self.assertEqual([path for _, path in writes], ["/items/a1.json", "/items/a2.json", "/items/a3.json"],
                         "alice's run wrote: %s\n%s" % (writes, run))
        self.assertEqual(call(server.url + "/items.json?auth=tok-a"), (200, dict(alice, b1={"by": "bob"})), run)
        self.assertEqual(queue_files(cache), [], run)

    def test_a_write_sent_with_the_wrong_token_would_show(self):
        # tok-b is refused here: a write of alice's sent with it would be
        # answered 401 and reverted (out of the queue, never sent again).
        server = self.start("--token", "tok-a")
        self.assertEqual(call(server.url + "/items.json?auth=tok-b")[0], 401)
        cache = os.path.join(self.dir, "cache")
        alice = {"a1": {"by": "alice", "n": 1}, "a2": {"by": "alice", "n": 2}}
        self.offline_writes(server.url, cache, "tok-a", "alice", alice)
        queued = queue_files(cache)
        self.assertEqual(len(queued), 1, queued)
        before = read_bytes(os.path.join(cache, queued[0]))

        run = self.run_repl(server.url, "sync 2\n", "--auth", "tok-b", "--cache", cache, "--cache-scope", "bob")
        try:
            replies = run.replies()
        except ValueError:
            self.fail("not JSON lines: %s" % run)
        self.assertEqual([r for r in replies if "writes" in r], [], "bob's run showed writes: %s" % run)
        self.assertEqual(queue_files(cache), queued, run)
        self.assertEqual(read_bytes(os.path.join(cache, queued[0])), before, "bob's run changed alice's queue")
        self.assertEqual(call(server.url + "/items.json?auth=tok-a"), (200, None), run)

        run = self.run_repl(server.url, "sync\n", "--auth", "tok-a", "--cache", cache, "--cache-scope", "alice")
        self.assertEqual(run.status, 0, run)
        self.assertEqual(call(server.url + "/items.json?auth=tok-a"), (200, alice), run)
        self.assertEqual(queue_files(cache), [], run)

    # 3. Linear cost

    def queue_offline(self, url, cache, count):
        """Types count writes offline; the seconds from the first to the
        answer to the last, the queue file's bytes and lines, and the
        milliseconds per write of each thousand."""
        args = self.repl_args(url, "--cache", cache)
        process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, encoding="utf-8", bufsize=1, env=dict(os.environ, HOME=self.home))
        self.addCleanup(lambda: process.poll() is None and process.kill())
        lines, errors = queue.Queue(), []

        def read_out():
            for line in process.stdout:
                lines.put(line)
            lines.put(None)
        readers = [threading.Thread(target=read_out, daemon=True),
                   threading.Thread(target=lambda: errors.extend(process.stderr), daemon=True)]
        for reader in readers:
            reader.start()
        transcript = []

        def reply(waiting_for):
            try:
                line = lines.get(timeout=WAIT)
            except queue.Empty:
                raise AssertionError("live-repl printed nothing for %d s while waiting for %s; last lines:\n%s"
                                     % (WAIT, waiting_for, "".join(transcript[-5:])))
            if line is None:
                raise AssertionError("live-repl ended while waiting for %s; last lines:\n%s%s"
                                     % (waiting_for, "".join(transcript[-5:]), "".join(errors)))
            transcript.append(line)
            return json.loads(line)

        process.stdin.write("offline\n")
        process.stdin.flush()
        self.assertIn("offline", " ".join(reply("offline").get("text", [])))
        script = "".join('set /k%03d {"n": %d, "w": "write %d"}\n' % (i % 100, i, i) for i in range(count))

        def type_all():
            try:
                process.stdin.write(script)
                process.stdin.flush()
            except (BrokenPipeError, ValueError):
                pass  # it ended; the reader says so
        started = time.monotonic()
        marks = [started]  # at every 1,000th answer
        threading.Thread(target=type_all, daemon=True).start()
        for i in range(count):
            answer = reply("the answer to write %d of %d" % (i + 1, count))
            self.assertEqual(answer.get("writes"), [{"id": i + 1, "state": "pending"}], answer)
            if (i + 1) % 1000 == 0:
                marks.append(time.monotonic())
        elapsed = time.monotonic() - started
        process.stdin.close()
        try:
            status = process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.fail("live-repl did not end within %d s of the end of its input" % WAIT)
        for reader in readers:
            reader.join(WAIT)
        process.stdout.close()
        process.stderr.close()
        rest = []
        while not lines.empty():
            line = lines.get()
            if line is not None:
                rest.append(line)
        self.assertEqual(status, 0, "".join(rest + errors))
        self.assertTrue(any("kept in the cache" in line for line in rest), "".join(rest + errors))
        names = queue_files(cache)
        self.assertEqual(len(names), 1, names)
        log = read_bytes(os.path.join(cache, names[0]))
        return elapsed, len(log), log.splitlines(), [(b - a) for a, b in zip(marks, marks[1:])]

    def test_offline_writes_cost_time_linear_in_their_bytes(self):
        server = self.start()
        measured = {}
        for count in (1000, 10000):
            cache = os.path.join(self.dir, "cache-%d" % count)
            elapsed, size, lines, thousands = self.queue_offline(server.url, cache, count)
            measured[count] = elapsed / count * 1000
            print("\n%d offline writes: %.1f s, %.3f ms per write; queue file %d bytes (%.1f per write)"
                  % (count, elapsed, measured[count], size, size / count), flush=True)
            # Seconds per thousand writes are milliseconds per write.
            print("  ms per write, by thousand: %s" % " ".join("%.1f" % t for t in thousands), flush=True)
            self.assertEqual(len(lines), count + 1, "the queue's lines: a header and one per write")
            self.assertEqual(json.loads(lines[-1])["id"], count, lines[-1])
            self.assertLessEqual(size, 150 * count, "queue file of %d writes" % count)
        ratio = measured[10000] / measured[1000]
        print("per-write time, 10,000 writes against 1,000: %.2fx" % ratio, flush=True)
        self.assertLessEqual(ratio, 3, "%.3f ms per write for 10,000 writes, %.3f ms for 1,000"
                             % (measured[10000], measured[1000]))


if __name__ == "__main__":
    unittest.main(verbosity=2)
