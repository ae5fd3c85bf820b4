"use strict";
// The inspector's wiring: the event stream, stages drawn one after another
// (held in step mode), the log with replays, and commands.

const token = params.get("token") || "";
const status = document.getElementById("status"), stageLine = document.getElementById("stage");
const nextButton = document.getElementById("next");
let events = null, generation = 0;

function describe(stage) {
  const paths = list => list.map(p => p.join(".")).join(" ");
  const parts = [];
  if (stage.deletedSections.length) parts.push("delete sections " + stage.deletedSections.join(" "));
  if (stage.insertedSections.length) parts.push("insert sections " + stage.insertedSections.join(" "));
  if (stage.movedSections.length) parts.push("move sections " + stage.movedSections.map(m => m.join("→")).join(" "));
  if (stage.reloadedSections.length) parts.push("reload sections " + stage.reloadedSections.join(" "));
  if (stage.deletedRows.length) parts.push("delete " + paths(stage.deletedRows));
  if (stage.insertedRows.length) parts.push("insert " + paths(stage.insertedRows));
  if (stage.movedRows.length) parts.push("move " + stage.movedRows.map(([a, b]) => a.join(".") + "→" + b.join(".")).join(" "));
  if (stage.reloadedRows.length) parts.push("reload " + paths(stage.reloadedRows));
  const text = parts.join("; ");
  return (text.length > 400 ? text.slice(0, 400) + "…" : text) + " → counts [" + stage.counts.join(", ") + "]";
}

// Draws the queued steps one after another: each waits for "Next stage"
// in step mode, and for its animation otherwise. A backlog is drawn at
// once, without animation.
async function pump() {
  if (inspector.running) return;
  inspector.running = true;
  try {
    while (inspector.queue.length) {
      const step = inspector.queue.shift();
      if (step.jump) {
        inspector.shown = step.jump;
        draw(null, false);
        continue;
      }
      const label = (step.replay ? "replay of change " + step.replay + ", " : "") + "stage " + step.index + " of " + step.of + ": " + describe(step.stage);
      if (inspector.stepping) {
        const held = generation;
        stageLine.textContent = "next: " + label;
        nextButton.disabled = false;
        await new Promise(resolve => { inspector.waiting = resolve; });
        nextButton.disabled = true;
        // Sections that came meanwhile (a reconnection) replace the step.
        if (held !== generation) continue;
      }
      const motion = inspector.animate && !matchMedia("(prefers-reduced-motion: reduce)").matches
        && (inspector.stepping || step.replay || inspector.queue.length < 8);
      inspector.shown = step.after;
      draw(step, motion);
      stageLine.textContent = "shown: " + label;
      if (motion) await new Promise(resolve => setTimeout(resolve, inspector.duration));
    }
  } finally {
    inspector.running = false;
    inspector.waiting = null;
  }
}
nextButton.addEventListener("click", () => {
  const resolve = inspector.waiting;
  inspector.waiting = null;
  if (resolve) resolve();
});
document.getElementById("stepping").addEventListener("change", e => {
  inspector.stepping = e.target.checked;
  if (!inspector.stepping) nextButton.click();
});
document.getElementById("animate").checked = inspector.animate;
document.getElementById("animate").addEventListener("change", e => { inspector.animate = e.target.checked; });

// Plays change `id` again: the sections as they were before it, each of
// its stages, then the sections as they are.
function replay(id) {
  const batch = inspector.batches[id - 1];
  if (!batch || !batch.steps || batch.steps.length === 0) return false;
  inspector.queue.push({ jump: batch.steps[0].before });
  for (const step of batch.steps) inspector.queue.push({ ...step, replay: id });
  inspector.queue.push({ jump: inspector.sections });
  pump();
  return true;
}
inspector.replay = replay;

function log(text, isError, batch) {
  const item = document.createElement("li");
  item.textContent = text;
  if (isError) item.className = "error";
  if (batch && batch.steps.length) {
    const button = document.createElement("button");
    button.type = "button";
    button.id = "replay-" + batch.id;
    button.textContent = "Replay";
    button.setAttribute("aria-label", "Replay change " + batch.id);
    button.addEventListener("click", () => replay(batch.id));
    item.append(document.createElement("br"), button);
  }
  const log = document.getElementById("log");
  log.prepend(item);
  while (log.children.length > 500) log.lastChild.remove();
}

function resync() {
  if (events) events.close();
  connect();
}

function connect() {
  events = follow("/events?token=" + encodeURIComponent(token), {
    open: () => { status.textContent = "live"; },
    error: () => { status.textContent = "disconnected: retrying…"; },
    hello: hello => {
      inspector.sections = fromSections(hello.sections);
      forgetAll();
      generation += 1;
      inspector.queue.length = 0;
      inspector.queue.push({ jump: inspector.sections });
      if (inspector.waiting) nextButton.click();
      inspector.connected = true;
      pump();
    },
    change: message => {
      const batch = takeChange(message);
      if (!batch) return;
      log(["change " + batch.id + ":", ...message.lines].join("\n"), false, batch);
    },
    info: info => {
      document.getElementById("query").textContent = info.query.join("\n");
      document.getElementById("stats").textContent = info.stats.join("\n");
    },
    output: message => {
      inspector.outputs += 1;
      // A change's output is the change logged beside it.
      const output = message.output && !message.output.stages ? "\n" + JSON.stringify(message.output) : "";
      log("> " + message.command + output, !!(message.output && message.output.error));
    },
  });
}
connect();

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
