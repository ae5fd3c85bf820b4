// FlightEntry.swift — one line of a flight recording: what a collection
// was given (the query, stream messages, local writes and their outcomes)
// and what it told (each change's stages, child events and row counts).
import LiveModel
import LiveSections

/// One entry of a ``FlightRecorder``'s recording, written as one line of
/// JSON in its file (see ``FlightRecording``).
public enum FlightEntry: Sendable, Equatable {
    /// The location, query and sections: the first line of a recording,
    /// and again wherever the query or the sections changed.
    case header(FlightHeader)
    /// What the collection held where the recording's kept entries start.
    case state(FlightState)
    /// A message, as the stream (or ``FirebaseCollection/receive(_:)``) gave it.
    case message(FlightMessage)
    /// A write made through the collection, shown at once.
    case write(FlightWrite)
    /// The server's answer to write `id`: nil when it took it, otherwise why
    /// it refused (the write was reverted).
    case outcome(id: Int, error: String?)
    /// What observers were told of one change.
    case change(FlightChange)
    /// A list view refused a stage of change `change` (what UIKit raises
    /// for), with the reason.
    case rejected(change: Int, reason: String)
    /// The app changed something a recording does not follow (`setQuery`,
    /// `setFilter`, `goOffline`, `goOnline`): a replay stops here.
    case gap(String)
}

/// The location, query and sections a recording was made with.
public struct FlightHeader: Sendable, Equatable {
    /// The location's path in its database (never its URL or a token).
    public var path: DatabasePath
    /// The query: order, bounds and limit.
    public var query: DatabaseQuery
    /// The child path whose values are the sections; nil for one section,
    /// or for sections made by another rule (``hasOtherSections``).
    public var sectionBy: DatabasePath?
    /// Whether the list had sections made by a rule a recording cannot say
    /// (not the value of one child path): a replay then compares child
    /// events and the total of rows, not stages.
    public var hasOtherSections: Bool
    /// How the collection loads.
    public var mode: LoadMode
    /// Whether values other than keys, sort values and section values
    /// were replaced by their shape.
    public var isRedacted: Bool
    /// The version of LiveCollection that made the recording.
    public var library: String

    /// A header for `path`, `query` and `sectionBy`.
    public init(path: DatabasePath, query: DatabaseQuery, sectionBy: DatabasePath? = nil, hasOtherSections: Bool = false,
                mode: LoadMode = .all, isRedacted: Bool = true, library: String = PackageVersion.current) {
        self.path = path
        self.query = query
        self.sectionBy = sectionBy
        self.hasOtherSections = hasOtherSections
        self.mode = mode
        self.isRedacted = isRedacted
        self.library = library
    }
}

/// What a collection held where a recording (or a part of it) starts.
public struct FlightState: Sendable, Equatable {
    /// The children the server sent (the location's value), null for none.
    public var value: JSONValue
    /// Whether that is the whole value (a whole value came), or only the
    /// children known so far.
    public var isComplete: Bool
    /// Whether the data came as the location's whole data (injected), not
    /// as a server's, which it may cut to the query's window.
    public var isWhole: Bool
    /// The local writes not yet answered, oldest first.
    public var pending: [FlightWrite]
    /// The row count of every section then (the first change's `before`).
    public var counts: [Int]

    /// A state holding `value`.
    public init(value: JSONValue = .null, isComplete: Bool = false, isWhole: Bool = false, pending: [FlightWrite] = [],
                counts: [Int] = []) {
        self.value = value
        self.isComplete = isComplete
        self.isWhole = isWhole
        self.pending = pending
        self.counts = counts
    }
}

/// A stream message, as a recording keeps it (progress reports are left out).
public enum FlightMessage: Sendable, Equatable {
    /// The stream connected.
    case connected
    /// A `put` at `path`; `isWhole` for data that is the location's whole
    /// data (injected), `isCached` for children read from a cache.
    case put(path: DatabasePath, data: JSONValue, isWhole: Bool, isCached: Bool)
    /// A `patch` at `path`.
    case patch(path: DatabasePath, data: JSONValue, isWhole: Bool)
    /// The connection was lost; the stream reconnects.
    case disconnected(reason: String)
    /// The credential is being renewed (Firebase's `auth_revoked`).
    case renewingCredential
    /// The stream ended: nil when stopped, otherwise the reason
    /// (`cancel`, a refused or revoked credential, …).
    case ended(FlightFailure?)
}

