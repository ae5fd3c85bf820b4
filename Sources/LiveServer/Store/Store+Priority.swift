// Store+Priority.swift — a node's priority as a location of its own:
// `/a/b/.priority`, as Firebase's REST API and its SDKs' `setPriority` name it.

import LiveModel

/// A location a request or an update member names: a node, or the
/// priority of one (its text ends in `/.priority`).
struct NamedLocation: Sendable, Equatable {
    /// The node's path.
    let path: DatabasePath
    /// Whether the text names the node's priority rather than the node.
    let isPriority: Bool

    /// Parses a path text such as `"a/b"` or `"a/b/.priority"`.
    /// - Throws: ``KeyError`` for an invalid key or path, as
    ///   ``DatabasePath/init(_:)-(String)``.
    /// - Complexity: O(length of the text).
    init(_ text: String) throws(KeyError) {
        var body = Substring(text)
        while body.hasSuffix("/") { body.removeLast() }
        if body == ".priority" || body.hasSuffix("/.priority") {
            body.removeLast(".priority".count)
            path = try DatabasePath(String(body))
            isPriority = true
        } else {
            path = try DatabasePath(text)
            isPriority = false
        }
    }
}

extension Store {
    /// The priority a written value sets: a number or a string; nil for
    /// `null`, which removes it.
    /// - Throws: ``StoreError`` (400) for any other value.
    static func priority(written value: JSONValue) throws(StoreError) -> Priority? {
        switch value {
        case .null: return nil
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        default: throw DataNodeReader.badPriority
        }
    }

    /// Sets (or, with `nil`, removes) the priority of the node at `path`.
    /// An absent node has no priority: nothing changes then.
    /// - Returns: One write, `path` and the node now there; none when
    ///   nothing is there or the priority is already `priority`.
    /// - Complexity: O(depth of the path).
    mutating func setPriority(_ priority: Priority?, of path: DatabasePath) -> [Write] {
        var node = get(path)
        guard !node.isEmpty, node.priority != priority else { return [] }
        node.priority = priority
        return set(path, node: node)
    }
}
