import LiveModel

/// A value kept as the JSON text it was read from: a span of a buffer that
/// several values share (the data file the server started from).
///
/// Only plain text is kept this way (see ``PlainText``): text that is
/// already exactly what the server writes for its value, so that it can be
/// sent as it is. Every key in it was validated when the buffer was read.
/// The buffer stays in memory as long as one value kept in it does.
///
/// A packed value is 16 bytes beside its share of the buffer; reading it
/// walks its text, so only small values (and primitives) are packed.
struct PackedJSON: Sendable {
    /// The shared buffer (its text is valid JSON, validated when read).
    private let buffer: [UInt8]
    private let start: UInt32
    private let end: UInt32

    /// The plain text `buffer[start..<end]`.
    init(_ buffer: [UInt8], start: Int, end: Int) {
        self.buffer = buffer
        self.start = UInt32(start)
        self.end = UInt32(end)
    }

    /// Whether the value is an object (else a string, a number or a boolean).
    var isObject: Bool { buffer[Int(start)] == UInt8(ascii: "{") }

    /// The primitive value, or `nil` for an object.
    var leaf: JSONValue? {
        buffer.withUnsafeBufferPointer { p -> JSONValue? in
            let s = Int(start), e = Int(end)
            switch p[s] {
            case UInt8(ascii: "{"):
                return nil
            case UInt8(ascii: "\""):
                return .string(PlainText.decodeString(p, s + 1, e - 1))
            case UInt8(ascii: "t"):
                return .bool(true)
            case UInt8(ascii: "f"):
                return .bool(false)
            default:
                return .number(Double(Self.integer(p, s, e)))
            }
        }
    }

    /// The members of an object, as packed values keyed by their keys;
    /// empty for a primitive.
    /// - Complexity: O(length of the text).
    var children: [Key: DataNode] {
        var children: [Key: DataNode] = [:]
        forEachMember { key, value in
            children[key] = DataNode(packed: value)
            return true
        }
        return children
    }

    /// The member `key` of an object, or `nil` (always for a primitive).
    /// - Complexity: O(length of the text).
    func member(_ key: Key) -> PackedJSON? {
        var found: PackedJSON?
        key.withUTF8 { wanted in
            forEachRawMember { keyStart, keyEnd, value in
                let matches = buffer.withUnsafeBufferPointer { p in
                    keyEnd - keyStart == wanted.count
                        && memoryEqual(p.baseAddress! + keyStart, wanted.baseAddress, wanted.count)
                }
                if matches { found = value }
                return !matches
            }
        }
        return found
    }

    /// Calls `body` with the text (valid only during the call).
    func withText<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        buffer.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[Int(start)..<Int(end)])) }
    }

    /// Appends the text to `out`.
    func write(to out: inout [UInt8]) {
        buffer.withUnsafeBufferPointer { out.append(contentsOf: $0[Int(start)..<Int(end)]) }
    }

    /// Whether both are the same bytes (equal values; distinct bytes may
    /// still be equal values, with members in another order).
    func hasSameText(as other: PackedJSON) -> Bool {
        let count = Int(end - start)
        guard count == Int(other.end - other.start) else { return false }
        return buffer.withUnsafeBufferPointer { a in
            other.buffer.withUnsafeBufferPointer { b in
                memoryEqual(a.baseAddress! + Int(start), b.baseAddress! + Int(other.start), count)
            }
        }
    }

    /// Calls `body` with each member of an object, in text order, until it
    /// returns `false`.
    func forEachMember(_ body: (Key, PackedJSON) -> Bool) {
        forEachRawMember { keyStart, keyEnd, value in
            let key = buffer.withUnsafeBufferPointer { p in
                Key(uncheckedUTF8: UnsafeRawPointer(p.baseAddress! + keyStart).assumingMemoryBound(to: CChar.self),
                    count: keyEnd - keyStart)
            }
            return body(key, value)
        }
    }

    /// Calls `body` with each member's key bytes (`keyStart..<keyEnd` in
    /// the buffer) and value, until it returns `false`.
    private func forEachRawMember(_ body: (Int, Int, PackedJSON) -> Bool) {
        guard isObject else { return }
        var i = Int(start) + 1
        while true {
            let (keyStart, keyEnd, valueStart, valueEnd) = buffer.withUnsafeBufferPointer { p in
                let keyEnd = PlainText.stringEnd(p, i)! - 1
                let valueEnd = SnapshotReader.valueEnd(p, keyEnd + 2, p.count)!
                return (i + 1, keyEnd, keyEnd + 2, valueEnd)
            }
            guard body(keyStart, keyEnd, PackedJSON(buffer, start: valueStart, end: valueEnd)) else { return }
            // The next byte is ',' or the closing '}'.
            if buffer[valueEnd] == UInt8(ascii: "}") { return }
            i = valueEnd + 1
        }
    }

    /// The plain integer `p[s..<e]`.
    private static func integer(_ p: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> Int64 {
        let negative = p[s] == UInt8(ascii: "-")
        var value: Int64 = 0
        for i in (negative ? s + 1 : s)..<e { value = value * 10 + Int64(p[i] &- UInt8(ascii: "0")) }
        return negative ? -value : value
    }
}

/// Whether `count` bytes at `a` and `b` are equal.
@inline(__always)
private func memoryEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>?, _ count: Int) -> Bool {
    guard count > 0, let b else { return count == 0 }
    return UnsafeRawBufferPointer(start: a, count: count).elementsEqual(UnsafeRawBufferPointer(start: b, count: count))
}
