"""The inspector page at size: a live-server holding N generated children
(Tools/bench-data), live-repl --web reading them, and headless Chromium
showing them. Run through `Tools/bench web`. Every figure is the median of
--repeats runs, beside a baseline measured in the same run:

- first draw: from opening the page to its rows drawn with their contents,
  beside live-repl's own load of the same children (start to `stats`);
- scroll to the end: the End key to the last row drawn with its contents;
- one write: a REST PUT of one child to the page having applied the change
  (and then drawn it, animated), beside live-repl printing that change on
  standard output.
"""
import argparse
import json
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Web"))
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from test_inspector import browser  # noqa: E402

WAIT = 600


def until(driver, script):
    WebDriverWait(driver, WAIT, poll_frequency=0.01).until(lambda d: d.execute_script(script))


def run(args, base):
    lines = queue.Queue()
    started = time.perf_counter()
    address = os.path.join(tempfile.mkdtemp(), "address")
    repl = subprocess.Popen([args.live_repl, "--json", "--web", "--web-address-file", address, "--url", base,
                             "--path", "/items", "--order-by", "score"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
    repl.stderr.readline()  # "inspector at …": the address, with its token, is in the file
    with open(address) as f:
        url = f.read().strip()
    threading.Thread(target=lambda: [lines.put((time.perf_counter(), l)) for l in repl.stdout], daemon=True).start()
    # Commands are read once the first load is in: `stats` answers then.
    repl.stdin.write("stats\n")
    repl.stdin.flush()
    while '"load"' not in lines.get(timeout=WAIT)[1]:
        pass
    figures = {"replLoad": time.perf_counter() - started}
    driver = browser()
    try:
        opened = time.perf_counter()
        driver.get(url)
        until(driver, "const i = window.liveInspector; return i && i.connected && i.idle() && i.rendered().length > 0"
                      " && i.rendered().every(r => !r.pending)")
        figures["firstDraw"] = time.perf_counter() - opened
        figures["heapMB"] = driver.execute_script("return performance.memory ? performance.memory.usedJSHeapSize / 1e6 : null")
        figures["rowsInDocument"] = driver.execute_script("return document.querySelectorAll('#layer .row').length")
        last = args.children - 1
        pressed = time.perf_counter()
        driver.find_element(By.ID, "list").send_keys(Keys.END)
        until(driver, "const r = window.liveInspector.rendered(); return r.some(x => x.row === %d) && r.every(x => !x.pending)" % last)
        figures["scrollToEnd"] = time.perf_counter() - pressed
        changes = driver.execute_script("return window.liveInspector.changes")
        request = urllib.request.Request(base + "/items/zzzz-bench.json", method="PUT",
                                         data=json.dumps({"score": 0.5, "title": "bench"}).encode())
        written = time.perf_counter()
        urllib.request.urlopen(request).close()
        until(driver, "return window.liveInspector.changes > %d" % changes)
        figures["writeToPage"] = time.perf_counter() - written
        until(driver, "return window.liveInspector.idle()")
        figures["writeAnimated"] = time.perf_counter() - written
        while True:
            at, line = lines.get(timeout=WAIT)
            if '"between"' in line:
                figures["writeToREPL"] = at - written
                break
        figures["problems"] = len(driver.execute_script("return window.liveInspector.problems"))
    finally:
        driver.quit()
        repl.stdin.close()
        repl.wait(timeout=WAIT)
    return figures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--live-server", required=True)
    parser.add_argument("--live-repl", required=True)
    parser.add_argument("--children", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        data = os.path.join(directory, "items.json")
        subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench-data"),
                        "--children", str(args.children), "--path", "items", "--seed", "1", "--output", data], check=True)
        server = subprocess.Popen([args.live_server, "--port", "0", "--data", data], stdout=subprocess.PIPE, text=True)
        base = server.stdout.readline().strip()
        try:
            runs = []
            for _ in range(args.repeats):
                runs.append(run(args, base))
                request = urllib.request.Request(base + "/items/zzzz-bench.json", method="DELETE")
                urllib.request.urlopen(request).close()
        finally:
            server.terminate()
            server.wait()
    median = {k: statistics.median(r[k] for r in runs) for k in runs[0] if runs[0][k] is not None}
    print("inspector page, %d children, median of %d (release build, headless Chromium):" % (args.children, args.repeats))
    print("  live-repl load (start to stats)  %8.2f s" % median["replLoad"])
    print("  page first draw                  %8.2f s  (%.2fx the load)" % (median["firstDraw"], median["firstDraw"] / median["replLoad"]))
    print("  scroll to the last row           %8.3f s" % median["scrollToEnd"])
    print("  one write -> live-repl's stdout  %8.3f s" % median["writeToREPL"])
    print("  one write -> page applied        %8.3f s  (%.2fx)" % (median["writeToPage"], median["writeToPage"] / median["writeToREPL"]))
    print("  one write -> page animated       %8.3f s  (its stages drawn, 250 ms each)" % median["writeAnimated"])
    print("  rows in the document             %8d" % median["rowsInDocument"])
    if "heapMB" in median:
        print("  page's JS heap                   %8.0f MB" % median["heapMB"])
    print("  problems                         %8d" % median["problems"])
    print(json.dumps(runs))


if __name__ == "__main__":
    main()