/// Why a stream ended, as a recording keeps it.
public struct FlightFailure: Sendable, Equatable {
    /// `permissionDenied`, `authRevoked` or `other`: what a replay ends with.
    public var kind: String
    /// The error's description (tokens are never part of it).
    public var reason: String

    init(_ error: DatabaseError) {
        switch error {
        case .permissionDenied: kind = "permissionDenied"
        case .authRevoked: kind = "authRevoked"
        default: kind = "other"
        }
        reason = error.recordedDescription
    }

    init(kind: String, reason: String) {
        self.kind = kind
        self.reason = reason
    }

    /// The error a replay ends its stream with.
    var error: DatabaseError {
        switch kind {
        case "permissionDenied": return .permissionDenied(reason)
        case "authRevoked": return .authRevoked
        default: return .invalidResponse(reason)
        }
    }
}

extension DatabaseError {
    /// The error's description without any URL (a recording names its
    /// location by path alone).
    var recordedDescription: String {
        let text: String
        switch self {
        case .http(let status, let message, _): text = "HTTP \(status)" + (message.isEmpty ? "" : ": \(message)")
        case .invalidURL(_, let reason): text = "invalid URL: \(reason)"
        default: text = description
        }
        // Whatever a transport's message quotes.
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "http://") ?? rest.range(of: "https://") {
            out += rest[..<start.lowerBound] + "<url>"
            rest = rest[start.upperBound...].drop { !$0.isWhitespace && $0 != "\"" && $0 != "'" && $0 != ")" }
        }
        return out + rest
    }
}

/// A local write, as a recording keeps it.
public struct FlightWrite: Sendable, Equatable {
    /// The write's number in the recorded collection.
    public var id: Int
    /// What was written.
    public var write: DatabaseWrite
}

/// What observers were told of one change: a Firebase value event and the
/// child events and list stages before it.
public struct FlightChange: Sendable, Equatable {
    /// The change's number in the recording, from 1.
    public var number: Int
    /// The row count of every section before the change.
    public var before: [Int]
    /// The row counts a list view's data source reported after the
    /// change's last stage (with a ``RecordedListTarget``); they differ
    /// from ``after`` when the app changed the list's data outside a batch.
    public var list: [Int]?
    /// The stages a list view applies, one after another.
    public var stages: [BatchStage]
    /// The row count of every section after the change.
    public var after: [Int]
    /// Firebase's child events, in order.
    public var events: [FlightEvent]

    /// Whether `other` tells the same stages (each stage's operations in
    /// any order), events and counts.
    public func tellsSame(as other: FlightChange) -> Bool {
        before == other.before && after == other.after && events == other.events
            && stages.map(\.normalized) == other.stages.map(\.normalized)
    }
}

/// A child event, as a recording keeps it.
public struct FlightEvent: Sendable, Equatable, CustomStringConvertible {
    /// `child_added`, `child_removed`, `child_moved` or `child_changed`.
    public var kind: ChildEvent.Kind
    /// The child's key.
    public var key: Key
    /// The key before it in the query's order, after the change.
    public var previousKey: Key?

    /// The event as kept of `event` (its snapshot left out).
    package init(_ event: ChildEvent) {
        kind = event.kind
        key = event.key
        previousKey = event.previousKey
    }

    init(kind: ChildEvent.Kind, key: Key, previousKey: Key?) {
        self.kind = kind
        self.key = key
        self.previousKey = previousKey
    }

    /// The event as `child_added k (after p)`.
    public var description: String {
        "\(kind.rawValue) \(key.string)" + (previousKey.map { " (after \($0.string))" } ?? "")
    }
}

extension BatchStage {
    /// The stage with each list sorted: the same stage, compared as sets.
    var normalized: BatchStage {
        BatchStage(deletedSections: deletedSections.sorted(), insertedSections: insertedSections.sorted(),
                   reloadedSections: reloadedSections.sorted(),
                   movedSections: movedSections.sorted { ($0.from, $0.to) < ($1.from, $1.to) },
                   deletedRows: deletedRows.sorted(), insertedRows: insertedRows.sorted(),
                   reloadedRows: reloadedRows.sorted(), movedRows: movedRows.sorted { $0.from < $1.from })
    }
}
