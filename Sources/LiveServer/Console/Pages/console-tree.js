"use strict";
// The data console's tree: each location's children read when it is opened
// (`shallow=true`), in key order, kept open across refreshes; a tree for the
// keyboard as well as the mouse.

// The children of `path`: [key, value] with `true` for a child that has
// children of its own; null for a leaf or nothing.
async function childrenOf(path) {
  const value = JSON.parse(await call("GET", path, { shallow: "true" }));
  const list = members(value);
  return list ? list.sort((a, b) => compareKeys(a[0], b[0])) : null;
}

function item(path, key, value) {
  const li = document.createElement("li");
  li.setAttribute("role", "treeitem");
  li.dataset.path = path;
  li.setAttribute("aria-selected", String(path === state.selected));
  li.tabIndex = path === state.selected ? 0 : -1;
  const node = document.createElement("div");
  node.className = "node";
  const twisty = document.createElement("span");
  twisty.className = "twisty";
  twisty.setAttribute("aria-hidden", "true");
  const name = document.createElement("span");
  name.className = "key";
  name.textContent = key;
  const shown = document.createElement("span");
  shown.className = "value";
  const branch = value === true;
  if (branch) {
    li.setAttribute("aria-expanded", String(state.expanded.has(path)));
    twisty.textContent = state.expanded.has(path) ? "▾" : "▸";
  } else {
    shown.textContent = preview(value);
  }
  node.append(twisty, name, shown);
  li.append(node);
  li.setAttribute("aria-label", key + (branch ? "" : " = " + preview(value)));
  // A click selects, and opens a closed location; the triangle also closes one.
  node.addEventListener("click", e => {
    if (branch && (e.target === twisty || li.getAttribute("aria-expanded") !== "true")) toggle(li);
    if (e.target !== twisty || path !== state.selected) select(path);
  });
  return li;
}

async function fillItem(li) {
  const path = li.dataset.path;
  const list = await childrenOf(path);
  li.querySelector(":scope > ul")?.remove();
  if (!list) return;
  const group = document.createElement("ul");
  group.setAttribute("role", "group");
  for (const [key, value] of list) {
    const sub = item(child(path, key), key, value);
    group.append(sub);
    if (value === true && state.expanded.has(sub.dataset.path)) await fillItem(sub);
  }
  li.append(group);
}

async function toggle(li) {
  const path = li.dataset.path;
  const open = li.getAttribute("aria-expanded") !== "true";
  if (open) state.expanded.add(path); else state.expanded.delete(path);
  li.setAttribute("aria-expanded", String(open));
  li.querySelector(":scope > .node > .twisty").textContent = open ? "▾" : "▸";
  if (open) await fillItem(li).catch(problem => say(problem.message, true));
  else li.querySelector(":scope > ul")?.remove();
}

// The whole tree again, with the locations that were open still open.
// One refresh at a time; one asked for meanwhile runs after it, since
// the one under way may have read before a write that just ended.
let refreshing = null, next = null;
async function refreshTree() {
  if (refreshing) {
    if (!next) next = refreshing.then(() => { next = null; return refreshTree(); });
    return next;
  }
  refreshing = (async () => {
    const root = item("/", "/", true);
    root.setAttribute("aria-expanded", "true");
    root.querySelector(".twisty").textContent = "▾";
    try {
      await fillItem(root);
      $("tree").replaceChildren(root);
      state.refreshed = (state.refreshed || 0) + 1;
    } catch (problem) {
      say(problem.message, true);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

// Arrow keys move through the items shown; right opens, left closes or
// goes to the parent; Enter and Space select.
$("tree").addEventListener("keydown", e => {
  const items = [...$("tree").querySelectorAll("[role=treeitem]")];
  const current = document.activeElement.closest("[role=treeitem]");
  const i = items.indexOf(current);
  if (i < 0) return;
  const focus = li => { if (!li) return; items.forEach(x => { x.tabIndex = -1; }); li.tabIndex = 0; li.focus(); };
  const expanded = current.getAttribute("aria-expanded");
  if (e.key === "ArrowDown") focus(items[i + 1]);
  else if (e.key === "ArrowUp") focus(items[i - 1]);
  else if (e.key === "ArrowRight" && expanded === "false") toggle(current);
  else if (e.key === "ArrowLeft" && expanded === "true") toggle(current);
  else if (e.key === "ArrowLeft") focus(current.parentElement.closest("[role=treeitem]"));
  else if (e.key === "Enter" || e.key === " ") select(current.dataset.path);
  else return;
  e.preventDefault();
});
