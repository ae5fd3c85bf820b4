"use strict";
// The inspector's model: the keys of every section, each change's stages
// applied to them under UIKit's batch rules.

const params = new URLSearchParams(location.search);
const inspector = {
  sections: [],          // the session's sections, as followed: [{value, keys}]
  shown: [],             // the sections drawn (behind `sections` while stages play)
  contents: new Map(),   // key -> [sort, summary]
  changes: 0, outputs: 0, problems: [], connected: false,
  batches: [],           // every change: {id, change, lines, steps}
  queue: [], running: false, waiting: null,
  stepping: false,
  animate: params.get("animate") !== "0",
  duration: Number(params.get("duration") || 250),
  idle() { return this.queue.length === 0 && !this.running; },
  shownCounts() { return this.shown.map(s => s.keys.length); },
};
window.liveInspector = inspector;
const NO_CONTENTS = { rows: [], sections: [], reloaded: [] };

function fromSections(list) {
  return list.map(s => ({ value: s.section, keys: s.keys }));
}

// FNV-1a over the keys' UTF-16 code units, as the session computes it.
function digestOf(sections) {
  let h = 2166136261;
  const mix = v => { h = Math.imul(h ^ v, 16777619) >>> 0; };
  for (const s of sections) {
    for (const key of s.keys) {
      for (let i = 0; i < key.length; i++) mix(key.charCodeAt(i));
      mix(0x10000);
    }
    mix(0x20000);
  }
  return h.toString(16);
}

function fail(text) { throw new Error(text); }
const at = (s, r) => s + "." + r;

// One stage applied to the sections: deletions, reloads and move
// sources in the old index space, insertions and move destinations in
// the new one; the keys it fills in come from `contents`. Checks that
// every path is in range, that each old row goes once at most and each
// new slot is filled once at most, and the counts. Sections no
// operation touches keep their arrays.
function applyStage(old, stage, contents) {
  const counts = stage.counts;
  const from = new Array(counts.length).fill(undefined);
  const oldSection = i => { if (!(i >= 0 && i < old.length)) fail("no section " + i + " before"); return i; };
  const newSection = i => { if (!(i >= 0 && i < counts.length)) fail("no section " + i + " after"); return i; };
  const deletedS = new Set(stage.deletedSections.map(oldSection));
  const reloadedAt = new Map(stage.reloadedSections.map((f, i) => [oldSection(f), i]));
  const movedS = new Set();
  for (const [f, t] of stage.movedSections) {
    if (from[newSection(t)] !== undefined || deletedS.has(oldSection(f)) || movedS.has(f)) fail("section move " + f + " to " + t);
    movedS.add(f);
    from[t] = f;
  }
  stage.insertedSections.forEach((s, i) => {
    if (from[newSection(s)] !== undefined) fail("section " + s + " is filled twice");
    from[s] = -1 - i;
  });
  let j = 0;
  for (let i = 0; i < old.length; i++) {
    if (deletedS.has(i) || movedS.has(i)) continue;
    while (j < from.length && from[j] !== undefined) j++;
    if (j >= from.length) fail("more sections kept than counted");
    from[j++] = i;
  }
  // Per section: the old rows that go (deleted or moved away), and the
  // new slots an operation fills (inserted or moved in).
  const gone = new Map(), placed = new Map();
  for (const [sec, row] of [...stage.deletedRows, ...stage.movedRows.map(m => m[0])]) {
    if (!old[sec] || !(row >= 0 && row < old[sec].keys.length)) fail("no row " + at(sec, row) + " before");
    if (!gone.has(sec)) gone.set(sec, new Uint8Array(old[sec].keys.length));
    if (gone.get(sec)[row]) fail("row " + at(sec, row) + " goes twice");
    gone.get(sec)[row] = 1;
  }
  for (const [sec, row] of stage.reloadedRows) {
    if (!old[sec] || !(row >= 0 && row < old[sec].keys.length) || (gone.has(sec) && gone.get(sec)[row])) {
      fail("row " + at(sec, row) + " cannot be reloaded");
    }
  }
  const fill = (sec, row, key) => {
    if (!(sec >= 0 && sec < counts.length && row >= 0 && row < counts[sec])) fail("no row " + at(sec, row) + " after");
    if (typeof key !== "string") fail("no key for row " + at(sec, row));
    if (!placed.has(sec)) placed.set(sec, new Array(counts[sec]));
    if (placed.get(sec)[row] !== undefined) fail("row " + at(sec, row) + " is filled twice");
    placed.get(sec)[row] = key;
  };
  stage.insertedRows.forEach(([sec, row], i) => fill(sec, row, contents.rows[i]));
  for (const [src, dst] of stage.movedRows) fill(dst[0], dst[1], old[src[0]].keys[src[1]]);
  return counts.map((total, s) => {
    const f = from[s];
    if (f === undefined) fail("section " + s + " comes from nowhere");
    let fresh = null, value;
    if (f < 0) {
      fresh = contents.sections[-1 - f];
      value = fresh && fresh.section;
    } else {
      value = old[f].value;
      if (reloadedAt.has(f)) fresh = contents.reloaded[reloadedAt.get(f)];
    }
    if (f < 0 || reloadedAt.has(f)) {
      if (!fresh || fresh.keys.length !== total) fail("section " + s + ": no rows, or not " + total);
      if (placed.has(s)) fail("rows placed in section " + s + ", which is filled whole");
      return { value, keys: fresh.keys };
    }
    const keys = old[f].keys;
    const goes = gone.get(f), put = placed.get(s);
    if (!goes && !put) {
      if (keys.length !== total) fail("section " + s + ": " + keys.length + " rows, counted " + total);
      return old[f];
    }
    const slots = new Array(total);
    let k = 0;
    for (let r = 0; r < total; r++) {
      if (put && put[r] !== undefined) { slots[r] = put[r]; continue; }
      while (goes && k < keys.length && goes[k]) k++;
      if (k >= keys.length) fail("section " + s + ": fewer rows than counted");
      slots[r] = keys[k++];
    }
    while (goes && k < keys.length && goes[k]) k++;
    if (k !== keys.length) fail("section " + s + ": more rows than counted");
    return { value, keys: slots };
  });
}

