// DataNode+Children.swift — a node's children, however they are kept.

import LiveModel

/// What a node of ``TableChildren`` keeps beside its overlay: its table,
/// its count of children and the memo of their digest. A write makes a new
/// one, so the copies of a node share it.
final class TableState: Sendable {
    let table: MemberTable
    /// How many children are present.
    let count: Int
    let memo: DigestMemo

    init(table: MemberTable, count: Int, memo: DigestMemo) {
        self.table = table
        self.count = count
        self.memo = memo
    }
}

/// The children of a large object read from a data file: its
/// ``MemberTable``, and the children written below it since, which take
/// the place of the table's (``DataNode/empty`` where a child was removed).
struct TableChildren: Sendable {
    let table: MemberTable
    /// The children written since the table was read: every key here
    /// replaces the table's member; an empty node removes it.
    private(set) var overlay: [Key: DataNode]
    /// How many children are present.
    private(set) var count: Int

    init(overlay: [Key: DataNode], state: TableState) {
        table = state.table
        self.overlay = overlay
        count = state.count
    }

    /// The child at `key`, or `nil`.
    /// - Complexity: O(1) on average.
    subscript(key: Key) -> DataNode? {
        if let written = overlay[key] { return written.isEmpty ? nil : written }
        return table.member(key)
    }

    /// Takes the child at `key` out (``DataNode/empty`` when absent), so
    /// that it can be changed without a copy; ``put(_:at:)`` puts it back.
    /// - Complexity: O(1) on average.
    mutating func take(_ key: Key) -> DataNode {
        let child = overlay.removeValue(forKey: key) ?? table.member(key) ?? .empty
        if !child.isEmpty { count -= 1 }
        return child
    }

    /// Puts `child` at `key`, taken out by ``take(_:)`` (an empty node
    /// removes it).
    /// - Complexity: O(1) on average.
    mutating func put(_ child: DataNode, at key: Key) {
        if !child.isEmpty {
            overlay[key] = child
            count += 1
        } else if table.member(key) != nil {
            overlay[key] = .empty
        }
    }

    /// Whether both are the same table with the same writes.
    func isIdentical(to other: TableChildren) -> Bool {
        table === other.table && count == other.count && overlay == other.overlay
    }
}

extension DataNode {
    /// A node's children, as a sequence of keys and nodes in no particular
    /// order, without copying them into a dictionary.
    package struct Children: Sequence, Sendable {
        fileprivate enum Storage: Sendable {
            case dictionary([Key: DataNode])
            case table(TableChildren)
        }

        fileprivate let storage: Storage

        fileprivate init(_ storage: Storage) {
            self.storage = storage
        }

        /// No children.
        static let none = Children(.dictionary([:]))

        /// How many children there are.
        /// - Complexity: O(1).
        package var count: Int {
            switch storage {
            case .dictionary(let children): children.count
            case .table(let table): table.count
            }
        }

        package var isEmpty: Bool { count == 0 }

        /// The child at `key`, or `nil`.
        /// - Complexity: O(1) on average.
        package subscript(key: Key) -> DataNode? {
            switch storage {
            case .dictionary(let children): children[key]
            case .table(let table): table[key]
            }
        }

        /// The keys, in the order of iteration.
        package var keys: LazyMapSequence<Children, Key> { lazy.map(\.key) }

        /// The nodes, in the order of iteration.
        package var values: LazyMapSequence<Children, DataNode> { lazy.map(\.value) }

        /// The children as a dictionary.
        /// - Complexity: O(1) for children kept in one; else O(n).
        package var dictionary: [Key: DataNode] {
            if case .dictionary(let children) = storage { return children }
            var children: [Key: DataNode] = [:]
            children.reserveCapacity(count)
            for (key, child) in self { children[key] = child }
            return children
        }

        package func makeIterator() -> Iterator {
            switch storage {
            case .dictionary(let children): Iterator(.dictionary(children.makeIterator()))
            case .table(let table): Iterator(.table(table, entry: 0, written: nil))
            }
        }

        /// Iterates the children: a table's members not written over, then
        /// the written ones.
        package struct Iterator: IteratorProtocol, Sendable {
            fileprivate enum State: Sendable {
                case dictionary(Dictionary<Key, DataNode>.Iterator)
                case table(TableChildren, entry: Int, written: Dictionary<Key, DataNode>.Iterator?)
            }

            fileprivate var state: State

            fileprivate init(_ state: State) {
                self.state = state
            }

            package mutating func next() -> (key: Key, value: DataNode)? {
                switch state {
                case .dictionary(var iterator):
                    let next = iterator.next()
                    state = .dictionary(iterator)
                    return next
                case .table(let children, var entry, var written):
                    defer { state = .table(children, entry: entry, written: written) }
                    let table = children.table
                    while entry < table.entryCount {
                        let i = entry
                        entry += 1
                        guard let node = table.node(at: i) else { continue }
                        let key = table.key(at: i)
                        if children.overlay.isEmpty || children.overlay[key] == nil { return (key, node) }
                    }
                    var rest = written ?? children.overlay.makeIterator()
                    defer { written = rest }
                    while let (key, node) = rest.next() {
                        if !node.isEmpty { return (key, node) }
                    }
                    return nil
                }
            }
        }
    }
}

extension DataNode.Children {
    init(_ children: [Key: DataNode]) {
        self.init(.dictionary(children))
    }

    init(_ children: TableChildren) {
        self.init(.table(children))
    }
}

extension DataNode.Children: Equatable {
    /// Whether both hold the same keys with equal nodes.
    /// - Complexity: O(n).
    package static func == (a: DataNode.Children, b: DataNode.Children) -> Bool {
        switch (a.storage, b.storage) {
        case (.dictionary(let x), .dictionary(let y)):
            return x == y
        case (.table(let x), .table(let y)) where x.isIdentical(to: y):
            return true
        default:
            guard a.count == b.count else { return false }
            return a.allSatisfy { b[$0.key] == $0.value }
        }
    }
}
