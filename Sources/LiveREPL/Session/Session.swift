// Session.swift — one REPL session: the Firebase collection, its sections,
// and the commands that inject events, write, query and show.

import Foundation
import LiveCollection
import LiveFirebase
import LiveModel
import LiveSections

/// Where a session's data comes from.
public enum SessionSource: Sendable {
    /// A database (a real Firebase database, a `live-server`, or the
    /// embedded server), with an optional ID token.
    case database(url: String, auth: String?)
    /// No server: only injected events feed the collection.
    case offline
}

/// What a command prints.
public enum CommandOutput: Sendable, Equatable {
    /// What the command changed (maybe nothing).
    case change(ChangeReport)
    /// What the changes a `replay` command replayed told, and the replay's
    /// verdict so far.
    case replayed(ChangeReport, verdict: [String])
    /// The sections and rows (`show`).
    case sections([ShownSection])
    /// Lines of text (`help`, `query` without options).
    case text([String])
    /// What `stats` prints: its lines, and the initial load's phases once
    /// it is in.
    case stats([String], InitialLoad?)
    /// The collection equals the server's answer to the query (`sync`),
    /// with this many children.
    case synced(children: Int)
    /// Nothing to print.
    case nothing
    /// The session ends.
    case quit
}

/// A section as `show` prints it.
public struct ShownSection: Sendable, Equatable {
    /// The section's value (null for the single section without `--section-by`).
    public let value: JSONValue
    /// The section's rows, in order.
    public let rows: [ShownRow]
}

/// A row as `show` prints it.
public struct ShownRow: Sendable, Equatable {
    /// The child's key.
    public let key: Key
    /// The value the query orders the child by, as JSON text (an object
    /// as `{…}`).
    public let sortValue: String
    /// The child's value as JSON text, cut to one line of at most 60
    /// characters.
    public let summary: String
}

/// A REPL session. Every command either succeeds or throws and changes
/// nothing.
@MainActor
public final class Session {
    let source: SessionSource
    let reference: DatabaseReference
    let client: DatabaseClient?
    let opener: StreamOpener
    /// Where collections keep their children between runs, if anywhere.
    let cache: CollectionCache?
    /// Everything injected offline, as the location's value: a new query or
    /// load mode starts from it.
    var offlineValue: JSONValue = .null
    var options: QueryOptions
    var mode: LoadMode
    var firebase: FirebaseCollection<REPLDataSource>
    var view: SessionView
    let recorder = ChangeRecorder()
    let started = ContinuousClock.now
    /// What the initial load cost (nil before it is in).
    public internal(set) var initialLoad: InitialLoad?
    /// Called on the main actor while the initial load arrives from a
    /// server (see `LoadProgress`): a front end on a terminal shows it.
    public var onProgress: (@MainActor (LoadProgress) -> Void)?
    /// How long a write waits for its change to reach the collection.
    public var writeTimeout: Double = 5
    /// The recording being kept, and the file it is written to (`record`).
    var flight: (recorder: FlightRecorder, url: URL?)?
    /// The replay feeding this session, when it was made by one (the
    /// `replay` command steps it).
    weak var replaying: FlightReplay?
    /// Sends the writes of every collection the session makes.
    let writer: WriteSender

    /// A session on `path` of `source`, with the query and sections of
    /// `options`, loading in `mode`, keeping its children in `cache` (with
    /// a server) between runs.
    public convenience init(source: SessionSource, path: String, options: QueryOptions, mode: LoadMode = .all,
                            opener: StreamOpener = .database(), cache: CollectionCache? = nil) throws(REPLError) {
        try self.init(source: source, path: path, options: options, query: nil, mode: mode, opener: opener, cache: cache,
                      writer: .database())
    }

