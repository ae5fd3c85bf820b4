extension JSONValue {
    /// Whether this is ``null``.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The boolean, or `nil` if this is not ``bool(_:)``.
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// The number, or `nil` if this is not ``number(_:)``.
    public var numberValue: Double? {
        if case .number(let d) = self { return d }
        return nil
    }

    /// The string, or `nil` if this is not ``string(_:)``.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The elements, or `nil` if this is not ``array(_:)``.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The members, or `nil` if this is not ``object(_:)``.
    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// Whether Firebase sees no value here: ``null``, or an array or object
    /// whose members are all (recursively) absent. Firebase never stores
    /// empty containers or `null` members.
    /// - Complexity: O(size of the value) in the worst case; stops at the
    ///   first primitive.
    public var isAbsent: Bool {
        switch self {
        case .null:
            return true
        case .bool, .number, .string:
            return false
        case .array(let a):
            return a.allSatisfy(\.isAbsent)
        case .object(let o):
            return o.values.allSatisfy(\.isAbsent)
        }
    }

    /// The member of an object named exactly `name` (code unit for code
    /// unit), or the element at `name` of an array when `name` is a decimal
    /// index (Firebase sees arrays as objects keyed `"0"`, `"1"`, …); `nil`
    /// for anything else.
    ///
    /// Setting follows the database: it stores the member (`nil` removes
    /// it) in an object; an array first becomes the object it stands for
    /// (keyed `"0"`, `"1"`, … without `null` elements); setting a member of
    /// `null` or of a primitive replaces it with an object holding just
    /// that member.
    /// - Complexity: O(1) on average for objects; O(n) when an array of n
    ///   elements becomes an object.
    public subscript(name: String) -> JSONValue? {
        get {
            switch self {
            case .object(let o):
                return o[name]
            case .array(let a):
                guard let i = JSONValue.arrayIndex(name), i < a.count else { return nil }
                return a[i]
            default:
                return nil
            }
        }
        set {
            var members: JSONObject
            switch self {
            case .object(let o):
                members = o
                self = .null  // release the storage so the update is in place
            case .array(let a):
                members = [:]
                for (i, element) in a.enumerated() where !element.isNull { members[String(i)] = element }
            default:
                members = [:]
            }
            members[name] = newValue
            self = .object(members)
        }
    }

    /// The element at `index` of an array, or `nil` if this is not an array
    /// or the index is out of bounds.
    public subscript(index: Int) -> JSONValue? {
        guard case .array(let a) = self, a.indices.contains(index) else { return nil }
        return a[index]
    }

    /// The value at a relative path, following members (and array indexes)
    /// one segment at a time: `value[path: "a/b"]`. The empty path is the
    /// value itself; a path that is missing or passes through a primitive is
    /// `nil`, which Firebase reads as null.
    /// - Complexity: O(depth of the path).
    public subscript(path path: DatabasePath) -> JSONValue? {
        var current = self
        for key in path.keys {
            guard let next = current[key.string] else { return nil }
            current = next
        }
        return current
    }

    /// A decimal array index with no sign and no leading zero ("0", "17").
    static func arrayIndex(_ name: String) -> Int? {
        let utf8 = name.utf8
        guard let first = utf8.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9"),
              first != UInt8(ascii: "0") || utf8.count == 1, utf8.count <= 18
        else { return nil }
        var value = 0
        for byte in utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
