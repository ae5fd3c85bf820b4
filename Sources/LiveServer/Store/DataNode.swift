import LiveModel

/// One location of the database tree, with value semantics.
///
/// A node is either a primitive *leaf* (a boolean, a number or a string),
/// or a set of *children* keyed by ``Key``, or nothing at all: the database
/// stores no `null` and no empty object, so a node with neither a leaf nor
/// children is ``empty`` and has no priority. Any node that is not empty may
/// carry a ``Priority``.
///
/// Children are keyed by ``Key``, so two keys that differ only by Unicode
/// canonical equivalence stay two children, as they do on the server.
///
/// A node read from a data file may still be kept as the file's text (see
/// `DataNode.reading(snapshot:)`) until it is written over; this is not
/// observable, except in the cost of reading it: ``children`` and
/// ``child(_:)`` then walk the text.
package struct DataNode: Sendable {
    /// What a node holds. (A node is 24 bytes: a priority, which is rare,
    /// is boxed with what it is the priority of.)
    enum Content: Sendable {
        /// No value.
        case empty
        /// A boolean, a number or a string.
        case leaf(JSONValue)
        /// At least one child, none of them empty, and for many children
        /// the memo of their digest (see ``DigestMemo``).
        case children([Key: DataNode], DigestMemo?)
        /// The children of a large object of the data file, kept in its
        /// text (see ``TableChildren``): the children written since, and
        /// the table with the count and the memo of their digest.
        case table([Key: DataNode], TableState)
        /// A leaf or children still kept as the text they were read from.
        case packed(PackedJSON)
        /// A leaf or children (never empty, never prioritized again) with
        /// its priority.
        indirect case prioritized(Content, Priority)
    }

    private(set) var content: Content

    /// The content without its priority.
    var value: Content {
        if case .prioritized(let value, _) = content { return value }
        return content
    }

    /// The primitive value (`.bool`, `.number` or `.string`), or `nil` for a
    /// node with children or an empty node.
    package var leaf: JSONValue? {
        switch value {
        case .leaf(let value): value
        case .packed(let packed): packed.leaf
        case .empty, .children, .table, .prioritized: nil
        }
    }

    /// The children; none for a leaf or an empty node. No child is empty.
    /// - Complexity: O(1), or O(size of the node) for a small node still
    ///   kept as the text of the data file the server started from.
    package var children: Children {
        switch value {
        case .children(let children, _): Children(children)
        case .table(let overlay, let state): Children(TableChildren(overlay: overlay, state: state))
        case .packed(let packed): Children(packed.children)
        case .empty, .leaf, .prioritized: .none
        }
    }

    /// How many children the node has.
    /// - Complexity: O(1), or O(size of the node) for a small node still
    ///   kept as text.
    package var childCount: Int { children.count }

    /// The priority; always `nil` for an empty node (setting one there
    /// changes nothing).
    package internal(set) var priority: Priority? {
        get {
            if case .prioritized(_, let priority) = content { return priority }
            return nil
        }
        set {
            let value = self.value
            if case .empty = value { return }
            content = newValue.map { .prioritized(value, $0) } ?? value
        }
    }

    /// No value: what every absent location holds.
    package static let empty = DataNode(content: .empty)

    /// A node of `content` (never itself prioritized) with `priority`.
    init(content: Content, priority: Priority? = nil) {
        self.content = content
        // Most nodes have none: the setter's copies of the content are not made.
        if priority != nil { self.priority = priority }
    }

    /// A leaf holding `value`, which must be a boolean, a number or a string.
    init(primitive value: JSONValue, priority: Priority? = nil) {
        switch value {
        case .bool, .number, .string:
            self.init(content: .leaf(value), priority: priority)
        case .null, .array, .object:
            preconditionFailure("a leaf holds a primitive, not \(value)")
        }
    }

    /// A node of these children, none of them empty; ``empty`` (without the
    /// priority) when there are none.
    init(nonEmptyChildren children: [Key: DataNode], priority: Priority? = nil) {
        self.init(nonEmptyChildren: children, priority: priority, members: nil)
    }

    /// A node of these children, with the members of their digest when
    /// they are known; a node of many children gets a ``DigestMemo``.
    private init(nonEmptyChildren children: [Key: DataNode], priority: Priority?, members: ValueDigest.Members?) {
        if children.isEmpty {
            self.init(content: .empty)
        } else {
            let memo = children.count >= DigestMemo.threshold ? DigestMemo(members) : nil
            self.init(content: .children(children, memo), priority: priority)
        }
    }

    /// A node of the members of `table`, without a priority; ``empty`` when
    /// none is present.
    init(table: MemberTable) {
        self.init(content: table.count == 0 ? .empty
            : .table([:], TableState(table: table, count: table.count, memo: DigestMemo())))
    }

    /// A node of plain text (see ``PackedJSON``), without a priority.
    init(packed: PackedJSON) {
        self.init(content: .packed(packed))
    }

    /// Whether there is no value here.
    package var isEmpty: Bool {
        if case .empty = content { return true }
        return false
    }

    /// Whether this node has at least one child.
    package var hasChildren: Bool {
        switch value {
        case .children, .table: true
        case .packed(let packed): packed.isObject
        case .empty, .leaf, .prioritized: false
        }
    }

    /// The child at `key`, or ``empty`` when absent (always for a leaf).
    /// - Complexity: O(1) on average; O(size of the node) for a node still
    ///   kept as text.
    package func child(_ key: Key) -> DataNode {
        switch value {
        case .children(let children, _): children[key] ?? .empty
        case .table(let overlay, let state): TableChildren(overlay: overlay, state: state)[key] ?? .empty
        case .packed(let packed): packed.member(key).map(DataNode.init(packed:)) ?? .empty
        case .empty, .leaf, .prioritized: .empty
        }
    }

    /// The node at a relative path, or ``empty`` when it is absent or the
    /// path passes through a leaf. The root path is the node itself.
    /// - Complexity: O(depth of the path).
    package func child(at path: DatabasePath) -> DataNode {
        var node = self
        for key in path.keys {
            node = node.child(key)
            if node.isEmpty { break }
        }
        return node
    }

    /// Replaces the node at a relative path with `node`.
    ///
    /// Setting ``empty`` removes the location, and every ancestor left
    /// without children disappears with its priority. Setting below a leaf
    /// replaces the leaf by children (the leaf's priority stays); removing
    /// something below a leaf changes nothing, since it is already absent.
    /// - Complexity: O(depth of the path), plus the cost of copying any
    ///   dictionary on the way that is shared with another node; where a
    ///   node's digest is kept (``DigestMemo``), plus at most
    ///   ``DigestMemo/followBudget`` nodes visited for the digests of the
    ///   child it replaces and of the new one.
    package mutating func set(_ node: DataNode, at path: DatabasePath) {
        set(node, keys: path.keys[...])
    }

    private mutating func set(_ node: DataNode, keys: ArraySlice<Key>) {
        guard let key = keys.first else {
            self = node
            return
        }
        let priority = self.priority
        var children: [Key: DataNode]
        // The digest's members, when known, follow the write.
        var members: ValueDigest.Members?
        switch value {
        case .children(let current, let memo):
            children = current
            members = memo?.known
        case .table(let overlay, let state):
            var children = TableChildren(overlay: overlay, state: state)
            content = .empty  // leaves the overlay uniquely referenced
            members = state.memo.known
            var child = children.take(key)
            Self.set(node, keys: keys.dropFirst(), in: &child, at: key, following: &members)
            children.put(child, at: key)
            // A node left without children is empty, and so has no priority.
            self = children.count == 0 ? .empty
                : DataNode(content: .table(children.overlay, TableState(table: children.table, count: children.count,
                                                                        memo: DigestMemo(members))),
                           priority: priority)
            return
        case .packed(let packed) where packed.isObject:
            children = packed.children
        case .empty, .leaf, .packed, .prioritized:
            // Below a leaf (or nothing), removing finds nothing to remove;
            // setting replaces the leaf by children and keeps its priority.
            if node.isEmpty { return }
            children = [:]
        }
        content = .empty  // leaves `children` uniquely referenced
        var child = children.removeValue(forKey: key) ?? .empty
        Self.set(node, keys: keys.dropFirst(), in: &child, at: key, following: &members)
        if !child.isEmpty { children[key] = child }
        // A node left without children is empty, and so has no priority.
        self = DataNode(nonEmptyChildren: children, priority: priority, members: members)
    }

    /// Sets `node` at `keys` below `child`, the child at `key`, and follows
    /// the digest's `members` from the old child to the new one (or lets
    /// them go when either costs more than ``DigestMemo/followBudget``).
    private static func set(_ node: DataNode, keys: ArraySlice<Key>, in child: inout DataNode, at key: Key,
                            following members: inout ValueDigest.Members?) {
        if members != nil {
            var budget = DigestMemo.followBudget
            if let before = child.cheapDigest(budget: &budget) { members?.remove(key, before) } else { members = nil }
        }
        child.set(node, keys: keys)
        if members != nil {
            var budget = DigestMemo.followBudget
            if let after = child.cheapDigest(budget: &budget) { members?.add(key, after) } else { members = nil }
        }
    }
}

extension DataNode: Equatable {
    /// Whether both hold the same value and priorities, however they are
    /// kept.
    /// - Complexity: O(size of the nodes); O(1) for one unchanged node of
    ///   the data file.
    package static func == (a: DataNode, b: DataNode) -> Bool {
        guard a.priority == b.priority else { return false }
        switch (a.value, b.value) {
        case (.empty, .empty):
            return true
        case (.packed(let x), .packed(let y)) where x.hasSameText(as: y):
            return true
        case (.children(let x, _), .children(let y, _)):
            return x == y
        default:
            let (leafA, leafB) = (a.leaf, b.leaf)
            if leafA != nil || leafB != nil { return leafA == leafB }
            return a.children == b.children
        }
    }
}

extension DataNode: CustomStringConvertible {
    /// The export form (with priorities) as compact JSON, members sorted.
    package var description: String { json(export: true).jsonText(sortedKeys: true) }
}
