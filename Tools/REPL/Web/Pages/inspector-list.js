"use strict";
// The inspector's list: only the rows in view are in the document, placed by
// offset, and each stage drawn with animations.

// Past MAX_SPACER pixels (`&spacer=PX` in the address), the scroll bar is scaled.
const HEADER = 32, ROW = 28, OVERSCAN = 6, MAX_SPACER = Number(params.get("spacer") || 8e6);
const list = document.getElementById("list"), layer = document.getElementById("layer");
const spacer = document.getElementById("spacer");
const drawn = new Map();   // "r" + key or "h" + section value -> element
let tops = [0], total = 0;

// Where each section starts, and the height of everything.
function measure() {
  tops = [0];
  for (const s of inspector.shown) tops.push(tops[tops.length - 1] + HEADER + s.keys.length * ROW);
  total = tops[tops.length - 1];
  spacer.style.height = Math.min(total, MAX_SPACER) + "px";
}

// The scroll position as an offset into everything: past MAX_SPACER
// pixels the scroll bar is scaled.
// Scaled, the offset is kept exactly (a pixel of the bar is several
// rows, and the bar's position is rounded); it follows the bar only
// when the bar moved some other way (dragged).
let exact = 0, barSet = -1;
function scaled() { return total > MAX_SPACER && MAX_SPACER > list.clientHeight; }
function offset() {
  const view = list.clientHeight, height = Math.min(total, MAX_SPACER);
  if (!scaled()) return list.scrollTop;
  if (list.scrollTop !== barSet) exact = list.scrollTop / (height - view) * (total - view);
  barSet = list.scrollTop;
  return Math.min(exact, total - view);
}

function scrollToOffset(y) {
  const view = list.clientHeight, height = Math.min(total, MAX_SPACER);
  if (!scaled()) { list.scrollTop = y; return; }
  exact = Math.max(0, Math.min(y, total - view));
  list.scrollTop = exact / (total - view) * (height - view);
  barSet = list.scrollTop;
  draw(null, false);
}

// The items in view: headers and rows with their offsets.
function inView() {
  const top = offset() - OVERSCAN * ROW, bottom = offset() + list.clientHeight + OVERSCAN * ROW;
  const items = [];
  let lo = 0, hi = inspector.shown.length - 1;
  while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (tops[mid] <= top) lo = mid; else hi = mid - 1; }
  for (let s = Math.max(lo, 0); s < inspector.shown.length && tops[s] < bottom; s++) {
    const section = inspector.shown[s];
    if (tops[s] + HEADER > top) items.push({ id: "h" + JSON.stringify(section.value ?? null), s, y: tops[s] });
    const first = Math.max(0, Math.floor((top - tops[s] - HEADER) / ROW));
    const last = Math.min(section.keys.length, Math.ceil((bottom - tops[s] - HEADER) / ROW));
    for (let r = first; r < last; r++) {
      items.push({ id: "r" + section.keys[r], s, r, key: section.keys[r], y: tops[s] + HEADER + r * ROW });
    }
  }
  return items;
}

function fill(element, item) {
  const section = inspector.shown[item.s];
  element.dataset.section = String(item.s);
  if (item.key === undefined) {
    const n = section.keys.length;
    element.textContent = "section " + item.s + " · " + JSON.stringify(section.value ?? null) + " · " + n + (n === 1 ? " row" : " rows");
    element.setAttribute("aria-label", element.textContent);
    return;
  }
  element.dataset.row = String(item.r);
  element.dataset.key = item.key;
  element.setAttribute("aria-setsize", String(section.keys.length));
  element.setAttribute("aria-posinset", String(item.r + 1));
  const content = inspector.contents.get(item.key);
  if (!content) want(item.key);
  const [sort, summary] = content || ["…", "…"];
  const parts = element.children;
  parts[0].textContent = item.key;
  parts[1].textContent = sort;
  parts[2].textContent = summary;
  element.classList.toggle("pending", !content);
}

function make(item) {
  const element = document.createElement("div");
  element.setAttribute("role", "listitem");
  if (item.key === undefined) {
    element.className = "item header";
    element.setAttribute("aria-level", "3");
  } else {
    element.className = "item row";
    for (const name of ["key", "sort", "summary"]) {
      const part = document.createElement("span");
      part.className = name;
      element.append(part);
    }
  }
  layer.append(element);
  return element;
}

