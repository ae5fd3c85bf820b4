import LiveModel

extension DataNode {
    /// A 64-bit FNV-1a hash of the node's value and priorities.
    ///
    /// Equal nodes have equal digests, whatever order their children were
    /// written in: children are hashed in key order. Each part is prefixed
    /// by its kind and length, so different nodes do not run together into
    /// the same bytes.
    /// - Complexity: O(size of the node), plus O(m log m) per node of m
    ///   children for ordering them.
    var digest: UInt64 {
        var hasher = FNV1aHasher()
        hash(into: &hasher)
        return hasher.value
    }

    fileprivate func hash(into hasher: inout FNV1aHasher) {
        // Kept as text, and so without a priority: hashed from the text.
        if case .packed(let packed) = content { return packed.hash(into: &hasher) }
        if let priority {
            hasher.byte(0x50)  // "P"
            Self.hashPrimitive(priority.jsonValue, into: &hasher)
        }
        if let leaf {
            hasher.byte(0x4C)  // "L"
            Self.hashPrimitive(leaf, into: &hasher)
            return
        }
        let children = self.children
        hasher.byte(0x43)  // "C"
        hasher.integer(UInt64(children.count))
        for key in children.keys.sorted() {
            key.withUTF8 { hasher.utf8($0) }
            children[key]!.hash(into: &hasher)
        }
    }

    fileprivate static func hashPrimitive(_ value: JSONValue, into hasher: inout FNV1aHasher) {
        switch value {
        case .bool(let b):
            hasher.byte(b ? 0x74 : 0x66)
        case .number(let d):
            hasher.byte(0x6E)
            hasher.integer((d == 0 ? 0 : d).bitPattern)  // -0 == 0
        case .string(let s):
            hasher.byte(0x73)
            hasher.string(s)
        case .null, .array, .object:
            hasher.byte(0x00)
        }
    }
}

extension PackedJSON {
    /// Feeds `hasher` as ``DataNode``'s digest feeds it the same value,
    /// without making a dictionary of the members.
    /// - Complexity: O(size of the text), plus O(m log m) per object of m
    ///   members for ordering them.
    fileprivate func hash(into hasher: inout FNV1aHasher) {
        guard isObject else {
            hasher.byte(0x4C)  // "L"
            return DataNode.hashPrimitive(leaf!, into: &hasher)
        }
        var members: [(key: Key, value: PackedJSON)] = []
        forEachMember { key, value in
            members.append((key, value))
            return true
        }
        members.sort { $0.key < $1.key }
        hasher.byte(0x43)  // "C"
        hasher.integer(UInt64(members.count))
        for (key, value) in members {
            key.withUTF8 { hasher.utf8($0) }
            value.hash(into: &hasher)
        }
    }
}

/// The 64-bit FNV-1a hash, fed byte by byte.
struct FNV1aHasher {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func byte(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    /// Eight bytes, little-endian.
    mutating func integer(_ integer: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) {
            byte(UInt8(truncatingIfNeeded: integer >> UInt64(shift)))
        }
    }

    /// The length in bytes of UTF-8, then the bytes.
    mutating func string(_ string: String) {
        integer(UInt64(string.utf8.count))
        for b in string.utf8 { byte(b) }
    }

    /// The length of `bytes`, then the bytes: the same as ``string(_:)``
    /// for the string of these UTF-8 bytes.
    mutating func utf8(_ bytes: UnsafeBufferPointer<UInt8>) {
        integer(UInt64(bytes.count))
        for b in bytes { byte(b) }
    }
}