// A change: each stage applied in turn, checked against the counts and
// digest after it; then its steps are queued for drawing. (The session
// greets a page only between changes, so every change a page gets is
// one its sections do not show yet.)
function takeChange(message) {
  let sections = inspector.sections;
  const steps = [];
  try {
    message.change.stages.forEach((stage, i) => {
      const after = applyStage(sections, stage, message.contents[i] || NO_CONTENTS);
      steps.push({ before: sections, after, stage, index: i + 1, of: message.change.stages.length });
      sections = after;
    });
    const counts = sections.map(s => s.keys.length);
    if (counts.join() !== message.counts.join()) fail("counts " + counts.join() + ", not " + message.counts.join());
    if (message.digest !== null && digestOf(sections) !== message.digest) fail("the keys differ from the session's");
  } catch (problem) {
    inspector.problems.push(String(problem.message || problem));
    log("problem: " + (problem.message || problem) + "; starting again from the sections as they are", true);
    resync();
    return null;
  }
  inspector.sections = sections;
  inspector.changes += 1;
  // Contents that may have changed: every row a stage places or
  // reloads, and every row after a new query or sections.
  let placed = 0;
  for (const step of steps) {
    for (const [s, r] of step.stage.reloadedRows) forget(step.before[s].keys[r]);
    const contents = message.contents[step.index - 1] || NO_CONTENTS;
    placed += contents.rows.length;
    for (const section of [...contents.sections, ...contents.reloaded]) placed += section.keys.length;
  }
  if (message.fresh || placed > 50000) {
    forgetAll();
  } else {
    message.contents.forEach(contents => {
      if (!contents) return;
      contents.rows.forEach(forget);
      for (const section of [...contents.sections, ...contents.reloaded]) section.keys.forEach(forget);
    });
  }
  for (const [key, row] of Object.entries(message.rows)) learn(key, row);
  const batch = { id: inspector.batches.length + 1, change: message.change, lines: message.lines, steps };
  inspector.batches.push(batch);
  keepReplays(batch);
  for (const step of steps) inspector.queue.push(step);
  // A change without stages (a new order that moves no row) still
  // draws again: the contents drawn may have changed.
  if (!steps.length) inspector.queue.push({ jump: sections });
  pump();
  return batch;
}

// Replays keep the sections before and after each stage; arrays are
// shared where a stage leaves a section alone. Past about three million
// rows held that way, the oldest changes are not replayable any more,
// and past 500 changes the oldest keep only their number.
const replayable = [];
let held = 0;
function keepReplays(batch) {
  const size = b => b.steps.reduce((n, step) => n + step.after.reduce((m, s) => m + s.keys.length, 0), 0);
  batch.held = size(batch);
  held += batch.held;
  replayable.push(batch);
  while (held > 3e6 && replayable.length > 1) {
    const old = replayable.shift();
    held -= old.held;
    old.steps = null;
    const button = document.getElementById("replay-" + old.id);
    if (button) { button.disabled = true; button.title = "too old to replay"; }
  }
  const gone = inspector.batches[inspector.batches.length - 501];
  if (gone && gone.change) {
    gone.change = gone.lines = null;
    if (gone.steps) { held -= gone.held; gone.steps = null; replayable.splice(replayable.indexOf(gone), 1); }
  }
}
