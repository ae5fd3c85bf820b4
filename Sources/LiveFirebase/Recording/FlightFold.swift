// FlightFold.swift — a put or a patch a recording keeps: the payload as
// the collection was given it (written out only when the recording is),
// and the children it wrote to once applied, for the state the recording
// starts from when it is let go.
import LiveModel

/// A put or a patch a recorder keeps, and what dropping it changes in the
/// state a recording starts from: the children it wrote to, as the
/// collection held them once it was applied.
struct FlightFold {
    enum Children {
        /// A put at the location: every child.
        case all([Key: Snapshot])
        /// The one child written to (absent if it went).
        case one(Key, Snapshot)
        /// The children written to (absent for one that went).
        case some([(Key, Snapshot)])
    }

    /// The message as received (shared, not copied).
    let payload: StreamPayload
    /// Whether its data is the location's whole data (injected).
    let isWhole: Bool
    /// Whether its children were read from a cache.
    let isCached: Bool
    /// The children after it; nil until the collection has applied it.
    var after: Children?
    /// Reads them from the collection that was given it.
    let source: FlightSource

    init(_ payload: StreamPayload, isWhole: Bool, isCached: Bool, source: FlightSource) {
        self.payload = payload
        self.isWhole = isWhole
        self.isCached = isCached
        self.source = source
    }

    /// Whether it is a put at the location (its whole value came).
    var completes: Bool { payload.kind == .put && payload.path.isRoot }

    /// The children it wrote to, as its collection holds them now.
    /// - Complexity: O(children written), or O(1) for every child (shared).
    func read() -> Children {
        if let first = payload.path.keys.first { return .one(first, source.child(first)) }
        guard payload.kind == .patch else { return .all(source.children()) }
        var children: [(Key, Snapshot)] = []
        for update in payload.updates {
            guard let key = update.path.keys.first, !children.contains(where: { $0.0 == key }) else { continue }
            children.append((key, source.child(key)))
        }
        return .some(children)
    }

    /// About the bytes of its line: its data's text as received, and its
    /// path (redaction may make the data longer or shorter; a recording's
    /// bound is kept exactly when it is written).
    var estimatedSize: Int { payload.path.keys.reduce(64) { $0 + $1.utf8Count + 1 } + payload.data.textCount }

    /// Writes its line's members after its kind, redacted unless `redaction` is nil.
    /// - Complexity: O(size of its text).
    func write(into line: inout FlightLine, _ redaction: FlightRedaction?) {
        line.name("path")
        line.path(payload.path)
        line.name("data")
        if payload.kind == .put {
            line.data(payload.data, at: payload.path, redaction)
        } else {
            line.list(payload.updates, open: "{", close: "}") { line, update in
                line.string(update.path.relativeText)
                line.append(":")
                line.data(update.value, at: try? payload.path.appending(update.path), redaction)
            }
        }
        line.name("whole")
        line.bool(isWhole)
        if payload.kind == .put {
            line.name("cached")
            line.bool(isCached)
        }
    }
}

/// How a recorder reads the children of the collection it records.
final class FlightSource {
    /// The server's value of one child, as the collection holds it (absent
    /// when it holds none).
    let child: (Key) -> Snapshot
    /// The server's value of every child the collection holds.
    let children: () -> [Key: Snapshot]

    init(child: @escaping (Key) -> Snapshot, children: @escaping () -> [Key: Snapshot]) {
        self.child = child
        self.children = children
    }
}
