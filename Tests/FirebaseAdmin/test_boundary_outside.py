"""live-server and live-repl at their boundaries, as an ordinary user meets
them: the built binaries as processes, run as user nobody (65534) when the
tests run as root (as CI does), through `setpriv`; as they are otherwise.

- As nobody: a REST write read back, a stream that gets its first `put`
  and then a later write's event, and a live-repl session (script mode,
  --json, --cache) that reads, writes and shows through the server.
- A data file that cannot be read is never taken for an empty one: the
  server does not start, says `Cannot read` and names the file, and leaves
  the file's bytes and mtime as they were.
- A second server on the same data file is refused (`another process holds
  the lock`); the first keeps serving, and every write it acknowledged is in
  the file once it stops.
- Under a file size limit (RLIMIT_FSIZE), a write the journal cannot hold is
  answered 507 and not kept; the writes acknowledged, and only they, are
  there before and after a restart without the limit, which takes writes.
- Modes: a data file keeps its own (0640) when compacted; the journal is
  0600; a data file the server creates is 0600.
- 2,000 connections that send part of a request head and never the rest,
  against a server whose descriptor limit is 1,024, do not keep out a
  legitimate GET; with --request-timeout 1, a half request is closed by the
  server while a whole one on another connection is answered.
- Behind --token, a PUT without the token declaring a 256 MiB body is
  answered 401 (Connection: close) from its head, its body unread (the
  server's memory stays small); a PUT with the token declaring more than
  256 MiB is answered 413 before its body is sent.

LIVE_SERVER and LIVE_REPL are set by Tools/test-firebase-admin.
"""
import json
import os
import queue
import resource
import select
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.error
import urllib.request

WAIT = 30  # seconds: a bound for a hung process, never a way to wait
NOBODY = 65534
AS_ROOT = os.geteuid() == 0
TOKEN = "boundary-token"
# Requests go straight to the server, whatever proxy the environment names.
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def as_user(args):
    """args run as nobody when the tests run as root; else as they are."""
    if AS_ROOT:
        return ["setpriv", "--reuid=%d" % NOBODY, "--regid=%d" % NOBODY, "--clear-groups"] + args
    return args


def give_away(path):
    """Makes path nobody's when the tests run as root."""
    if AS_ROOT:
        os.chown(path, NOBODY, NOBODY)