    /// A session as above, with `query` instead of the options' own when
    /// given (a replay's, which options cannot always spell), and `writer`
    /// for the collection's writes.
    init(source: SessionSource, path: String, options: QueryOptions, query: DatabaseQuery?, mode: LoadMode,
         opener: StreamOpener, cache: CollectionCache?, writer: WriteSender) throws(REPLError) {
        self.source = source
        self.cache = cache
        self.writer = writer
        self.options = options
        self.mode = mode
        switch source {
        case .database(let url, let auth):
            do {
                reference = try DatabaseReference(url: url, path: path,
                                                  credentials: auth.map { .fixed(.idToken($0)) } ?? .none)
            } catch { throw .database(error) }
            client = DatabaseClient(reference)
            self.opener = opener
        case .offline:
            do { reference = try DatabaseReference(url: "http://offline.invalid", path: path) } catch {
                throw .database(error)
            }
            client = nil
            self.opener = .offline
        }
        firebase = try Self.collection(reference, options, mode, opener: self.opener,
                                       cache: client == nil ? nil : cache, query: query, writer: writer)
        view = try SessionView(firebase.collection, sectionBy: options.sectionPath())
        recorder.attach(to: firebase, view: view)
    }

    static func collection(_ reference: DatabaseReference, _ options: QueryOptions, _ mode: LoadMode,
                           opener: StreamOpener, cache: CollectionCache?, query: DatabaseQuery? = nil,
                           writer: WriteSender = .database()) throws(REPLError)
        -> FirebaseCollection<REPLDataSource> {
        do {
            let collection = try FirebaseCollection(reference: reference, query: try query ?? options.query(), mode: mode,
                                                    dataSource: REPLDataSource(sectionBy: try options.sectionPath()),
                                                    opener: opener, cache: cache, writer: writer)
            collection.setFilter(try options.filter())
            return collection
        } catch let error as REPLError {
            throw error
        } catch let error as DatabaseError {
            throw .database(error)
        } catch {
            throw .internalState("\(error)")
        }
    }

    /// Whether the session has a server to write to.
    public var isOffline: Bool { client == nil }

    /// Connects and waits for the first load (offline: loads the empty
    /// location). What the first load did is not reported; what it cost is
    /// kept in ``initialLoad``.
    ///
    /// The children load into the sorted collection alone; the sections are
    /// then built once from them (measured as the load's sections phase).
    /// - Throws: ``REPLError/database(_:)`` when the first connection fails
    ///   (a session does not wait through reconnects before it has data).
    public func start() async throws(REPLError) {
        recorder.detach()
        // The sections are made with the load: a first load's away from the
        // main actor, by the collection's fill work (LoadPhases.observers).
        view = SessionView(firebase.collection, sectionBy: view.sectionPath)
        let watch = firebase.observeProgress { [unowned self] progress in onProgress?(progress) }
        defer {
            watch.cancel()
            recorder.attach(to: firebase, view: view)
            // Each child loaded was a child event, unrecorded.
            recorder.countUnrecorded(firebase.collection.count)
            initialLoad = firebase.firstLoad.map(InitialLoad.init(phases:))
            _ = recorder.take()
        }
        if isOffline {
            try await inject(.put, .root, json: "null")
        } else if firebase.cache != nil {
            try await Self.startCacheFirst(firebase)
        } else {
            try await Self.startFailingFast(firebase)
        }
    }

    /// Starts `target` and returns once it shows something: its cached
    /// children (the server's value then comes as a change, like any other
    /// while the session is idle), or the server's value when nothing was
    /// cached.
    static func startCacheFirst(_ target: FirebaseCollection<REPLDataSource>) async throws(REPLError) {
        let first = FirstOutcome()
        let watch = target.observeStatus { status in if status == .cached { first.finish(nil) } }
        defer { watch.cancel() }
        Task { @MainActor in
            do throws(REPLError) {
                try await Self.startFailingFast(target)
                first.finish(nil)
            } catch {
                first.finish(error)
            }
        }
        if let error = await first.value() { throw error }
    }

    /// Starts `collection`; fails as soon as it loses its first connection
    /// before loading, with the reason.
    static func startFailingFast(_ collection: FirebaseCollection<REPLDataSource>) async throws(REPLError) {
        var lost: DatabaseError?
        let watch = collection.observeStatus { status in
            if case .reconnecting(let error) = status, lost == nil {
                lost = error
                collection.stop()
            }
        }
        defer { watch.cancel() }
        do { try await collection.start() } catch { throw .database(lost ?? error) }
    }

