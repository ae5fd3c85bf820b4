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
public struct DataNode: Sendable, Equatable {
    /// The primitive value (`.bool`, `.number` or `.string`), or `nil` for a
    /// node with children or an empty node.
    public private(set) var leaf: JSONValue?

    /// The children; empty for a leaf or an empty node. No child is empty.
    public private(set) var children: [Key: DataNode]

    /// The priority; always `nil` for an empty node.
    public internal(set) var priority: Priority?

    /// No value: what every absent location holds.
    public static let empty = DataNode(leaf: nil, children: [:], priority: nil)

    private init(leaf: JSONValue?, children: [Key: DataNode], priority: Priority?) {
        self.leaf = leaf
        self.children = children
        self.priority = priority
    }

    /// A leaf holding `value`, which must be a boolean, a number or a string.
    init(primitive value: JSONValue, priority: Priority? = nil) {
        switch value {
        case .bool, .number, .string:
            self.init(leaf: value, children: [:], priority: priority)
        case .null, .array, .object:
            preconditionFailure("a leaf holds a primitive, not \(value)")
        }
    }

    /// A node of these children, none of them empty; ``empty`` (without the
    /// priority) when there are none.
    init(nonEmptyChildren children: [Key: DataNode], priority: Priority? = nil) {
        self.init(leaf: nil, children: children, priority: children.isEmpty ? nil : priority)
    }

    /// Whether there is no value here.
    public var isEmpty: Bool { leaf == nil && children.isEmpty }

    /// Whether this node has at least one child.
    public var hasChildren: Bool { !children.isEmpty }

    /// The child at `key`, or ``empty`` when absent (always for a leaf).
    /// - Complexity: O(1) on average.
    public func child(_ key: Key) -> DataNode {
        children[key] ?? .empty
    }

    /// The node at a relative path, or ``empty`` when it is absent or the
    /// path passes through a leaf. The root path is the node itself.
    /// - Complexity: O(depth of the path).
    public func child(at path: Path) -> DataNode {
        var node = self
        for key in path.keys {
            guard let next = node.children[key] else { return .empty }
            node = next
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
    ///   dictionary on the way that is shared with another node.
    public mutating func set(_ node: DataNode, at path: Path) {
        set(node, keys: path.keys[...])
    }

    private mutating func set(_ node: DataNode, keys: ArraySlice<Key>) {
        guard let key = keys.first else {
            self = node
            return
        }
        if leaf != nil {
            if node.isEmpty { return }
            leaf = nil
        }
        var child = children.removeValue(forKey: key) ?? .empty
        child.set(node, keys: keys.dropFirst())
        if !child.isEmpty {
            children[key] = child
        } else if children.isEmpty {
            priority = nil
        }
    }
}

extension DataNode: CustomStringConvertible {
    /// The export form (with priorities) as compact JSON, members sorted.
    public var description: String { json(export: true).jsonText(sortedKeys: true) }
}
