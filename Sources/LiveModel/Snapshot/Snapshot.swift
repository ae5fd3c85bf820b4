/// An immutable view of the data at one location, like Firebase's
/// `DataSnapshot`: a key, a value, a priority and children.
///
/// A snapshot is backed by a parsed document that keeps the JSON text it
/// was given; reading is lazy and copies no more than is read. ``key``,
/// ``priority``, ``exists`` and ``childrenCount`` cost O(1) for a child of a
/// parsed document; ``value`` parses just this snapshot's part of the text;
/// ``children`` of a parsed snapshot come without parsing their values.
/// Snapshots are cheap to copy and safe to share between tasks.
///
/// The value is normalised as Firebase presents it: `null` members and
/// empty containers are absent, arrays are objects keyed `"0"`, `"1"`, …
/// without their `null` elements, and export-format `".priority"` /
/// `".value"` members become ``priority`` and the value.
public struct Snapshot: Sendable {
    enum Location: Sendable {
        /// A whole document.
        case root(SnapshotDocument)
        /// Child `index` of a document.
        case child(SnapshotDocument, Int)
        /// Nothing here.
        case absent
    }

    let location: Location

    /// The last key of this snapshot's location; `nil` for the database
    /// root (and for a document parsed without a key).
    public let key: Key?

    init(location: Location, key: Key?) {
        self.location = location
        self.key = key
    }

    /// A snapshot with no data at `key`.
    public static func absent(key: Key?) -> Snapshot {
        Snapshot(location: .absent, key: key)
    }

    /// Whether there is data here (Firebase never stores `null` or empty
    /// containers, so a child that exists has a value that is not null).
    /// - Complexity: O(1).
    public var exists: Bool {
        switch location {
        case .root(let document): return !document.isNull
        case .child: return true
        case .absent: return false
        }
    }

    /// The data here, normalised (see the type's documentation); ``JSONValue/null``
    /// when nothing exists.
    /// - Complexity: O(size of this snapshot's JSON text): it is parsed now,
    ///   each time it is read.
    public var value: JSONValue {
        switch location {
        case .root(let document): return document.rootValue
        case .child(let document, let index): return document.value(at: index)
        case .absent: return .null
        }
    }

    /// The priority of this location, or `nil` if it has none.
    /// - Complexity: O(1).
    public var priority: Priority? {
        switch location {
        case .root(let document): return document.rootPriority
        case .child(let document, let index): return document.priority(at: index)
        case .absent: return nil
        }
    }

    /// This child's sort value under the order the document was parsed with
    /// (``SortValue/null`` for a whole document or an absent snapshot).
    /// Children order by sort value, then by key.
    /// - Complexity: O(1).
    public var sortValue: SortValue {
        guard case .child(let document, let index) = location else { return .null }
        return document.sortValue(at: index)
    }

    /// The children, in the order they appear in the JSON text (not sorted),
    /// each without its value parsed.
    /// - Complexity: O(1) for a parsed document; for one of its children,
    ///   O(size of the child) to index the child's text the first time
    ///   (keep the collection rather than asking again).
    public var children: Children {
        Children(document: childDocument)
    }

    /// The children in query order: by ``sortValue`` under the order the
    /// snapshot was parsed with, then by key (Firebase's order), as
    /// `DataSnapshot.children` iterates them. Values are not parsed.
    /// - Complexity: O(n log n) comparisons for n children: made by the
    ///   core's index in bulk for a parsed document.
    public func orderedChildren() -> [Snapshot] {
        let all = Array(children)
        if all.count > 1, case .root(let document) = location {
            let index = CoreIndex()
            if index.build(fromChildrenOf: self, order: document.order), index.count == all.count {
                var ordered: [Snapshot] = []
                ordered.reserveCapacity(all.count)
                index.forEachID { id in
                    ordered.append(all[Int(id)])
                    return true
                }
                return ordered
            }
        }
        return all.sorted { a, b in
            let byValue = SortValue.compare(a.sortValue, b.sortValue)
            if byValue != 0 { return byValue < 0 }
            guard let ka = a.key, let kb = b.key else { return false }
            return ka < kb
        }
    }

    /// Number of children (0 for a primitive or absent value).
    /// - Complexity: as ``children``.
    public var childrenCount: Int { children.count }

    /// Whether there is at least one child.
    public var hasChildren: Bool { !children.isEmpty }

    /// The snapshot at `key` below this one; an absent snapshot (with that
    /// key) when there is no such child.
    /// - Complexity: O(number of children) (a scan), plus the cost of
    ///   ``children``.
    public func child(_ key: Key) -> Snapshot {
        guard let document = childDocument, let index = document.index(of: key) else {
            return .absent(key: key)
        }
        return Snapshot(location: .child(document, index), key: key)
    }

    /// The snapshot at a relative path below this one (``DatabasePath/root`` is this
    /// snapshot); absent when any segment is missing.
    /// - Complexity: ``child(_:)`` once per segment.
    public func child(at path: DatabasePath) -> Snapshot {
        var current = self
        for key in path.keys {
            current = current.child(key)
            guard current.exists else { return .absent(key: path.lastKey) }
        }
        return current
    }

    /// Whether there is data at a relative path below this one.
    public func hasChild(at path: DatabasePath) -> Bool { child(at: path).exists }

    /// Decodes the value as `type` (see ``JSONValueDecoder`` for the rules).
    /// - Throws: `DecodingError` when the value does not fit `type`.
    /// - Complexity: O(size of the value).
    public func decode<T: Decodable>(_ type: T.Type = T.self, using decoder: JSONValueDecoder = .init()) throws -> T {
        try decoder.decode(type, from: value)
    }

    /// The document whose children are this snapshot's children, if any.
    private var childDocument: SnapshotDocument? {
        switch location {
        case .root(let document):
            return document.hasChildren ? document : nil
        case .child(let document, let index):
            guard document.mayHaveChildren(at: index), let sub = document.subdocument(at: index),
                  sub.hasChildren else { return nil }
            return sub
        case .absent:
            return nil
        }
    }
}

extension Snapshot: CustomStringConvertible {
    /// `Snapshot(key, value)`, for debugging; reads the whole value.
    public var description: String {
        "Snapshot(\(key.map { $0.string.debugDescription } ?? "root"), \(value.jsonText(sortedKeys: true)))"
    }
}
