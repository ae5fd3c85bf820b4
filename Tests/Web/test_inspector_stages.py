"""The inspector page's stages and scale, in a real browser (see
test_inspector.py for the set-up).

- A recorded change replayed in step mode: the page holds each stage until
  "Next stage" is clicked, and after each shows exactly that stage's counts,
  in its model and in the section headers it draws; then the sections as
  they are.
- A recording replayed into the page (`live-repl --replay FILE --web`):
  it starts at the recording's state, and each `replay` typed gives the
  next recorded change, drawn stage by stage in step mode, then the
  verdict; the page ends with what `show` prints.
- A collection too large to draw whole: only the rows in view are in the
  document, the list scrolls to its last row by keyboard (past the height
  where the scroll bar is scaled, lowered for the test), and the rows drawn
  there are the last rows `show` prints, with their contents.
"""
import json
import os
import random
import subprocess
import tempfile
import unittest

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from test_inspector import WAIT, check_drawn, open_page, settle

SEED = int(os.environ.get("LIVE_TEST_SEED", "20261127"))
LARGE = int(os.environ.get("LIVE_WEB_ROWS", "50000"))


def headers(driver):
    """The row counts the section headers in the document show."""
    return driver.execute_script("""
        return [...document.querySelectorAll('.header:not(.leaving)')]
          .sort((a, b) => a.dataset.section - b.dataset.section)
          .map(h => Number(h.textContent.split(' · ').pop().split(' ')[0]));""")


def replayed(repl):
    """The output of the next `replay` command: its change and verdict."""
    while True:
        line = repl.lines.get(timeout=WAIT)
        if line is None:
            raise AssertionError("live-repl ended")
        value = json.loads(line)
        if "replay" in value:
            return value


def step_through(test, driver, wait, stages, where):
    """Clicks "Next stage" through `stages` (their counts), checking that
    the page holds the sections as they were before each one."""
    nxt = driver.find_element(By.ID, "next")
    previous = driver.execute_script("return window.liveInspector.shownCounts()")
    for i, counts in enumerate(stages):
        label = "%s stage %d of %s" % (where, i + 1, stages)
        wait.until(lambda d: nxt.is_enabled(), label)
        # Held: the sections as they were before the stage.
        test.assertEqual(driver.execute_script("return window.liveInspector.shownCounts()"), previous, label)
        test.assertEqual(headers(driver), previous, label)
        test.assertIn("stage %d of %d" % (i + 1, len(stages)), driver.find_element(By.ID, "stage").text, label)
        nxt.click()
        wait.until(lambda d: d.execute_script("return window.liveInspector.shownCounts()") == counts, label)
        wait.until(lambda d: headers(d) == counts, label)
        previous = counts


def leave_stepping(test, driver, wait, expected, where, url):
    """Turns stepping off: the page catches up with the session, showing
    `expected` (the REPL's rows), drawn whole, with no problem found."""
    driver.find_element(By.ID, "stepping").click()
    test.assertEqual(settle(driver, wait, where), expected, where)
    check_drawn(test, driver, expected, where, url)
    test.assertEqual(driver.execute_script("return window.liveInspector.problems"), [], where)


