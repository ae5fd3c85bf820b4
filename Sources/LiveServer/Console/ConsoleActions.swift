// ConsoleActions.swift — the data console's actions: select, edit, add,
// delete, watch a location live, and run a query.

enum ConsoleActions {
    static let text = #"""
    const LARGE = 1 << 20;

    async function select(path) {
      state.selected = path;
      $("selected").textContent = path;
      for (const li of $("tree").querySelectorAll("[role=treeitem]")) {
        li.setAttribute("aria-selected", String(li.dataset.path === path));
      }
      try {
        const text = await call("GET", path);
        const large = text.length > LARGE;
        $("value").value = large ? "" : JSON.stringify(JSON.parse(text), null, 2);
        $("value").placeholder = large ? "over 1 MiB: too large to edit here" : "";
        $("save").disabled = large;
        state.loaded = path;
      } catch (problem) {
        say(problem.message, true);
      }
    }

    async function write(method, path, body, done) {
      try {
        await call(method, path, {}, body);
        state.writes += 1;
        say(done);
        await refreshTree();
        if (method !== "DELETE" && path === state.selected) await select(path);
      } catch (problem) {
        say(problem.message, true);
      }
    }

    function parsed(text, what) {
      try { return JSON.stringify(JSON.parse(text)); } catch (problem) {
        say(what + " is not JSON: " + problem.message, true);
        return null;
      }
    }

    $("edit-form").addEventListener("submit", e => {
      e.preventDefault();
      const body = parsed($("value").value, "the value");
      if (body !== null) write("PUT", state.selected, body, "saved " + state.selected);
    });
    $("delete").addEventListener("click", () => {
      const path = state.selected;
      write("DELETE", path, undefined, "deleted " + path).then(() => { if (path !== "/") select(path.replace(/\/[^/]*$/, "") || "/"); });
    });
    $("add-form").addEventListener("submit", e => {
      e.preventDefault();
      const key = $("child-key").value;
      if (!key || /[.$#\[\]\/\u0000-\u001f\u007f]/.test(key) || new TextEncoder().encode(key).length > 768) {
        return say("a key is 1 to 768 bytes, without . $ # [ ] / or control characters", true);
      }
      const body = parsed($("child-value").value, "the child's value");
      if (body === null) return;
      state.expanded.add(state.selected);
      write("PUT", child(state.selected, key), body, "added " + child(state.selected, key))
        .then(() => { $("child-key").value = ""; $("child-value").value = ""; });
    });
    $("refresh").addEventListener("click", () => refreshTree());
    tokenBox.addEventListener("change", () => {
      sessionStorage.setItem("live-console-token", tokenBox.value);
      refreshTree();
    });

    // Watching: the location's value kept from its event stream (`put` and
    // `patch` applied as they come); the tree follows.
    function setAt(root, path, value) {
      const parts = path.split("/").filter(Boolean);
      if (!parts.length) return value;
      const top = root !== null && typeof root === "object" ? { ...root } : {};
      const [first, ...rest] = parts;
      const next = setAt(top[first] ?? null, rest.join("/"), value);
      if (next === null) delete top[first]; else top[first] = next;
      return Object.keys(top).length ? top : null;
    }
    let treeSoon = null;
    function watch(path) {
      if (state.stream) state.stream.close();
      state.watched = path;
      state.watchValue = null;
      state.events = 0;
      $("watched").textContent = path;
      const show = () => {
        $("watch-events").textContent = String(state.events);
        const text = JSON.stringify(state.watchValue, null, 2);
        $("watch-value").textContent = text.length > LARGE ? text.slice(0, LARGE) + "\n…" : text;
        clearTimeout(treeSoon);
        treeSoon = setTimeout(() => refreshTree(), 200);
      };
      const stream = new EventSource(address(path));
      state.stream = stream;
      stream.addEventListener("put", e => {
        const { path: at, data } = JSON.parse(e.data);
        state.watchValue = setAt(state.watchValue, at, data);
        state.events += 1;
        show();
      });
      stream.addEventListener("patch", e => {
        const { path: at, data } = JSON.parse(e.data);
        for (const [name, value] of Object.entries(data)) state.watchValue = setAt(state.watchValue, at + "/" + name, value);
        state.events += 1;
        show();
      });
      for (const end of ["cancel", "auth_revoked"]) {
        stream.addEventListener(end, e => { say("watch ended: " + end + " " + e.data, true); stream.close(); });
      }
      stream.addEventListener("error", () => say("watch: disconnected, retrying…", true));
    }
    $("watch").addEventListener("click", () => watch(state.selected));

    // A query of the selected location: its window, in query order.
    function queryParams() {
      const params = {};
      const orderBy = $("order-by").value.trim();
      if (!orderBy) throw new Error("a query needs orderBy");
      params.orderBy = JSON.stringify(orderBy);
      for (const [id, name] of [["start-at", "startAt"], ["end-at", "endAt"], ["equal-to", "equalTo"]]) {
        const text = $(id).value.trim();
        if (!text) continue;
        let value;
        try { value = JSON.parse(text); } catch (_) { value = text; }
        params[name] = JSON.stringify(value);
      }
      for (const [id, name] of [["limit-first", "limitToFirst"], ["limit-last", "limitToLast"]]) {
        const text = $(id).value.trim();
        if (!text) continue;
        if (!/^[0-9]+$/.test(text)) throw new Error(name + " must be a whole number");
        params[name] = text;
      }
      if (orderBy === "$priority") params.format = "export";
      return params;
    }
    async function runQuery() {
      try {
        const params = queryParams();
        const value = JSON.parse(await call("GET", state.selected, params));
        const entries = sortWindow(members(value) || [], $("order-by").value.trim());
        state.window = entries.map(([key]) => key);
        const shown = v => v !== null && typeof v === "object" && ".value" in v ? v[".value"] : v;
        $("window").tBodies[0].replaceChildren(...entries.map(([key, v], i) => {
          const row = document.createElement("tr");
          for (const text of [String(i + 1), key, JSON.stringify(shown(v))]) {
            const cell = document.createElement("td");
            cell.textContent = text.length > 200 ? text.slice(0, 200) + "…" : text;
            row.append(cell);
          }
          return row;
        }));
        state.queries = (state.queries || 0) + 1;
        say("query: " + entries.length + " children");
      } catch (problem) {
        say(problem.message, true);
      }
    }
    $("query-form").addEventListener("submit", e => {
      e.preventDefault();
      if (state.queryStream) { state.queryStream.close(); state.queryStream = null; }
      runQuery();
      if ($("query-live").checked) {
        let soon = null;
        try {
          state.queryStream = new EventSource(address(state.selected, queryParams()));
          for (const kind of ["put", "patch"]) {
            state.queryStream.addEventListener(kind, () => { clearTimeout(soon); soon = setTimeout(runQuery, 100); });
          }
        } catch (_) {}
      }
    });

    refreshTree().then(() => select("/"));
    """#
}
