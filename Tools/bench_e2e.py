"""End-to-end benchmark: a live-server holding N generated children, read by
live-repl (server -> sorted, sectioned collection -> index paths), beside
the same data read by the Python firebase-admin client (an ordered get) and
by curl (the raw transfer), in the same run. Run through `Tools/bench e2e`.

Every figure is the median of --repeats runs. Each process is measured
whole (start to exit: wall time and its peak resident memory), so the
figures compare what a user waits for.

Prints a table with ratios and writes every figure as JSON (--output), which
Tools/bench-chart draws.
"""
import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

def generate(path, children, seed):
    """Writes {"items": {...}} with `children` benchmark children (Tools/bench-data)."""
    tool = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench-data")
    subprocess.run([sys.executable, tool, "--children", str(children), "--path", "items", "--seed", str(seed),
                    "--output", path], check=True)


def run_whole(argv, stdin=None, env=None):
    """Runs a process to its end: (wall seconds, stdout, stderr)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env)
    out, err = proc.communicate(stdin.encode() if stdin else None)
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"bench e2e: {argv[0]} failed ({proc.returncode}): {err.decode()[-2000:]}")
    return seconds, out.decode(), err.decode()


def peak_rss_of_children():
    """The largest peak resident memory of any child waited for so far (bytes)."""
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024


def measured(argv, stdin=None, env=None):
    """Wall seconds and peak resident bytes of one whole process, measured in
    a fresh helper process so that the peak belongs to it alone."""
    probe = [sys.executable, __file__, "--probe", json.dumps({"argv": argv, "stdin": stdin, "env": env})]
    done = subprocess.run(probe, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(done.stderr.strip())
    return json.loads(done.stdout.strip().splitlines()[-1])


def probe(spec):
    """Runs the spec's process (in this helper) and prints its figures."""
    spec = json.loads(spec)
    env = dict(os.environ, **(spec["env"] or {}))
    seconds, out, err = run_whole(spec["argv"], spec["stdin"], env)
    print(json.dumps({"seconds": seconds, "rss": peak_rss_of_children(), "stdout": out[-4000:]}))


class Server:
    """live-server on a copy of the data file: start time and memory."""

    def __init__(self, binary, data):
        self.dir = tempfile.mkdtemp(prefix="bench-e2e-")
        path = os.path.join(self.dir, "data.json")
        shutil.copyfile(data, path)
        start = time.perf_counter()
        self.proc = subprocess.Popen([binary, "--port", "0", "--data", path], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True)
        self.url = self.proc.stdout.readline().strip()
        self.start_seconds = time.perf_counter() - start
        if not self.url.startswith("http"):
            sys.exit(f"bench e2e: live-server did not start: {self.proc.stderr.read()[-2000:]}")

    def memory(self):
        """(resident, peak resident) bytes of the server now."""
        fields = {}
        with open(f"/proc/{self.proc.pid}/status") as status:
            for line in status:
                name, _, value = line.partition(":")
                fields[name] = value.strip()
        kib = lambda name: int(fields.get(name, "0 kB").split()[0]) * 1024
        return kib("VmRSS"), kib("VmHWM")

    def stop(self):
        self.proc.terminate()
        self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


FIREBASE_ADMIN_GET = """
import time, firebase_admin
from firebase_admin import db
firebase_admin.initialize_app(options={"databaseURL": "https://bench.firebaseio.com"})
start = time.perf_counter()
value = db.reference("items").order_by_child("score").get()
print(time.perf_counter() - start, len(value))
"""


