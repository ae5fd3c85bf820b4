// WebAssets.swift — the inspector page, served from the process itself:
// nothing is fetched from elsewhere, so it works offline.

enum WebAssets {
    /// The page's script: the model (`WebScriptModel`), the list
    /// (`WebScriptList`), then the page's wiring (`WebScriptApp`).
    static let script = "\"use strict\";\n" + WebScriptModel.text + WebScriptList.text + WebScriptApp.text

    /// The page: the sections and rows, a command box, the query, stats
    /// and a log of every change with its stages.
    static let page = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>live-repl inspector</title>
    <style>
    """# + style + #"""
    </style>
    </head>
    <body>
    <main>
      <form id="command-form">
        <label for="command">Command</label>
        <input id="command" name="command" autocomplete="off" placeholder="put /k1 {&quot;score&quot;: 3}">
        <button type="submit">Run</button>
      </form>
      <div class="controls">
        <p id="status" role="status">connecting…</p>
        <label><input type="checkbox" id="stepping"> Step through stages</label>
        <button type="button" id="next" disabled>Next stage</button>
        <label><input type="checkbox" id="animate" checked> Animate</label>
      </div>
      <p id="stage" aria-live="polite"></p>
      <div id="list" tabindex="0" role="region" aria-label="Sections and rows (arrow keys and Page Up/Down scroll)">
        <div id="layer" role="list" aria-label="Rows"></div>
        <div id="spacer"></div>
      </div>
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

    /// Light and dark from the system's colours; motion off when the
    /// system asks for less.
    private static let style = #"""
      :root { color-scheme: light dark; font-family: system-ui, sans-serif;
              --line: color-mix(in srgb, CanvasText 14%, transparent);
              --muted: color-mix(in srgb, CanvasText 65%, Canvas);
              --flash: color-mix(in srgb, Highlight 45%, Canvas);
              --header: color-mix(in srgb, CanvasText 7%, Canvas); }
      body { margin: 0; display: grid; grid-template-columns: 2fr 1fr; height: 100vh; background: Canvas; color: CanvasText; }
      main { display: flex; flex-direction: column; min-height: 0; padding: 0.75rem; }
      aside { overflow: auto; padding: 0.75rem; border-left: 1px solid var(--line); font-size: 0.85rem; }
      h2 { font-size: 0.9rem; margin: 0.75rem 0 0.25rem; }
      form, .controls { display: flex; gap: 0.5rem; align-items: center; margin-bottom: 0.5rem; flex-wrap: wrap; }
      .controls p { margin: 0; flex: 1; }
      #command { flex: 1; font: inherit; font-family: ui-monospace, monospace; }
      #stage { margin: 0 0 0.5rem; min-height: 1.2em; font-family: ui-monospace, monospace; font-size: 0.85rem; }
      :focus-visible { outline: 2px solid Highlight; outline-offset: 1px; }
      #list { position: relative; flex: 1; overflow: auto; border: 1px solid var(--line); }
      #layer { position: sticky; top: 0; overflow: hidden; }
      .item { position: absolute; left: 0; right: 0; box-sizing: border-box; display: grid; align-items: center;
              font-family: ui-monospace, monospace; font-size: 0.85rem; }
      .row { height: 28px; padding: 0 0.5rem; border-bottom: 1px solid var(--line);
             grid-template-columns: minmax(6rem, 1fr) minmax(4rem, auto) 3fr; gap: 0.75rem; }
      .header { height: 32px; padding: 0 0.5rem; background: var(--header); font-weight: 600; font-family: system-ui, sans-serif; }
      .row > span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
      .sort { color: var(--muted); text-align: right; }
      .animating .item { transition: transform var(--duration) ease, opacity var(--duration) ease; }
      .appear { animation: appear var(--duration) ease; }
      .leaving { opacity: 0; pointer-events: none; }
      .flash { animation: flash calc(var(--duration) * 2) ease; }
      @keyframes appear { from { opacity: 0; } to { opacity: 1; } }
      @keyframes flash { from { background: var(--flash); } to { background: transparent; } }
      @media (prefers-reduced-motion: reduce) { .animating .item, .appear, .flash { transition: none; animation: none; } }
      #log { list-style: none; margin: 0; padding: 0; }
      #log li { padding: 0.25rem 0; border-bottom: 1px solid var(--line); white-space: pre-wrap; word-break: break-all;
                font-family: ui-monospace, monospace; }
      #log button { margin-top: 0.25rem; }
      .error { color: light-dark(#b71c1c, #ff8a80); }
      pre { margin: 0; white-space: pre-wrap; font-size: 0.8rem; }
    """#
}