class StageTests(unittest.TestCase):
    def test_a_recording_replays_into_the_page_change_by_change_stage_by_stage(self):
        rng = random.Random(SEED + 1)
        where = "seed %d (replay: LIVE_TEST_SEED=%d)" % (SEED, SEED)
        recording = os.path.join(tempfile.mkdtemp(), "session.jsonl")
        children = {"k%d" % i: {"score": rng.randint(0, 5), "group": rng.choice(["g0", "g1"])} for i in range(8)}
        moves = {key: {"score": rng.randint(0, 5), "group": rng.choice(["g0", "g1", "g2"])}
                 for key in rng.sample(sorted(children), 5)}
        script = "put / %s\npatch / %s\n" % (json.dumps(children), json.dumps(moves))
        made = subprocess.run([os.environ["LIVE_REPL"], "--offline", "--order-by", "score", "--section-by", "group",
                               "--record", recording], input=script, capture_output=True, text=True, timeout=WAIT)
        self.assertEqual(made.returncode, 0, made.stderr)
        repl, driver, wait = open_page(["--replay", recording])
        try:
            # Nothing replayed yet: the recording's state (empty here).
            self.assertEqual(settle(driver, wait, where), [], where)
            driver.find_element(By.ID, "stepping").click()
            for change in (1, 2):
                repl.type("replay")
                output = replayed(repl)
                # The last change ends the recording: its verdict is the whole replay's.
                self.assertEqual(output["replay"][0], "replayed 2 changes, identical" if change == 2 else
                                 "replayed 1 changes, identical so far; stopped (replay N goes on)", where)
                stages = [stage["counts"] for stage in output["stages"]]
                self.assertGreaterEqual(len(stages), 1, where)
                step_through(self, driver, wait, stages, "%s, change %d" % (where, change))
            repl.type("replay all")
            after = replayed(repl)
            self.assertEqual((after["replay"], after["stages"]), (["replayed 2 changes, identical"], []), where)
            leave_stepping(self, driver, wait, repl.show(), where, repl.url)
        finally:
            driver.quit()
            status = repl.close()
        self.assertEqual(status, 0, where)

    def test_a_change_replayed_in_step_mode_passes_through_each_stage(self):
        rng = random.Random(SEED)
        where = "seed %d (replay: LIVE_TEST_SEED=%d)" % (SEED, SEED)
        repl, driver, wait = open_page(["--offline", "--order-by", "score", "--section-by", "group"])
        try:
            children = {"k%d" % i: {"score": rng.randint(0, 5), "group": rng.choice(["g0", "g1"])} for i in range(8)}
            repl.type("put / " + json.dumps(children))
            # One change with several stages: rows leave one section for
            # another, others move and change (moved, then reloaded).
            moves = {key: {"score": rng.randint(0, 5), "group": rng.choice(["g0", "g1", "g2"])}
                     for key in rng.sample(sorted(children), 5)}
            repl.type("patch / " + json.dumps(moves))
            expected = repl.show()
            wait.until(lambda d: settle(d, wait, where) == expected, where)
            batches = driver.execute_script("return window.liveInspector.batches.map(b => b.change.stages.map(s => s.counts))")
            self.assertEqual(len(batches), 2, where)
            stages = batches[1]
            self.assertGreaterEqual(len(stages), 2, "%s: a change of several stages" % where)
            driver.find_element(By.ID, "stepping").click()
            driver.find_element(By.ID, "replay-2").click()
            # From the sections as they were before the change.
            wait.until(lambda d: d.execute_script("return window.liveInspector.shownCounts()") == batches[0][-1], where)
            step_through(self, driver, wait, stages, where)
            leave_stepping(self, driver, wait, expected, where, repl.url)
        finally:
            driver.quit()
            status = repl.close()
        self.assertEqual(status, 0, where)

    def test_a_large_collection_scrolls_to_its_last_row(self):
        where = "%d rows" % LARGE
        # The scroll bar is scaled past 1M pixels here (8M by default).
        repl, driver, wait = open_page(["--offline", "--order-by", "score"], "&spacer=1000000", WAIT * 4)
        try:
            children = ",".join('"c%07d":{"score":%d}' % (i, (i * 7919) % LARGE) for i in range(LARGE))
            repl.type("put / {" + children + "}")
            expected = repl.show()
            self.assertEqual(len(expected[0]), LARGE, where)
            wait.until(lambda d: d.execute_script("return window.liveInspector.shownCounts()") == [LARGE], where)
            wait.until(lambda d: settle(d, wait, where) == expected, where)
            elements = driver.execute_script("return document.querySelectorAll('#layer .row').length")
            self.assertLess(elements, 200, "%s: only the rows in view are in the document" % where)
            check_drawn(self, driver, expected, where)
            spacer = driver.execute_script("return document.getElementById('spacer').offsetHeight")
            self.assertLess(spacer, LARGE * 28, "%s: the scroll bar is scaled" % where)
            driver.find_element(By.ID, "list").send_keys(Keys.END)
            wait.until(lambda d: any(r[2] == expected[0][-1] for r in d.execute_script(
                "return window.liveInspector.rendered().map(r => [r.section, r.row, r.key])")), where)
            settle(driver, wait, where)
            check_drawn(self, driver, expected, where + ", at the end", repl.url)
            rows = driver.execute_script("return window.liveInspector.rendered().map(r => r.row)")
            self.assertEqual(max(rows), LARGE - 1, where)
            # Scaled, keys still move by exactly a row or a page.
            listing = driver.find_element(By.ID, "list")
            listing.send_keys(Keys.HOME)
            self.assertEqual(driver.execute_script("return window.liveInspector.offset()"), 0, where)
            listing.send_keys(Keys.ARROW_DOWN, Keys.ARROW_DOWN, Keys.ARROW_DOWN)
            self.assertEqual(driver.execute_script("return window.liveInspector.offset()"), 3 * 28, where)
            self.assertEqual(driver.execute_script("return window.liveInspector.problems"), [], where)
        finally:
            driver.quit()
            status = repl.close()
        self.assertEqual(status, 0, where)


if __name__ == "__main__":
    unittest.main()
