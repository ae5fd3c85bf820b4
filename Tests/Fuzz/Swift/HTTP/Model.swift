// Model.swift — the model of the database that fuzz-http holds the server
// to: a nested dictionary.
//
// PUT replaces the value at its path, PATCH replaces each named child path,
// DELETE removes, POST adds a child; nulls and empty objects vanish (and an
// object left without children vanishes with them); arrays are objects
// keyed "0", "1", …. Values the server resolved itself (server values,
// priorities) are taken as the server echoed them, in the export format
// (`{".value": v, ".priority": p}`, `".priority"` beside children), and
// read back the same; a plain read shows them without their priorities.

import LiveModel

indirect enum Value: Equatable, CustomStringConvertible {
    case leaf(JSONValue)
    /// Never empty.
    case node([String: Value])

    var description: String { json.jsonText(sortedKeys: true) }

    var json: JSONValue {
        switch self {
        case .leaf(let value): return value
        case .node(let children): return .object(JSONObject(uniqueKeysWithValues: children.map { ($0.key, $0.value.json) }))
        }
    }

    /// The value as a plain read shows it: without priorities.
    var plain: Value {
        guard case .node(var children) = self else { return self }
        if let inner = children[".value"] { return inner.plain }
        children[".priority"] = nil
        return .node(children.mapValues(\.plain))
    }

    /// The children a query or a shallow read sees (not `.priority`); none for a leaf.
    var children: [String: Value] {
        guard case .node(let children) = self, children[".value"] == nil else { return [:] }
        return children.filter { !$0.key.hasPrefix(".") }
    }
}

/// JSON as the database keeps it: nulls and empty objects gone, arrays as
/// objects keyed by index. (Applied to what the server answers too, so that
/// its array rendering is compared as the children it stands for.)
func normalized(_ json: JSONValue) -> Value? {
    switch json {
    case .null:
        return nil
    case .bool, .number, .string:
        return .leaf(json)
    case .array(let elements):
        var children: [String: Value] = [:]
        for (i, element) in elements.enumerated() {
            if let value = normalized(element) { children[String(i)] = value }
        }
        return children.isEmpty ? nil : .node(children)
    case .object(let members):
        var children: [String: Value] = [:]
        for (name, member) in members {
            if let value = normalized(member) { children[name] = value }
        }
        // A priority alone holds nothing.
        if children.isEmpty || children.keys.allSatisfy({ $0 == ".priority" }) { return nil }
        return .node(children)
    }
}

struct Database {
    var root: Value?

    func get(_ path: [String]) -> Value? {
        var node = root
        for key in path {
            guard case .node(let children)? = node, children[".value"] == nil else { return nil }
            node = children[key]
        }
        return node
    }

    mutating func set(_ path: [String], _ value: Value?) {
        root = Self.setting(root, path[...], value)
    }

    private static func setting(_ node: Value?, _ path: ArraySlice<String>, _ value: Value?) -> Value? {
        guard let key = path.first else { return value }
        var children: [String: Value]
        switch node {
        case .node(let current)? where current[".value"] == nil:
            children = current
        case .node(let current)?:
            // A leaf with a priority: writing below it makes it children,
            // keeping the priority; removing below it finds nothing.
            if value == nil { return node }
            children = [".priority": current[".priority"]!]
        case .leaf?, nil:
            if value == nil { return node }
            children = [:]
        }
        children[key] = setting(children[key], path.dropFirst(), value)
        if children.isEmpty || children.keys.allSatisfy({ $0 == ".priority" }) { return nil }
        return .node(children)
    }
}

/// Firebase's key order for the keys fuzz-http writes: keys that are 32-bit
/// integers first, by value, then the others by their UTF-8 bytes (which
/// for these keys is also their UTF-16 and scalar order).
func keyPrecedes(_ a: String, _ b: String) -> Bool {
    func integer(_ s: String) -> Int32? {
        guard let n = Int32(s), String(n) == s else { return nil }
        return n
    }
    switch (integer(a), integer(b)) {
    case let (x?, y?): return x < y
    case (_?, nil): return true
    case (nil, _?): return false
    case (nil, nil): return a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
