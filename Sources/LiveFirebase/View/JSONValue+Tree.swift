// JSONValue+Tree.swift — replacing the value at a path inside a child, as
// the database does.
import LiveModel

extension JSONValue {
    /// This value with the value at `path` replaced by `newValue` (an absent
    /// value deletes it), normalised as the database stores values: a
    /// primitive on the way becomes an object when something is written
    /// below it (deleting below it leaves it as it is), and objects left
    /// empty vanish.
    /// - Complexity: O(m) for the members of each object on the path (it is
    ///   copied, this value keeping its own), plus O(n) for each array on
    ///   the way (it becomes the object it stands for).
    package func replacing(_ path: ArraySlice<LiveModel.Key>, with newValue: JSONValue) -> JSONValue {
        var copy = self
        copy.replace(path, with: newValue)
        return copy
    }

    /// Replaces the value at `path` in place, as ``replacing(_:with:)``
    /// describes.
    /// - Complexity: O(depth of the path) when no other value shares this
    ///   one's objects (each shared one on the way is copied once), plus
    ///   O(n) for each array on the way.
    package mutating func replace(_ path: ArraySlice<LiveModel.Key>, with newValue: JSONValue) {
        guard let first = path.first else {
            self = newValue.isAbsent ? .null : newValue
            return
        }
        var members: JSONObject
        switch self {
        case .object(let o): members = o
        case .array: members = objectForm()
        case .null: members = [:]
        case .bool, .number, .string:
            if newValue.isAbsent { return }
            members = [:]
        }
        // `members` holds the only reference now: changed in place.
        self = .null
        var inner = members.removeValue(forKey: first.string) ?? .null
        inner.replace(path.dropFirst(), with: newValue)
        if !inner.isAbsent { members[first.string] = inner }
        self = members.isEmpty ? .null : .object(members)
    }

    /// An array as the object it stands for (keys `"0"`, `"1"`, … without
    /// its absent elements); other values unchanged as members.
    private func objectForm() -> JSONObject {
        guard case .array(let elements) = self else { return [:] }
        var members = JSONObject()
        for (i, element) in elements.enumerated() where !element.isAbsent { members[String(i)] = element }
        return members
    }
}
