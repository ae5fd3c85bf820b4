"use strict";
// The data console's base: REST reads and writes and the order of Firebase's
// keys and values, with the token given, as any client.

const $ = id => document.getElementById(id);
const state = { selected: "/", expanded: new Set(["/"]), watched: null, watchValue: null, events: 0,
                window: [], writes: 0, stream: null, queryStream: null };
window.liveConsole = state;
const tokenBox = $("token");
tokenBox.value = sessionStorage.getItem("live-console-token") || "";

function say(text, isError) {
  $("status").textContent = text;
  $("status").className = isError ? "error" : "";
}

// The REST address of `path` ("/" or "/a/b") with query parameters.
function address(path, params = {}) {
  const parts = path.split("/").filter(Boolean).map(encodeURIComponent);
  const query = Object.entries(params).map(([k, v]) => k + "=" + encodeURIComponent(v));
  if (tokenBox.value) query.push("auth=" + encodeURIComponent(tokenBox.value));
  return "/" + parts.join("/") + ".json" + (query.length ? "?" + query.join("&") : "");
}
const child = (path, key) => (path === "/" ? "" : path) + "/" + key;

async function call(method, path, params, body) {
  const answer = await fetch(address(path, params), { method, body,
    headers: body === undefined ? {} : { "Content-Type": "application/json" } });
  const text = await answer.text();
  if (!answer.ok) {
    let reason = text;
    try { reason = JSON.parse(text).error || text; } catch (_) {}
    throw new Error(method + " " + path + ": " + answer.status + " " + reason);
  }
  return text;
}

// Firebase's order: integer keys first by value (shorter first when
// equal), then other keys by UTF-16 code units; values null < false <
// true < numbers < strings < objects, ties by key.
function intKey(key) {
  if (!/^-?[0-9]+$/.test(key)) return null;
  const n = Number(key);
  return n >= -2147483648 && n <= 2147483647 ? n : null;
}
function compareKeys(a, b) {
  const x = intKey(a), y = intKey(b);
  if (x !== null && y !== null) return x - y || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
  if (x !== null) return -1;
  if (y !== null) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
function rank(v) {
  if (v === null || v === undefined) return [0];
  if (v === false) return [1];
  if (v === true) return [2];
  if (typeof v === "number") return [3, v];
  if (typeof v === "string") return [4, v];
  return [5];
}
function compareValues(a, b) {
  const x = rank(a), y = rank(b);
  if (x[0] !== y[0]) return x[0] - y[0];
  if (x.length < 2 || x[1] === y[1]) return 0;
  return x[1] < y[1] ? -1 : 1;
}
function members(value) {
  if (Array.isArray(value)) return value.map((v, i) => [String(i), v]).filter(([, v]) => v !== null);
  if (value !== null && typeof value === "object") return Object.entries(value);
  return null;
}
function at(value, path) {
  for (const part of path.split("/").filter(Boolean)) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, part)) return null;
    value = value[part];
  }
  return value;
}
function priority(value) {
  const p = value !== null && typeof value === "object" ? value[".priority"] : undefined;
  return p === undefined ? [0] : typeof p === "number" ? [1, p] : [2, p];
}
function sortWindow(entries, orderBy) {
  const by = ([key, value]) => orderBy === "$key" ? null : orderBy === "$value" ? value
    : orderBy === "$priority" ? priority(value) : at(value, orderBy);
  return entries.sort((a, b) => {
    if (orderBy === "$priority") {
      const x = by(a), y = by(b);
      if (x[0] !== y[0]) return x[0] - y[0];
      if (x.length > 1 && x[1] !== y[1]) return x[1] < y[1] ? -1 : 1;
    } else if (orderBy !== "$key") {
      const c = compareValues(by(a), by(b));
      if (c) return c;
    }
    return compareKeys(a[0], b[0]);
  });
}
const preview = v => v !== null && typeof v === "object" ? "{…}" : JSON.stringify(v);
