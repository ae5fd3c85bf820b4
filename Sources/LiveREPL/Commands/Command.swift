// Command.swift — one line of the REPL, parsed.

import LiveModel

/// A REPL command. Paths are relative to the listened location.
public enum Command: Sendable, Equatable {
    /// Inject a `put` as if the server had sent it.
    case put(DatabasePath, JSONValue, json: String)
    /// Inject a `patch` as if the server had sent it.
    case patch(DatabasePath, JSONValue, json: String)
    /// Write a value at a path (shown at once, then sent), only if the
    /// value there still has the ETag given, when one is.
    case set(DatabasePath, JSONValue, ifMatch: String? = nil)
    /// Write several paths, relative to the first, in one request (shown
    /// at once, then sent); a `null` value removes what is there.
    case update(DatabasePath, [DatabasePath: JSONValue])
    /// Add a child with a new push id below a path (shown at once, then sent).
    case push(DatabasePath, JSONValue)
    /// Remove the value at a path (shown at once, then sent), only if it
    /// still has the ETag given, when one is.
    case remove(DatabasePath, ifMatch: String? = nil)
    /// Print the sections and rows.
    case show
    /// Print the query, or replace it (and the sections) with these options.
    case query(QueryOptions?)
    /// Switch the load mode, or load the next page.
    case load(LoadRequest)
    /// Print counts, memory and event rate.
    case stats
    /// Wait until the collection equals the server's answer to the query,
    /// at most this many seconds (the session's write timeout by default).
    case sync(seconds: Double?)
    /// Drop the connection to the server: writes show and wait.
    case offline
    /// Connect again: resync, then send the writes that waited, in order.
    case online
    /// Record the session into a file from now on (`record FILE`), or stop
    /// (`record stop`): see ``Session/startRecording(to:limit:keepsValues:)``.
    case record(String?)
    /// In a session started with `--replay`: replay the next N recorded
    /// changes (nil: the rest), each compared with the recording.
    case replay(Int?)
    /// List the commands, or explain one.
    case help(String?)
    /// Leave.
    case quit
    /// An empty line or a `#` comment: nothing to do.
    case nothing

    /// What `load` asks for.
    public enum LoadRequest: Sendable, Equatable {
        /// Load child by child (`load live`).
        case live
        /// Load everything as one batch, then live (`load all`).
        case all
        /// Load pages of this many children, the first one now
        /// (`load page N`).
        case page(Int)
        /// Load pages of this many children from the end of the order
        /// backwards, the last one now (`load last N`).
        case last(Int)
        /// Load the next page, in either page mode (`load next`).
        case next
        /// Load the page before the rows shown, in pages from the end
        /// (`load older`): its rows are prepended.
        case older
    }

    /// Whether the command can change the collection (and so prints a
    /// change report in `--json` mode).
    public var changesCollection: Bool {
        switch self {
        case .put, .patch, .set, .update, .push, .remove, .query(.some), .load, .replay: return true
        case .show, .query(nil), .stats, .sync, .offline, .online, .record, .help, .quit, .nothing: return false
        }
    }

    /// The command's name, as typed.
    public var name: String {
        switch self {
        case .put: return "put"
        case .patch: return "patch"
        case .set: return "set"
        case .update: return "update"
        case .push: return "push"
        case .remove: return "remove"
        case .show: return "show"
        case .query: return "query"
        case .load: return "load"
        case .stats: return "stats"
        case .sync: return "sync"
        case .offline: return "offline"
        case .online: return "online"
        case .record: return "record"
        case .replay: return "replay"
        case .help: return "help"
        case .quit: return "quit"
        case .nothing: return ""
        }
    }
}

/// The one-line usage of each command, in the order `help` lists them.
let commandUsages: [(name: String, usage: String, example: String, summary: String)] = [
    ("put", "put PATH JSON", #"put /k1 {"score": 3, "group": "a"}"#,
     "inject a put, as if the server had sent it (put / {...} replaces everything, put /k null removes k)"),
    ("patch", "patch PATH JSON", #"patch / {"k1/score": 5, "k2": null}"#,
     "inject a patch: each member (a relative path) replaces what is there"),
    ("set", "set [--if-match ETAG] PATH JSON", #"set /k1/score 7"#,
     "write a value: shown at once as write N pending, then confirmed or reverted by the server"),
    ("update", "update PATH JSON", #"update / {"k1/score": 1, "k9": null}"#,
     "write several paths in one request: shown at once, then confirmed or reverted"),
    ("push", "push PATH JSON", #"push / {"score": 4}"#,
     "add a child with a new push id, made here: shown at once, then confirmed or reverted"),
    ("remove", "remove [--if-match ETAG] PATH", "remove /k1",
     "remove a value: shown at once, then confirmed or reverted"),
    ("show", "show", "show", "print the sections and their rows: key, sorted-by value, summary"),
    ("query", "query [OPTIONS]", #"query --order-by score --limit-last 3 --section-by group"#,
     "print the query, or replace it: --order-by, --limit-first, --limit-last, --start-at, --end-at, --equal-to, --section-by"),
    ("load", "load live|all|page N|last N|next|older", "load last 20",
     "load child by child, all at once, by pages of N (from the start, or from the end backwards), or the next page (older: the page before the rows shown, prepended)"),
    ("stats", "stats", "stats", "print children, sections, memory and events per second"),
    ("sync", "sync [SECONDS]", "sync 10",
     "wait until the collection equals the server's answer to the query (fails after SECONDS, 5 by default)"),
    ("offline", "offline", "offline",
     "drop the connection to the server: writes show at once and wait (kept on disk with --cache)"),
    ("online", "online", "online",
     "connect again: the collection resyncs, then the writes that waited are sent, each once, in order"),
    ("record", "record FILE|stop", "record session.jsonl",
     "record what the collection is given and tells, into FILE (kept up to date after each command; replay it with live-repl --replay FILE), or stop"),
    ("replay", "replay [N|all]", "replay 3",
     "in a session started with live-repl --replay FILE: replay the next N recorded changes (1 by default; all: the rest), each compared with the recording"),
    ("help", "help [COMMAND]", "help put", "list the commands, or explain one"),
    ("quit", "quit", "quit", "leave (end of input does too)"),
]

func usage(of name: String) -> String {
    commandUsages.first { $0.name == name }?.usage ?? name
}
