// ConsolePage.swift — the data console's page: the tree, the selected
// location's editor, a live watch and a query.

enum ConsolePage {
    static let html = #"""
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>live-server console</title>
    <style>
      :root { color-scheme: light dark; font-family: system-ui, sans-serif;
              --line: color-mix(in srgb, CanvasText 14%, transparent);
              --muted: color-mix(in srgb, CanvasText 65%, Canvas);
              --selected: color-mix(in srgb, Highlight 30%, Canvas); }
      body { margin: 0; display: grid; grid-template-columns: 1fr 1fr; grid-template-rows: auto 1fr; height: 100vh;
             background: Canvas; color: CanvasText; }
      header { grid-column: 1 / 3; display: flex; gap: 0.75rem; align-items: center; padding: 0.5rem 0.75rem;
               border-bottom: 1px solid var(--line); flex-wrap: wrap; }
      header h1 { font-size: 1rem; margin: 0; }
      section { overflow: auto; padding: 0.75rem; min-height: 0; }
      #tree-panel { border-right: 1px solid var(--line); }
      h2 { font-size: 0.9rem; margin: 0 0 0.5rem; }
      ul[role=tree], ul[role=group] { list-style: none; margin: 0; padding-left: 1rem; }
      ul[role=tree] { padding-left: 0; }
      [role=treeitem] > .node { display: flex; gap: 0.5rem; padding: 0.1rem 0.25rem; cursor: pointer;
                                 font-family: ui-monospace, monospace; font-size: 0.85rem; border-radius: 3px; }
      [role=treeitem][aria-selected=true] > .node { background: var(--selected); }
      .value { color: var(--muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
      .twisty { width: 1em; display: inline-block; }
      form { display: grid; gap: 0.4rem; margin-bottom: 1rem; }
      .line { display: flex; gap: 0.5rem; align-items: center; flex-wrap: wrap; }
      textarea, input { font: inherit; font-family: ui-monospace, monospace; font-size: 0.85rem; }
      textarea { min-height: 5rem; }
      pre { margin: 0; white-space: pre-wrap; word-break: break-all; font-size: 0.8rem; }
      table { border-collapse: collapse; width: 100%; font-family: ui-monospace, monospace; font-size: 0.8rem; }
      td, th { text-align: left; border-bottom: 1px solid var(--line); padding: 0.15rem 0.3rem; }
      .error { color: light-dark(#b71c1c, #ff8a80); }
      :focus-visible { outline: 2px solid Highlight; outline-offset: 1px; }
    </style>
    </head>
    <body>
    <header>
      <h1>live-server console</h1>
      <label for="token">Token</label>
      <input id="token" type="password" autocomplete="off" placeholder="only if the server requires one">
      <button type="button" id="refresh">Refresh</button>
      <p id="status" role="status"></p>
    </header>
    <section id="tree-panel" aria-labelledby="tree-title">
      <h2 id="tree-title">Data</h2>
      <ul id="tree" role="tree" aria-labelledby="tree-title"></ul>
    </section>
    <section aria-label="The selected location">
      <form id="edit-form" aria-labelledby="edit-title">
        <h2 id="edit-title">Location <code id="selected">/</code></h2>
        <label for="value">Value (JSON)</label>
        <textarea id="value" spellcheck="false"></textarea>
        <div class="line">
          <button type="submit" id="save">Save</button>
          <button type="button" id="delete">Delete</button>
          <button type="button" id="watch">Watch</button>
        </div>
      </form>
      <form id="add-form" aria-labelledby="add-title">
        <h2 id="add-title">Add a child</h2>
        <div class="line">
          <label for="child-key">Key</label><input id="child-key" autocomplete="off">
          <label for="child-value">Value</label><input id="child-value" autocomplete="off" placeholder='{"score": 1}'>
          <button type="submit" id="add">Add</button>
        </div>
      </form>
      <form id="query-form" aria-labelledby="query-title">
        <h2 id="query-title">Query this location</h2>
        <div class="line">
          <label for="order-by">orderBy</label><input id="order-by" placeholder="$key, $value, $priority or a child path">
        </div>
        <div class="line">
          <label for="start-at">startAt</label><input id="start-at" size="8">
          <label for="end-at">endAt</label><input id="end-at" size="8">
          <label for="equal-to">equalTo</label><input id="equal-to" size="8">
        </div>
        <div class="line">
          <label for="limit-first">limitToFirst</label><input id="limit-first" size="5" inputmode="numeric">
          <label for="limit-last">limitToLast</label><input id="limit-last" size="5" inputmode="numeric">
          <button type="submit" id="run-query">Run</button>
          <label><input type="checkbox" id="query-live"> live</label>
        </div>
      </form>
      <table id="window" aria-label="The query's window, in order"><thead><tr><th>#</th><th>key</th><th>value</th></tr></thead><tbody></tbody></table>
      <h2 id="watch-title">Watching <code id="watched">nothing</code> · <span id="watch-events">0</span> events</h2>
      <pre id="watch-value" aria-labelledby="watch-title" aria-live="polite"></pre>
    </section>
    <script src="/_/console.js"></script>
    </body>
    </html>
    """#
}
