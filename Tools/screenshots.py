"""Takes the screenshots of docs/images (see Tools/screenshots): a live-server with
seeded data and its console, and live-repl --web against it, sectioned by a
child, in the middle of a change."""
import json
import os
import random
import subprocess
import sys
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from test_inspector import REPLWeb, WAIT, browser

OUT = sys.argv[1] if len(sys.argv) > 1 else "docs/images"
rng = random.Random(20261127)


def put(base, path, value):
    request = urllib.request.Request(base + path + ".json", data=json.dumps(value).encode(), method="PUT")
    urllib.request.urlopen(request, timeout=WAIT).close()


def scheme(driver, dark):
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})
    WebDriverWait(driver, WAIT).until(
        lambda d: d.execute_script("return matchMedia('(prefers-color-scheme: dark)').matches") == dark)
    # Two frames, so the page is painted in the scheme before the picture.
    driver.execute_async_script(
        "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done()));")


def main():
    os.makedirs(OUT, exist_ok=True)
    server = subprocess.Popen([os.environ["LIVE_SERVER"], "--port", "0", "--console"], stdout=subprocess.PIPE, text=True)
    base = server.stdout.readline().strip()
    names = ["ada", "grace", "alan", "edsger", "barbara", "ken", "dennis", "margaret", "donald", "frances",
             "john", "leslie", "tony", "niklaus", "radia", "sophie"]
    put(base, "/players", {name: {"score": rng.randint(10, 99), "team": rng.choice(["red", "blue", "green"])}
                           for name in names})
    repl = REPLWeb(["--url", base, "--path", "/players", "--order-by", "score", "--section-by", "team"])
    driver = browser()
    try:
        driver.set_window_size(1280, 760)
        driver.get(repl.url + "&duration=1200")
        wait = WebDriverWait(driver, WAIT)
        wait.until(lambda d: d.execute_script("return window.liveInspector.connected && window.liveInspector.idle()"))
        for name in ("ada", "ken", "radia"):
            repl.type("put /%s %s" % (name, json.dumps({"score": rng.randint(10, 99), "team": rng.choice(["red", "blue"])})))
        repl.type("show")
        wait.until(lambda d: d.execute_script("return window.liveInspector.changes") >= 3)
        driver.find_element(By.ID, "stepping").click()
        driver.find_element(By.ID, "replay-1").click()
        nxt = driver.find_element(By.ID, "next")
        wait.until(lambda d: nxt.is_enabled())
        for dark in (False, True):
            scheme(driver, dark)
            driver.save_screenshot(os.path.join(OUT, "inspector-%s.png" % ("dark" if dark else "light")))
        driver.get(base + "/_/console")
        wait.until(lambda d: d.execute_script("return (window.liveConsole || {}).refreshed >= 1"))
        driver.find_element(By.CSS_SELECTOR, '[data-path="/players"] > .node').click()
        wait.until(lambda d: d.execute_script("return window.liveConsole.loaded") == "/players")
        for field, text in (("order-by", "score"), ("limit-last", "5")):
            driver.find_element(By.ID, field).send_keys(text)
        driver.find_element(By.ID, "run-query").click()
        wait.until(lambda d: d.execute_script("return window.liveConsole.queries || 0") >= 1)
        driver.find_element(By.ID, "watch").click()
        wait.until(lambda d: d.execute_script("return window.liveConsole.events") >= 1)
        for dark in (False, True):
            scheme(driver, dark)
            driver.save_screenshot(os.path.join(OUT, "console-%s.png" % ("dark" if dark else "light")))
    finally:
        driver.quit()
        repl.close()
        server.terminate()
        server.wait(timeout=WAIT)
    print("screenshots in %s" % OUT)


if __name__ == "__main__":
    main()