def one_run(args, size, data):
    server = Server(args.live_server, data)
    try:
        host = server.url.removeprefix("http://")
        curl = measured(["curl", "-sf", "-o", "/dev/null", f"{server.url}/items.json"])
        admin = None
        if not args.no_admin:
            admin = measured([args.python, "-c", FIREBASE_ADMIN_GET],
                             env={"FIREBASE_DATABASE_EMULATOR_HOST": host})
            admin["get"], count = admin["stdout"].split()[-2:]
            if int(count) != size:
                sys.exit(f"bench e2e: firebase-admin read {count} children, not {size}")
        repl = measured([args.live_repl, "--url", server.url, "--path", "/items", "--order-by", "score",
                         "--section-by", "group", "--json"], stdin="stats\nquit\n")
        load = next((json.loads(line)["load"] for line in repl["stdout"].splitlines()
                     if line.startswith("{") and '"load"' in line), None)
        if not load or load["children"] != size:
            sys.exit(f"bench e2e: live-repl loaded {load and load['children']} children, not {size}")
        repl["load"] = load
        resident, peak = server.memory()
        return {"curl": curl, "admin": admin, "repl": repl, "server_start": server.start_seconds,
                "server_rss": resident, "server_peak": peak}
    finally:
        server.stop()


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--probe":
        probe(sys.argv[2])
        return
    p = argparse.ArgumentParser(prog="Tools/bench e2e", description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--seed", type=int, default=20261123)
    p.add_argument("--data-dir", default=".build/bench-data")
    p.add_argument("--output", default=".build/bench-e2e.json")
    p.add_argument("--live-server", required=True)
    p.add_argument("--live-repl", required=True)
    p.add_argument("--python", required=True, help="a Python with firebase-admin")
    p.add_argument("--no-admin", action="store_true",
                   help="skip firebase-admin (a short run proving the path, as CI does)")
    args = p.parse_args()
    os.makedirs(args.data_dir, exist_ok=True)
    results = {"cores": os.cpu_count(), "repeats": args.repeats, "sizes": []}
    for size in args.sizes:
        data = os.path.join(args.data_dir, f"items-{size}-{args.seed}.json")
        if not os.path.exists(data):
            generate(data + ".tmp", size, args.seed)
            os.replace(data + ".tmp", data)
        runs = [one_run(args, size, data) for _ in range(args.repeats)]
        med = lambda f: statistics.median(f(r) for r in runs)
        admin = (lambda f: med(f)) if not args.no_admin else (lambda f: None)
        figures = {
            "children": size,
            "json_bytes": os.path.getsize(data),
            "curl_seconds": med(lambda r: r["curl"]["seconds"]),
            "admin_seconds": admin(lambda r: r["admin"]["seconds"]),
            "admin_rss": admin(lambda r: r["admin"]["rss"]),
            "admin_get_seconds": admin(lambda r: float(r["admin"]["get"])),
            "repl_seconds": med(lambda r: r["repl"]["seconds"]),
            "repl_rss": med(lambda r: r["repl"]["rss"]),
            "repl_phases_ms": {phase: med(lambda r: r["repl"]["load"][phase])
                               for phase in ("transferMs", "parseMs", "indexMs", "sectionsMs", "totalMs")},
            "server_start_seconds": med(lambda r: r["server_start"]),
            "server_rss": med(lambda r: r["server_peak"]),
        }
        results["sizes"].append(figures)
        report(figures)
    with open(args.output, "w") as out:
        json.dump(results, out, indent=1)
    print(f"figures written to {args.output}")


def report(f):
    mb = lambda b: b / 1e6
    json_mb = mb(f["json_bytes"])
    print(f"\n{f['children']:,} children ({json_mb:.1f} MB of JSON), medians:")
    has_admin = f["admin_seconds"] is not None
    rows = [
        ("curl: raw transfer of /items.json", f["curl_seconds"], None, None),
        ("firebase-admin: order_by_child('score').get(), whole process", f["admin_seconds"], f["admin_rss"], None),
        ("  of which the get() call", f["admin_get_seconds"], None, None),
        ("live-repl --order-by score --section-by group, whole process", f["repl_seconds"], f["repl_rss"],
         f["repl_seconds"] / f["admin_seconds"] if has_admin else None),
        ("live-server --data: start until serving", f["server_start_seconds"], f["server_rss"], None),
    ]
    phases = f["repl_phases_ms"]
    rows.insert(4, ("  its load (stats): transfer {transferMs:.0f}, parse {parseMs:.0f}, index {indexMs:.0f}, "
                    "sections {sectionsMs:.0f} ms of".format(**phases), phases["totalMs"] / 1e3, None, None))
    for name, seconds, rss, ratio in rows:
        if seconds is None:
            continue
        memory = f"{mb(rss):8.0f} MB ({rss / f['json_bytes']:4.1f}x JSON)" if rss else " " * 26
        versus = f"  {ratio:5.2f}x firebase-admin" if ratio else ""
        print(f"  {name:<64} {seconds:8.3f} s {memory}{versus}")


if __name__ == "__main__":
    main()
