// WebAssets.swift — the inspector page and its script, served from the
// process itself: nothing is fetched from elsewhere, so it works offline.

enum WebAssets {
    /// The page: the sections and rows, a command box, and a log.
    static let page = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>live-repl inspector</title>
    <style>
      :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
      body { margin: 0; display: grid; grid-template-columns: 2fr 1fr; height: 100vh; }
      main, aside { overflow: auto; padding: 0.75rem; }
      aside { border-left: 1px solid color-mix(in srgb, currentColor 25%, transparent); font-size: 0.85rem; }
      h2 { font-size: 0.9rem; margin: 0.75rem 0 0.25rem; }
      ol { list-style: none; margin: 0; padding: 0; }
      li { padding: 0.2rem 0.5rem; border-bottom: 1px solid color-mix(in srgb, currentColor 12%, transparent);
           font-family: ui-monospace, monospace; }
      form { display: flex; gap: 0.5rem; margin-bottom: 0.5rem; }
      input { flex: 1; font: inherit; font-family: ui-monospace, monospace; }
      #log li { white-space: pre-wrap; word-break: break-all; }
      .error { color: #c62828; }
      li.row { display: grid; grid-template-columns: minmax(6rem, 1fr) minmax(4rem, auto) 3fr; gap: 0.75rem; }
      .sort { color: color-mix(in srgb, currentColor 70%, transparent); text-align: right; }
      .summary { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
      pre { margin: 0; white-space: pre-wrap; font-size: 0.8rem; }
    </style>
    </head>
    <body>
    <main>
      <form id="command-form">
        <label for="command">Command</label>
        <input id="command" name="command" autocomplete="off" placeholder="put /k1 {&quot;score&quot;: 3}">
        <button type="submit">Run</button>
      </form>
      <p id="status" role="status">connecting…</p>
      <div id="sections" aria-label="Sections and rows"></div>
    </main>
    <aside>
      <h2 id="query-title">Query</h2>
      <pre id="query" aria-labelledby="query-title"></pre>
      <h2 id="stats-title">Stats</h2>
      <pre id="stats" aria-labelledby="stats-title"></pre>
      <h2 id="log-title">Log</h2>
      <ol id="log" aria-labelledby="log-title"></ol>
    </aside>
    <script src="/app.js"></script>
    </body>
    </html>
    """#

    /// The script: keeps the sections as keys, applies each change's stages
    /// under UIKit's batch rules, and checks the result against the
    /// sections the session shows after it.
    static let script = #"""
    "use strict";
    const inspector = { sections: [], contents: new Map(), changes: 0, outputs: 0, problems: [] };
    window.liveInspector = inspector;
    const HOLE = null;

    function fromShow(show) {
      return show.sections.map(s => ({ value: s.section, keys: s.keys.slice() }));
    }

    // Each row's sort value and summary, by key, as the session shows them.
    function takeContents(show) {
      inspector.contents = new Map();
      for (const s of show.sections) {
        s.keys.forEach((key, r) => inspector.contents.set(key, { sort: s.sort[r], summary: s.summary[r] }));
      }
    }

    // One stage applied to the sections (arrays of keys): deletions, reloads
    // and move sources in the old index space, insertions and move
    // destinations in the new one. Inserted rows are holes until filled.
    function applyStage(old, stage) {
      const counts = stage.counts;
      const deletedS = new Set(stage.deletedSections), reloadedS = new Set(stage.reloadedSections);
      const movedS = new Map(stage.movedSections.map(([f, t]) => [f, t]));
      const insertedS = new Set(stage.insertedSections);
      const from = new Array(counts.length).fill(undefined);
      for (const [f, t] of stage.movedSections) from[t] = f;
      for (const s of insertedS) from[s] = -1;
      let j = 0;
      for (let i = 0; i < old.length; i++) {
        if (deletedS.has(i) || movedS.has(i)) continue;
        while (j < from.length && from[j] !== undefined) j++;
        if (j >= from.length) throw new Error("more sections kept than counted");
        from[j++] = i;
      }
      // Each old row goes once at most, each new slot is filled once at most,
      // and every path is inside its sections.
      const gone = new Set();
      for (const [sec, row] of [...stage.deletedRows, ...stage.movedRows.map(m => m[0])]) {
        if (!old[sec] || row < 0 || row >= old[sec].keys.length) throw new Error("no row " + sec + "." + row + " before");
        if (gone.has(sec + "/" + row)) throw new Error("row " + sec + "." + row + " goes twice");
        gone.add(sec + "/" + row);
      }
      for (const [sec, row] of stage.reloadedRows) {
        if (!old[sec] || row < 0 || row >= old[sec].keys.length || gone.has(sec + "/" + row)) {
          throw new Error("row " + sec + "." + row + " cannot be reloaded");
        }
      }
      const filled = new Set();
      for (const [sec, row] of [...stage.insertedRows, ...stage.movedRows.map(m => m[1])]) {
        if (sec < 0 || sec >= counts.length || row < 0 || row >= counts[sec]) throw new Error("no row " + sec + "." + row + " after");
        if (filled.has(sec + "/" + row)) throw new Error("row " + sec + "." + row + " is filled twice");
        filled.add(sec + "/" + row);
      }
      return counts.map((total, s) => {
        const f = from[s];
        if (f === undefined) throw new Error("section " + s + " comes from nowhere");
        const fresh = f < 0 || reloadedS.has(f);
        const slots = new Array(total).fill(undefined);
        for (const [sec, row] of stage.insertedRows) if (sec === s) slots[row] = HOLE;
        for (const [src, dst] of stage.movedRows) {
          if (dst[0] === s) slots[dst[1]] = old[src[0]].keys[src[1]];
        }
        const base = fresh ? [] : old[f].keys.filter((_, r) => !gone.has(f + "/" + r));
        let k = 0;
        for (let r = 0; r < total; r++) {
          if (slots[r] !== undefined) continue;
          if (fresh) { slots[r] = HOLE; continue; }
          if (k >= base.length) throw new Error("section " + s + ": fewer rows than counted");
          slots[r] = base[k++];
        }
        if (!fresh && k !== base.length) throw new Error("section " + s + ": more rows than counted");
        return { value: f < 0 ? undefined : old[f].value, keys: slots };
      });
    }

    // A change: its stages one after another, then the holes filled from
    // the sections shown after it, which must agree with the rest.
    function sameKeys(a, b) {
      return a.length === b.length && a.every((s, i) => s.keys.length === b[i].keys.length
        && s.keys.every((k, r) => k === b[i].keys[r]));
    }

    function applyChange(change, show) {
      let sections = inspector.sections;
      const before = sections;
      try {
        for (const stage of change.stages) sections = applyStage(sections, stage);
        const after = fromShow(show);
        if (sections.length !== after.length) throw new Error("sections: " + sections.length + " vs " + after.length);
        sections.forEach((section, s) => {
          const want = after[s].keys;
          if (section.keys.length !== want.length) throw new Error("section " + s + " rows differ");
          section.keys.forEach((key, r) => {
            if (key !== HOLE && key !== want[r]) throw new Error("row " + s + "." + r + ": " + key + " vs " + want[r]);
          });
          if (section.value !== undefined && JSON.stringify(section.value) !== JSON.stringify(after[s].value)) {
            throw new Error("section " + s + " is " + JSON.stringify(after[s].value) + ", not " + JSON.stringify(section.value));
          }
          section.keys = want.slice();
          section.value = after[s].value;
        });
      } catch (problem) {
        // A page that connected while the change was being made shows it
        // already: nothing to apply.
        if (!sameKeys(before, fromShow(show))) {
          inspector.problems.push(String(problem.message || problem));
          log("problem: " + (problem.message || problem) + "; showing the sections as they are", true);
        }
        sections = fromShow(show);
      }
      inspector.sections = sections;
      inspector.changes += 1;
      render();
    }

    function render() {
      const root = document.getElementById("sections");
      root.replaceChildren(...inspector.sections.map((section, s) => {
        const block = document.createElement("section");
        block.dataset.section = String(s);
        const title = document.createElement("h2");
        title.id = "section-" + s;
        title.textContent = "section " + s + " · " + JSON.stringify(section.value ?? null) + " · " + section.keys.length + (section.keys.length === 1 ? " row" : " rows");
        const list = document.createElement("ol");
        list.setAttribute("aria-labelledby", title.id);
        for (const key of section.keys) {
          const item = document.createElement("li");
          item.className = "row";
          item.dataset.key = key;
          const content = inspector.contents.get(key) || { sort: "", summary: "" };
          for (const [name, text] of [["key", key], ["sort", content.sort], ["summary", content.summary]]) {
            const part = document.createElement("span");
            part.className = name;
            part.textContent = text;
            item.append(part);
          }
          list.append(item);
        }
        block.append(title, list);
        return block;
      }));
    }

    function log(text, isError) {
      const item = document.createElement("li");
      item.textContent = text;
      if (isError) item.className = "error";
      document.getElementById("log").prepend(item);
    }

    const token = new URLSearchParams(location.search).get("token") || "";
    const events = new EventSource("/events?token=" + encodeURIComponent(token));
    events.addEventListener("open", () => { document.getElementById("status").textContent = "live"; });
    events.addEventListener("error", () => { document.getElementById("status").textContent = "disconnected: retrying…"; });
    events.addEventListener("hello", e => {
      const show = JSON.parse(e.data);
      takeContents(show);
      inspector.sections = fromShow(show);
      inspector.connected = true;
      render();
    });
    events.addEventListener("change", e => {
      const message = JSON.parse(e.data);
      takeContents(message.show);
      applyChange(message.change, message.show);
      log(message.lines.join("\n"));
    });
    events.addEventListener("info", e => {
      const info = JSON.parse(e.data);
      document.getElementById("query").textContent = info.query.join("\n");
      document.getElementById("stats").textContent = info.stats.join("\n");
    });
    events.addEventListener("output", e => {
      const message = JSON.parse(e.data);
      inspector.outputs += 1;
      log("> " + message.command + (message.output ? "\n" + JSON.stringify(message.output) : ""),
          !!(message.output && message.output.error));
    });

    // Commands go one after another, in the order typed.
    let sending = Promise.resolve();
    document.getElementById("command-form").addEventListener("submit", e => {
      e.preventDefault();
      const box = document.getElementById("command");
      const line = box.value.trim();
      if (!line) return;
      box.value = "";
      sending = sending.then(() => fetch("/command?token=" + encodeURIComponent(token),
                                         { method: "POST", headers: { "Content-Type": "text/plain" }, body: line }))
        .then(answer => answer.ok ? answer : answer.text().then(text => { throw new Error(text.trim()); }))
        .catch(problem => log("> " + line + "\nnot run: " + (problem.message || problem), true));
    });
    """#
}