class Server:
    """live-server as a process on a free port; `url` is None when it did not
    start (it then ends: see `ended`). `limits` are (resource, (soft, hard))
    set in the child before it runs the binary."""

    def __init__(self, home, options=(), limits=()):
        def set_limits():
            for which, value in limits:
                resource.setrlimit(which, value)
        self.process = subprocess.Popen(as_user([os.environ["LIVE_SERVER"], "--port", "0"] + list(options)),
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env=dict(os.environ, HOME=home),
                                        preexec_fn=set_limits if limits else None)
        self.lines = queue.Queue()
        self.errors = []
        self.readers = [threading.Thread(target=self._read_out, daemon=True),
                        threading.Thread(target=self._read_errors, daemon=True)]
        for reader in self.readers:
            reader.start()
        try:
            first = self.lines.get(timeout=WAIT)
        except queue.Empty:
            self.process.kill()
            raise AssertionError("live-server printed no line in %d s" % WAIT)
        self.url = first.strip().rstrip("/") if first and first.startswith("http://") else None
        self.port = int(self.url.rsplit(":", 1)[1]) if self.url else None

    def _read_out(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _read_errors(self):
        for line in self.process.stderr:
            self.errors.append(line)

    def stderr(self):
        """What it printed on standard error, once it has ended."""
        for reader in self.readers:
            reader.join(WAIT)
        if not any(reader.is_alive() for reader in self.readers):
            self.process.stdout.close()
            self.process.stderr.close()
        return "".join(self.errors)

    def ended(self):
        """Waits for the process to end; its status and standard error."""
        status = self.process.wait(timeout=WAIT)
        return status, self.stderr()

    def stop(self):
        """SIGTERM; its exit status once it has ended."""
        if self.process.poll() is None:
            self.process.terminate()
        try:
            status = self.process.wait(timeout=WAIT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=WAIT)
            raise AssertionError("live-server did not stop within %d s of SIGTERM" % WAIT)
        self.stderr()
        return status


def call(url, method="GET", value=None, timeout=WAIT):
    """A REST request: its status and its body as JSON (text when not JSON)."""
    data = None if value is None else json.dumps(value).encode()
    request = urllib.request.Request(url, data=data, method=method)
    try:
        with OPENER.open(request, timeout=timeout) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read()
    try:
        return status, json.loads(body)
    except ValueError:
        return status, body.decode("utf-8", "replace")


def next_event(stream):
    """The next event of an event stream other than a keep-alive: (name, data)."""
    name, data = None, None
    while True:
        line = stream.readline()  # bounded by the connection's timeout
        if not line:
            raise AssertionError("the stream ended")
        line = line.decode("utf-8").rstrip("\r\n")
        if line.startswith("event:"):
            name = line[len("event:"):].strip()
        elif line.startswith("data:"):
            data = json.loads(line[len("data:"):].strip())
        elif line == "" and name is not None:
            if name != "keep-alive":
                return name, data
            name, data = None, None


def ready(sock, timeout, writing=False):
    """Waits (at most timeout seconds) until sock can be read, or written
    when writing; returns (readable, writable). poll, not select: descriptors
    may be numbered past FD_SETSIZE here."""
    poller = select.poll()
    poller.register(sock, select.POLLIN | (select.POLLOUT if writing else 0))
    events = 0
    for _, event in poller.poll(max(0, timeout) * 1000):
        events |= event
    readable = bool(events & (select.POLLIN | select.POLLHUP | select.POLLERR))
    return readable, bool(events & select.POLLOUT)


def read_response(sock, deadline_seconds=WAIT):
    """Reads one HTTP response head (and its Content-Length body) from a raw
    socket: (status, headers in lower case, body)."""
    data = b""
    deadline = time.monotonic() + deadline_seconds
    while b"\r\n\r\n" not in data:
        left = deadline - time.monotonic()
        if left <= 0 or not ready(sock, left)[0]:
            raise AssertionError("no response head within %d s; got %r" % (deadline_seconds, data))
        chunk = sock.recv(65536)
        if not chunk:
            raise AssertionError("the connection closed before a response head; got %r" % data)
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(body) < length:
        left = deadline - time.monotonic()
        if left <= 0 or not ready(sock, left)[0]:
            break
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return status, headers, body


def rss_kib(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise AssertionError("no VmRSS for process %d" % pid)


def uids(pid):
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            if line.startswith("Uid:"):
                return [int(u) for u in line.split()[1:]]
    raise AssertionError("no Uid for process %d" % pid)


def mode(path):
    return os.stat(path).st_mode & 0o7777


class UserDirTestCase(unittest.TestCase):
    """A fresh directory and a HOME in it, both the test user's."""

    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir, True)
        give_away(self.dir)
        self.home = os.path.join(self.dir, "home")
        os.mkdir(self.home)
        give_away(self.home)


class BoundaryTests(UserDirTestCase):

    def start(self, *options, limits=()):
        server = Server(self.home, options, limits)
        self.addCleanup(server.stop)
        if server.url is None:
            status, errors = server.ended()
            self.fail("live-server %s did not start (status %s): %s" % (" ".join(options), status, errors))
        return server

    def assert_running(self, server):
        if server.process.poll() is not None:
            self.fail("live-server ended (status %s): %s" % (server.process.returncode, server.stderr()))

    def failed_start(self, *options):
        """A server that must not start: its status and standard error."""
        server = Server(self.home, options)
        self.addCleanup(server.stop)
        self.assertIsNone(server.url, "live-server %s started: %s" % (" ".join(options), server.url))
        return server.ended()

    def data_path(self, name="data.json", text=None, file_mode=None):
        path = os.path.join(self.dir, name)
        if text is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            give_away(path)
            if file_mode is not None:
                os.chmod(path, file_mode)
        return path

    def test_runs_as_an_ordinary_user(self):
        """REST, a stream and live-repl, all as nobody (when root)."""
        data = self.data_path()
        server = self.start("--data", data)
        if AS_ROOT:
            self.assertEqual(uids(server.process.pid), [NOBODY] * 4, "live-server runs as nobody")
        self.assertEqual(call(server.url + "/items/a.json", "PUT", {"n": 2}), (200, {"n": 2}))
        self.assertEqual(call(server.url + "/items/c.json", "PUT", {"n": 3}), (200, {"n": 3}))
        self.assertEqual(call(server.url + "/items.json"), (200, {"a": {"n": 2}, "c": {"n": 3}}))

        # A stream: the first put holds the data; a later write comes as its own put.
        request = urllib.request.Request(server.url + "/items.json", headers={"Accept": "text/event-stream"})
        with OPENER.open(request, timeout=WAIT) as stream:
            self.assertEqual(stream.status, 200)
            self.assertEqual(next_event(stream), ("put", {"path": "/", "data": {"a": {"n": 2}, "c": {"n": 3}}}))
            self.assertEqual(call(server.url + "/items/d.json", "PUT", {"n": 4}), (200, {"n": 4}))
            self.assertEqual(next_event(stream), ("put", {"path": "/d", "data": {"n": 4}}))
        self.assertEqual(call(server.url + "/items/d.json", "DELETE"), (200, None))

        # live-repl in script mode, as nobody: reads, writes, shows.
        cache = os.path.join(self.home, "cache")
        repl = subprocess.Popen(as_user([os.environ["LIVE_REPL"], "--url", server.url, "--path", "/items",
                                         "--order-by", "n", "--json", "--cache", cache]),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, encoding="utf-8", env=dict(os.environ, HOME=self.home))
        self.addCleanup(lambda: repl.poll() is None and repl.kill())
        try:
            out, err = repl.communicate('sync\nset /b {"n": 1}\nsync\nshow\n', timeout=WAIT)
        except subprocess.TimeoutExpired:
            repl.kill()
            out, err = repl.communicate(timeout=WAIT)
            self.fail("live-repl did not end within %d s:\n%s%s" % (WAIT, out, err))
        self.assertEqual(repl.returncode, 0, "live-repl failed:\n%s%s" % (out, err))
        replies = [json.loads(line) for line in out.splitlines() if line.strip()]
        shows = [r for r in replies if "sections" in r]
        self.assertEqual(len(shows), 1, out)
        self.assertEqual([key for s in shows[0]["sections"] for key in s["keys"]], ["b", "a", "c"], out)
        self.assertEqual(call(server.url + "/items.json"), (200, {"a": {"n": 2}, "b": {"n": 1}, "c": {"n": 3}}))
        self.assertTrue(os.path.isdir(cache), "live-repl kept no cache in %s:\n%s%s" % (cache, out, err))
        self.assertEqual(server.stop(), 0)

    def test_an_unreadable_data_file_is_not_taken_as_empty(self):
        data = self.data_path(text='{"items":{"kept":"secret"}}')
        with open(data, "rb") as f:
            before = f.read()
        if AS_ROOT:  # root's own, readable by root alone; the server runs as nobody
            os.chown(data, 0, 0)
            os.chmod(data, 0o600)
        else:
            os.chmod(data, 0)
        os.utime(data, ns=(1_600_000_000_000_000_000, 1_600_000_000_000_000_000))
        mtime = os.stat(data).st_mtime_ns
        status, errors = self.failed_start("--data", data)
        self.assertNotEqual(status, 0, errors)
        self.assertIn("Cannot read", errors)
        self.assertIn(data, errors)
        self.assertEqual(os.stat(data).st_mtime_ns, mtime, "the data file's mtime changed")
        if not AS_ROOT:
            os.chmod(data, 0o600)  # to read it back (a mode change leaves the mtime)
        with open(data, "rb") as f:
            self.assertEqual(f.read(), before, "the data file's bytes changed")

    def test_a_second_server_on_one_data_file_is_refused(self):
        data = self.data_path()
        first = self.start("--data", data)
        written = {}
        for i in range(5):
            written["k%d" % i] = {"v": i}
            self.assertEqual(call(first.url + "/items/k%d.json" % i, "PUT", {"v": i}), (200, {"v": i}))
        status, errors = self.failed_start("--data", data)
        self.assertNotEqual(status, 0, errors)
        self.assertIn("another process holds the lock", errors)
        # The first keeps serving, and keeps what it acknowledged.
        for i in range(5, 10):
            written["k%d" % i] = {"v": i}
            self.assertEqual(call(first.url + "/items/k%d.json" % i, "PUT", {"v": i}), (200, {"v": i}))
        self.assertEqual(call(first.url + "/items.json"), (200, written))
        self.assertEqual(first.stop(), 0, first.stderr())
        with open(data, encoding="utf-8") as f:
            self.assertEqual(json.load(f), {"items": written})

    def test_a_full_journal_refuses_writes_and_keeps_the_acknowledged(self):
        data = self.data_path()
        limit = 64 << 10
        server = self.start("--data", data, limits=[(resource.RLIMIT_FSIZE, (limit, limit))])
        acknowledged = {}
        refused = []
        for i in range(200):
            key, value = "k%03d" % i, "%03d" % i + "x" * 2045
            status, body = call(server.url + "/items/%s.json" % key, "PUT", value)
            if status == 200:
                self.assertFalse(refused, "write %s acknowledged after a refusal" % key)
                self.assertEqual(body, value)
                acknowledged[key] = value
                continue
            self.assertEqual(status, 507, "write %s: %s" % (key, body))
            self.assertIn("was not kept", body["error"], body)
            refused.append(key)
            if len(refused) == 4:
                break
        self.assertEqual(len(refused), 4, "no write was refused under a %d-byte file limit" % limit)
        self.assertGreater(len(acknowledged), 0)
        self.assertEqual(call(server.url + "/items.json"), (200, acknowledged))
        server.stop()  # its status is not the point: compaction may or may not fit under the limit

        again = self.start("--data", data)
        self.assertEqual(call(again.url + "/items.json"), (200, acknowledged))
        self.assertEqual(call(again.url + "/items/new.json", "PUT", "after"), (200, "after"))
        self.assertEqual(call(again.url + "/items.json"), (200, dict(acknowledged, new="after")))
        self.assertEqual(again.stop(), 0, again.stderr())
        with open(data, encoding="utf-8") as f:
            self.assertEqual(json.load(f), {"items": dict(acknowledged, new="after")})

    def test_modes_of_the_data_file_and_the_journal(self):
        data = self.data_path(text='{"items":{"a":1}}', file_mode=0o640)
        server = self.start("--data", data)
        self.assertEqual(call(server.url + "/items/b.json", "PUT", 2), (200, 2))
        journal = data + ".journal"
        self.assertEqual(oct(mode(journal)), oct(0o600), "the journal's mode")
        self.assertEqual(server.stop(), 0, server.stderr())
        with open(data, encoding="utf-8") as f:
            self.assertEqual(json.load(f), {"items": {"a": 1, "b": 2}}, "the data file was compacted")
        self.assertEqual(oct(mode(data)), oct(0o640), "a compacted data file keeps its mode")
        if os.path.exists(journal):
            self.assertEqual(oct(mode(journal)), oct(0o600), "the journal's mode after a stop")

        fresh = self.data_path("fresh.json")
        self.assertFalse(os.path.exists(fresh))
        server = self.start("--data", fresh)
        self.assertEqual(call(server.url + "/items/c.json", "PUT", 3), (200, 3))
        self.assertEqual(oct(mode(fresh + ".journal")), oct(0o600), "a new journal's mode")
        self.assertEqual(server.stop(), 0, server.stderr())
        with open(fresh, encoding="utf-8") as f:
            self.assertEqual(json.load(f), {"items": {"c": 3}})
        self.assertEqual(oct(mode(fresh)), oct(0o600), "a data file the server made")

    def test_half_open_sockets_do_not_keep_out_a_request(self):
        count = 2000
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = count + 512
        if soft != resource.RLIM_INFINITY and soft < wanted:
            if hard != resource.RLIM_INFINITY and hard < wanted:
                if not AS_ROOT:
                    self.skipTest("the descriptor limit %d cannot hold %d sockets" % (hard, count))
                hard = wanted
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            self.addCleanup(resource.setrlimit, resource.RLIMIT_NOFILE, (soft, hard))
        server_hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        server = self.start(limits=[(resource.RLIMIT_NOFILE, (1024, server_hard))])
        self.assertEqual(call(server.url + "/items.json", "PUT", {"a": 1}), (200, {"a": 1}))
        partial = ("GET /items.json HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % server.port).encode()
        sockets = []
        self.addCleanup(lambda: [s.close() for s in sockets])
        for index in range(count):
            try:
                s = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
            except socket.timeout:
                self.fail("connection %d of %d was not accepted within %d s (live-server holds %d descriptors)"
                          % (index + 1, count, WAIT, len(os.listdir("/proc/%d/fd" % server.process.pid))))
            sockets.append(s)
            try:
                s.sendall(partial)
            except OSError:
                pass  # closed to make room: what the server may do
        started = time.monotonic()
        status, body = call(server.url + "/items.json", timeout=WAIT)
        elapsed = time.monotonic() - started
        self.assertEqual((status, body), (200, {"a": 1}))
        self.assertLess(elapsed, 5, "the GET took %.1f s behind %d half-open sockets" % (elapsed, count))
        self.assert_running(server)
        for s in sockets:
            s.close()
        self.assertEqual(call(server.url + "/items.json"), (200, {"a": 1}))
        self.assertEqual(server.stop(), 0, server.stderr())

    def test_request_timeout_closes_a_half_request(self):
        server = self.start("--request-timeout", "1")
        self.assertEqual(call(server.url + "/items.json", "PUT", {"a": 1}), (200, {"a": 1}))
        half = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
        self.addCleanup(half.close)
        half.sendall(("GET /items.json HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % server.port).encode())
        started = time.monotonic()
        self.assertEqual(call(server.url + "/items.json"), (200, {"a": 1}))
        try:
            self.assertEqual(half.recv(4096), b"", "the half request was answered, not closed")
        except socket.timeout:
            self.fail("the half request was still open %d s later, with --request-timeout 1" % WAIT)
        elapsed = time.monotonic() - started
        self.assertLess(elapsed, 5, "the half request was closed after %.1f s, with --request-timeout 1" % elapsed)
        self.assert_running(server)

    def test_a_huge_body_without_the_token_is_refused_unread(self):
        server = self.start("--token", TOKEN)
        cap = 8 << 20  # "a few MiB": the response must come before this much body
        head = ("PUT /items.json HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                "Content-Length: %d\r\n\r\n" % (server.port, 256 << 20)).encode()
        piece = b'"' + b"x" * ((64 << 10) - 1)
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
        self.addCleanup(sock.close)
        sock.sendall(head)
        sock.setblocking(False)
        sent = 0
        while True:
            readable, writable = ready(sock, WAIT, writing=sent < cap)
            if readable:
                break
            if not writable:
                self.fail("no response within %d s of the head and %d bytes of body" % (WAIT, sent))
            try:
                sent += sock.send(piece)
            except (BrokenPipeError, ConnectionResetError):
                break  # closed after its answer: the answer is there to read
            except BlockingIOError:
                pass
        sock.setblocking(True)
        status, headers, body = read_response(sock)
        self.assertEqual(status, 401, body)
        self.assertEqual(headers.get("connection", "").lower(), "close", headers)
        self.assertLessEqual(sent, cap)
        self.assertLess(rss_kib(server.process.pid), 200 * 1024, "live-server's VmRSS after the refused body")
        self.assertEqual(call(server.url + "/items.json?auth=" + TOKEN), (200, None))

        # With the token, a body declared larger than 256 MiB is refused before it is sent.
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=WAIT)
        self.addCleanup(sock.close)
        sock.sendall(("PUT /items.json?auth=%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
                      "Content-Length: %d\r\n\r\n" % (TOKEN, server.port, 300 << 20)).encode())
        status, headers, body = read_response(sock)
        self.assertEqual(status, 413, body)
        self.assert_running(server)
        self.assertLess(rss_kib(server.process.pid), 200 * 1024, "live-server's VmRSS")


if __name__ == "__main__":
    unittest.main(verbosity=2)
