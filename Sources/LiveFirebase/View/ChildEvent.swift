// ChildEvent.swift — Firebase-style child events.
import LiveModel

/// A child event as Firebase SDKs raise them: `child_added`,
/// `child_removed`, `child_moved`, `child_changed`.
///
/// For one update the events come in Firebase's order: every removal, then
/// every addition, then every move, then every change, each group in query
/// order (removals in the order before the update, the others in the order
/// after it). ``previousKey`` is the key of the child before this one in
/// the order *after* the update (`nil` for the first child, and for
/// removals). A move is raised whenever the ordered-by value changes, even
/// if the position does not.
public struct ChildEvent: Sendable, Hashable, CustomStringConvertible {
    /// The kind of event, named as Firebase names it.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A child entered the query's result (`child_added`).
        case added = "child_added"
        /// A child left the query's result (`child_removed`).
        case removed = "child_removed"
        /// A child's ordered-by value changed (`child_moved`).
        case moved = "child_moved"
        /// A child's data changed (`child_changed`).
        case changed = "child_changed"
    }

    /// What happened to the child.
    public let kind: Kind
    /// The child's key.
    public let key: Key
    /// The child's data: the new data, or the last data for a removal.
    public let snapshot: Snapshot
    /// The key of the preceding child in query order after the update.
    public let previousKey: Key?

    /// An event of `kind` for the child `key`, with its data and the key
    /// of the child before it.
    public init(kind: Kind, key: Key, snapshot: Snapshot, previousKey: Key?) {
        self.kind = kind
        self.key = key
        self.snapshot = snapshot
        self.previousKey = previousKey
    }

    /// Whether two events are the same: same kind, key and previous key,
    /// and data with equal values and priorities.
    public static func == (lhs: ChildEvent, rhs: ChildEvent) -> Bool {
        lhs.kind == rhs.kind && lhs.key == rhs.key && lhs.previousKey == rhs.previousKey
            && lhs.snapshot.value == rhs.snapshot.value && lhs.snapshot.priority == rhs.snapshot.priority
    }

    /// Hashes the kind, the key and the previous key.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(key)
        hasher.combine(previousKey)
    }

    /// The event as `child_added key prev=previous value`, the value as
    /// JSON with sorted member names.
    public var description: String {
        "\(kind.rawValue) \(key.string) prev=\(previousKey?.string ?? "null") \(snapshot.value.jsonText(sortedKeys: true))"
    }
}
