"use strict";
// Event streams (server-sent events), as every page follows them.

// Follows the event stream at `url`; the EventSource returned closes it.
// Each handler in `on` gets the events of its name, their data read as JSON
// (for a handler that takes an argument; one that takes none is only told).
// "open" and "error" are the connection's own: after an error the browser
// connects again by itself.
function follow(url, on) {
  const source = new EventSource(url);
  for (const [name, handle] of Object.entries(on)) {
    const told = name === "open" || name === "error" || handle.length === 0;
    source.addEventListener(name, told ? () => handle() : e => handle(JSON.parse(e.data)));
  }
  return source;
}
