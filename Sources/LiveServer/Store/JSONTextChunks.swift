// JSONTextChunks.swift — the JSON text of a node or of a query's window,
// written a chunk at a time as a connection takes it.

import LiveModel

/// The text ``DataNode/write(to:export:)`` writes (or a query window's, as
/// ``DataNode/writeMembers(_:to:export:priority:)`` writes it), produced a
/// chunk at a time, with optional bytes before and after it.
///
/// A read of a large location is sent as it is written, so the server
/// never holds its whole text: the writer keeps a stack of the objects and
/// arrays it is inside, and stops at the first boundary between members
/// past the size asked for. A member that is written in one piece (a leaf,
/// or a small value kept as text) may pass that size.
///
/// The nodes are values: a write to the database after the chunks were
/// made does not change the text.
struct JSONTextChunks: Sendable {
    private enum Members: Sendable {
        case children(DataNode.Children.Iterator)
        case list([(key: Key, node: DataNode)], Int)
    }

    private enum Frame: Sendable {
        /// An object: its members from a position, then its priority.
        case members(Members, priority: Priority?, first: Bool)
        /// An array's elements from `next`.
        case elements([DataNode?], next: Int)
    }

    private let export: Bool
    /// The objects and arrays being written, innermost last.
    private var stack: [Frame] = []
    /// Bytes to send before anything else.
    private var head: [UInt8]
    private let suffix: [UInt8]
    private(set) var isFinished = false

    /// The text of `node`.
    /// - Complexity: O(number of its children), for the array rule.
    init(_ node: DataNode, export: Bool, prefix: [UInt8] = [], suffix: [UInt8] = []) {
        self.export = export
        self.head = prefix
        self.suffix = suffix
        open(node)
    }

    /// The text of `members` as one object (`null` without members).
    init(members: [(key: Key, node: DataNode)], export: Bool, prefix: [UInt8] = [], suffix: [UInt8] = []) {
        self.export = export
        self.head = prefix
        self.suffix = suffix
        openMembers(.list(members, 0), isEmpty: members.isEmpty)
    }

    /// The text of `members` as one object (`null` without members).
    init(members: DataNode.Children, export: Bool, prefix: [UInt8] = [], suffix: [UInt8] = []) {
        self.export = export
        self.head = prefix
        self.suffix = suffix
        openMembers(.children(members.makeIterator()), isEmpty: members.isEmpty)
    }

    /// Puts `bytes` before what is still to come.
    mutating func prepend(_ bytes: [UInt8]) {
        head.insert(contentsOf: bytes, at: 0)
    }

    /// Appends the next part of the text to `out`, stopping at the first
    /// boundary between members once `out` holds `size` bytes or more.
    /// - Returns: whether text remains after this chunk.
    @discardableResult
    mutating func next(into out: inout [UInt8], size: Int) -> Bool {
        if !head.isEmpty {
            out.append(contentsOf: head)
            head = []
        }
        while out.count < size, !stack.isEmpty {
            step(&out)
        }
        if stack.isEmpty && !isFinished {
            out.append(contentsOf: suffix)
            isFinished = true
        }
        return !isFinished
    }

    /// The whole remaining text's length, by writing it and letting it go.
    /// - Complexity: O(size of the text), with one chunk in memory.
    mutating func drainCount(chunk: Int = 1 << 18) -> Int {
        var count = 0
        var out: [UInt8] = []
        out.reserveCapacity(chunk)
        var more = true
        while more {
            more = next(into: &out, size: chunk)
            count += out.count
            out.removeAll(keepingCapacity: true)
        }
        return count
    }

    /// Writes one member or element of the innermost frame, or closes it.
    private mutating func step(_ out: inout [UInt8]) {
        let top = stack.count - 1
        switch stack[top] {
        case .elements(let elements, let next):
            guard next < elements.count else {
                out.append(UInt8(ascii: "]"))
                stack.removeLast()
                return
            }
            if next > 0 { out.append(UInt8(ascii: ",")) }
            stack[top] = .elements(elements, next: next + 1)
            if let element = elements[next] { open(element, into: &out) } else { out.append(contentsOf: "null".utf8) }
        case .members(let members, let priority, let first):
            guard let (key, child, rest) = Self.advance(members) else {
                if let priority { DataNode.writePriority(priority, to: &out, first: first) }
                out.append(UInt8(ascii: "}"))
                stack.removeLast()
                return
            }
            if !first { out.append(UInt8(ascii: ",")) }
            stack[top] = .members(rest, priority: priority, first: false)
            JSONValue.writeKey(key, to: &out)
            out.append(UInt8(ascii: ":"))
            open(child, into: &out)
        }
    }

    /// The member at the position, and the members after it.
    private static func advance(_ members: Members) -> (Key, DataNode, Members)? {
        switch members {
        case .children(var iterator):
            guard let (key, child) = iterator.next() else { return nil }
            return (key, child, .children(iterator))
        case .list(let list, let index):
            guard index < list.count else { return nil }
            return (list[index].key, list[index].node, .list(list, index + 1))
        }
    }

    private mutating func open(_ node: DataNode) {
        var out = head
        head = []
        open(node, into: &out)
        head = out
    }

    /// Starts writing `node`: in one piece, or by pushing its frame.
    private mutating func open(_ node: DataNode, into out: inout [UInt8]) {
        switch node.textForm(export: export) {
        case .whole:
            node.writeWhole(to: &out, export: export)
        case .elements(let elements):
            out.append(UInt8(ascii: "["))
            stack.append(.elements(elements, next: 0))
        case .members(let children, let priority):
            out.append(UInt8(ascii: "{"))
            stack.append(.members(.children(children.makeIterator()), priority: priority, first: true))
        }
    }

    private mutating func openMembers(_ members: Members, isEmpty: Bool) {
        guard !isEmpty else { return head.append(contentsOf: "null".utf8) }
        head.append(UInt8(ascii: "{"))
        stack.append(.members(members, priority: nil, first: true))
    }
}
