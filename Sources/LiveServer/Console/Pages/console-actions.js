"use strict";
// The data console's actions: select, edit, add, delete, watch a location
// live, and run a query.

const LARGE = 1 << 20;

// The value at `path` as text, read up to LARGE bytes (null past it),
// with priorities (`format=export`), so that saving keeps them.
async function readLimited(path) {
  const answer = await fetch(address(path, { format: "export" }));
  if (!answer.ok) {
    const text = await answer.text();
    let reason = text;
    try { reason = JSON.parse(text).error || text; } catch (_) {}
    throw new Error("GET " + path + ": " + answer.status + " " + reason);
  }
  const reader = answer.body.getReader(), chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > LARGE) { reader.cancel(); return null; }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) { bytes.set(chunk, at); at += chunk.length; }
  return new TextDecoder().decode(bytes);
}

// Selects `path`: its value is shown to edit once read. Save writes to
// the location whose value is shown, and only once it is.
let selecting = 0;
async function select(path) {
  const mine = ++selecting;
  state.selected = path;
  state.loaded = null;
  $("selected").textContent = path;
  $("save").disabled = true;
  $("value").value = "";
  $("value").placeholder = "reading…";
  for (const li of $("tree").querySelectorAll("[role=treeitem]")) {
    li.setAttribute("aria-selected", String(li.dataset.path === path));
  }
  try {
    const text = await readLimited(path);
    if (mine !== selecting) return;
    $("value").value = text === null ? "" : JSON.stringify(JSON.parse(text), null, 2);
    $("value").placeholder = text === null ? "over 1 MiB: too large to edit here" : "";
    $("save").disabled = text === null;
    state.loaded = path;
  } catch (problem) {
    if (mine !== selecting) return;
    $("value").placeholder = "not read";
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
  const path = state.loaded;
  if (path === null) return say("the value is not read yet", true);
  const body = parsed($("value").value, "the value");
  if (body !== null) write("PUT", path, body, "saved " + path);
});
$("delete").addEventListener("click", () => {
  const path = state.selected;
  if (path === "/" && !confirm("Delete everything in the database?")) return;
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
  const next = setAt(Object.hasOwn(top, first) ? top[first] : null, rest.join("/"), value);
  // Defined, not assigned: a key such as "__proto__" stays a key.
  if (next === null) delete top[first];
  else Object.defineProperty(top, first, { value: next, enumerable: true, writable: true, configurable: true });
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
    // At most one refresh of the tree every 200 ms, however many events.
    if (!treeSoon) treeSoon = setTimeout(() => { treeSoon = null; refreshTree(); }, 200);
  };
  const ended = name => data => { say("watch ended: " + name + " " + JSON.stringify(data), true); stream.close(); };
  const stream = follow(address(path), {
    put: ({ path: at, data }) => {
      state.watchValue = setAt(state.watchValue, at, data);
      state.events += 1;
      show();
    },
    patch: ({ path: at, data }) => {
      for (const [name, value] of Object.entries(data)) state.watchValue = setAt(state.watchValue, at + "/" + name, value);
      state.events += 1;
      show();
    },
    cancel: ended("cancel"),
    auth_revoked: ended("auth_revoked"),
    error: () => say("watch: disconnected, retrying…", true),
  });
  state.stream = stream;
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
// A query runs on the location and parameters given when it was
// submitted; only the latest answer is shown.
let asked = 0;
async function runQuery(path, params, orderBy) {
  const mine = ++asked;
  try {
    const value = JSON.parse(await call("GET", path, params));
    if (mine !== asked) return;
    const entries = sortWindow(members(value) || [], orderBy);
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
    say("query of " + path + ": " + entries.length + " children");
  } catch (problem) {
    if (mine === asked) say(problem.message, true);
  }
}
$("query-form").addEventListener("submit", e => {
  e.preventDefault();
  if (state.queryStream) { state.queryStream.close(); state.queryStream = null; }
  clearTimeout(state.querySoon);
  let params;
  try { params = queryParams(); } catch (problem) { return say(problem.message, true); }
  const path = state.selected, orderBy = $("order-by").value.trim();
  runQuery(path, params, orderBy);
  if ($("query-live").checked) {
    const changed = () => {
      clearTimeout(state.querySoon);
      state.querySoon = setTimeout(() => { if (state.queryStream === stream) runQuery(path, params, orderBy); }, 100);
    };
    const stream = follow(address(path, params), { put: changed, patch: changed });
    state.queryStream = stream;
  }
});

refreshTree().then(() => select("/"));