// Draws the shown sections. With `step` and motion on, the stage is
// animated: rows it deletes fade out, rows it inserts appear, rows that
// stay slide to their place, reloaded rows flash.
function draw(step, animated) {
  measure();
  layer.style.height = list.clientHeight + "px";
  layer.style.marginBottom = -list.clientHeight + "px";
  list.style.setProperty("--duration", inspector.duration + "ms");
  layer.classList.toggle("animating", animated);
  const base = offset(), items = inView(), keep = new Set();
  // The keys in view that the stage inserts or reloads (an insertion of
  // a million rows is not gathered whole).
  const fresh = new Set(), flashed = new Set();
  if (step && animated && items.length) {
    const rows = items.filter(i => i.key !== undefined), inside = new Set(rows.map(i => i.key));
    const first = rows[0] || items[0], last = rows[rows.length - 1] || items[0];
    const shown = ([s, r]) => (s > first.s || (s === first.s && r >= (first.r || 0))) && (s < last.s || (s === last.s && r <= (last.r || 0)));
    for (const path of step.stage.insertedRows) if (shown(path)) fresh.add(step.after[path[0]].keys[path[1]]);
    const insertedSections = new Set(step.stage.insertedSections);
    for (const item of rows) if (insertedSections.has(item.s)) fresh.add(item.key);
    for (const [s, r] of step.stage.reloadedRows) { const key = step.before[s].keys[r]; if (inside.has(key)) flashed.add(key); }
  }
  for (const item of items) {
    keep.add(item.id);
    let element = drawn.get(item.id);
    const isNew = !element || element.classList.contains("leaving");
    if (!element) { element = make(item); drawn.set(item.id, element); }
    element.classList.remove("leaving", "appear", "flash");
    fill(element, item);
    if (animated && isNew) {
      element.style.transition = "none";
      element.style.transform = "translateY(" + (item.y - base) + "px)";
      void element.offsetWidth;
      element.style.transition = "";
      if (fresh.has(item.key) || item.key === undefined) element.classList.add("appear");
    }
    element.style.transform = "translateY(" + (item.y - base) + "px)";
    if (animated && flashed.has(item.key)) {
      void element.offsetWidth;
      element.classList.add("flash");
    }
  }
  for (const [id, element] of drawn) {
    if (keep.has(id)) continue;
    drawn.delete(id);
    if (animated) {
      element.classList.add("leaving");
      setTimeout(() => { if (!drawn.has(id) || drawn.get(id) !== element) element.remove(); }, inspector.duration);
    } else {
      element.remove();
    }
  }
  askRows();
}

// Rows are asked for by key, for those in view whose contents are not
// known. A reply older than a change to one of its keys is not kept
// for that key; a key the session no longer holds is shown as such
// until a change places it again.
const wanted = new Set(), invalidated = new Map();
let asking = 0, epoch = 0, allInvalidated = 0, askScheduled = false, failing = false;
function want(key) { wanted.add(key); }
// (Only a reply on its way can be older than a change.)
function forget(key) { inspector.contents.delete(key); if (asking) invalidated.set(key, ++epoch); }
function forgetAll() { inspector.contents.clear(); invalidated.clear(); allInvalidated = ++epoch; }
function learn(key, row) { inspector.contents.set(key, row); if (asking) invalidated.set(key, ++epoch); }
function askRows() {
  if (askScheduled || wanted.size === 0) return;
  askScheduled = true;
  queueMicrotask(() => {
    askScheduled = false;
    const keys = [...wanted].slice(0, 2000);
    keys.forEach(k => wanted.delete(k));
    const asked = epoch;
    asking += 1;
    fetch("/rows?token=" + encodeURIComponent(token),
          { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(keys) })
      .then(answer => answer.ok ? answer.json() : Promise.reject(new Error("rows: " + answer.status)))
      .then(rows => {
        if (inspector.contents.size > 50000) inspector.contents.clear();
        for (const key of keys) {
          if (allInvalidated > asked || (invalidated.get(key) || 0) > asked) continue;
          inspector.contents.set(key, Object.hasOwn(rows, key) ? rows[key] : ["", "(not in the collection)"]);
        }
      })
      .then(() => { failing = false; }, problem => {
        // Asked again after a second (the session may have ended), and
        // said once per run of failures.
        if (!failing) log("rows not read: " + (problem.message || problem) + "; trying again", true);
        failing = true;
      })
      .finally(() => {
        asking -= 1;
        if (asking === 0) invalidated.clear();
        if (failing) setTimeout(refill, 1000); else refill();
      });
  });
}

// The rows drawn get their contents again, without moving.
function refill() {
  for (const item of inView()) {
    const element = drawn.get(item.id);
    if (element && item.key !== undefined && element.classList.contains("pending")) fill(element, item);
  }
  askRows();
}

list.addEventListener("scroll", () => draw(null, false), { passive: true });
// Past MAX_SPACER pixels one pixel of the scroll bar is several rows:
// keys and the wheel then move by rows and pages, not pixels.
list.addEventListener("keydown", e => {
  if (!scaled()) return;
  const page = list.clientHeight - ROW;
  const by = { ArrowDown: ROW, ArrowUp: -ROW, PageDown: page, PageUp: -page, " ": e.shiftKey ? -page : page }[e.key];
  if (e.key === "Home") scrollToOffset(0);
  else if (e.key === "End") scrollToOffset(total);
  else if (by !== undefined) scrollToOffset(Math.max(0, offset() + by));
  else return;
  e.preventDefault();
});
list.addEventListener("wheel", e => {
  if (!scaled() || e.ctrlKey) return;
  scrollToOffset(Math.max(0, offset() + e.deltaY * (e.deltaMode === 1 ? ROW : e.deltaMode === 2 ? list.clientHeight : 1)));
  e.preventDefault();
}, { passive: false });
new ResizeObserver(() => draw(null, false)).observe(list);

// The rows in the document, in order, without those leaving: for tests.
inspector.rendered = () => [...layer.querySelectorAll(".row:not(.leaving)")]
  .map(e => ({ section: Number(e.dataset.section), row: Number(e.dataset.row), key: e.dataset.key,
               sort: e.children[1].textContent, summary: e.children[2].textContent,
               pending: e.classList.contains("pending") }))
  .sort((a, b) => a.section - b.section || a.row - b.row);
inspector.offset = () => offset();
inspector.scrollToRow = (s, r) => {
  scrollToOffset(tops[s] + HEADER + r * ROW);
  draw(null, false);
};