    /// Stops listening.
    public func stop() { firebase.stop() }

    /// Saves what the server confirmed to the session's cache, if it has
    /// one, and returns once it is on disk.
    /// - Throws: ``REPLError/database(_:)`` with `DatabaseError.cache`
    ///   when it cannot be written.
    public func saveCache() async throws(REPLError) {
        do { try await firebase.saveCache() } catch { throw .database(error) }
    }

    /// Runs one command.
    /// - Throws: ``REPLError``; the collection is unchanged then (a write
    ///   whose change is not seen in time has still been written).
    /// - Complexity: an injected event costs what the collection's update
    ///   costs; a write adds its request and one read of the query's
    ///   children; `show`, a new query and a new load mode are O(n) in the
    ///   children (a new query also loads them again).
    public func run(_ command: Command) async throws(REPLError) -> CommandOutput {
        switch command {
        case .nothing: return .nothing
        case .quit: return .quit
        case .help(let topic): return .text(Help.lines(topic))
        case .show: return .sections(view.shown())
        case .stats: return .stats(statsLines(), initialLoad)
        case .sync(let seconds):
            try requireOnline("sync")
            return .synced(children: try await waitUntilCurrent(command: "sync", seconds: seconds ?? writeTimeout))
        case .query(nil): return .text(queryLines())
        case .offline, .online: return .text(try connect(online: command == .online))
        case .record(let file): return .text(try record(file))
        default: break
        }
        // A change: what the stream brought since the last command is not
        // this command's doing.
        _ = recorder.take()
        // A new query, sections or load mode is a new part of a recording:
        // what the replacement does is not recorded.
        let replaces: Bool
        switch command {
        case .query(let options?):
            if flight != nil, !options.conditions.isEmpty {
                throw .usage(command: "query", problem: "a recording cannot keep --where conditions; record stop first",
                             usage: usage(of: "query"))
            }
            replaces = true
        // The next page is a new part the collection itself records.
        case .load(.next), .load(.older): replaces = false
        case .load: replaces = true
        default: replaces = false
        }
        if replaces { flight?.recorder.stop() }
        defer { if replaces { recordAgain() } }
        var prepended: Int?
        var verdict: [String]?
        switch command {
        case .put(let path, _, let json): try await inject(.put, path, json: json)
        case .patch(let path, _, let json): try await inject(.patch, path, json: json)
        case .set, .update, .push, .remove: try write(command)
        case .query(let options?):
            try requireOnline("query")
            try await replace(options: options, mode: mode)
        case .load(let request):
            try requireOnline("load")
            prepended = try await load(request)
        case .replay(let count): verdict = try await replayNext(count)
        default: break
        }
        var report = recorder.take()
        report.prepended = prepended
        if let verdict { return .replayed(report, verdict: verdict) }
        return .change(report)
    }

    /// The sections and their rows as they are now (what `show` prints).
    /// - Complexity: O(n) for n rows.
    public func shownSections() -> [ShownSection] { view.shown() }

    /// Every change the stream brought since the last command, if any
    /// (reported before the next command's output).
    public func takeUnsolicited() -> ChangeReport { recorder.take() }

    /// Called on the main actor each time the stream brings a change (an
    /// event or a stage is gathered): a front end that waits for input
    /// schedules ``takeUnsolicited()`` from it to show changes as they come.
    /// Changes a command makes call it too; take them with the command.
    public var onChange: (@MainActor () -> Void)? {
        get { recorder.onRecord }
        set { recorder.onRecord = newValue }
    }

    private func inject(_ kind: StreamPayload.Kind, _ path: DatabasePath, json: String) async throws(REPLError) {
        do { try await firebase.receive(kind, at: path, json: json) } catch { throw .database(error) }
        guard isOffline, let value = try? JSONValue(parsing: json) else { return }
        if kind == .put {
            offlineValue = offlineValue.replacing(path.keys[...], with: value)
        } else if case .object(let members) = value {
            for (name, member) in members {
                guard let relative = try? DatabasePath(name), let full = try? path.appending(relative) else { continue }
                offlineValue = offlineValue.replacing(full.keys[...], with: member)
            }
        }
    }
}
