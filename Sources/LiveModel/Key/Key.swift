internal import CLiveCore

/// A Firebase key: the name of one child.
///
/// A key is a non-empty string of at most 768 bytes of UTF-8 without `.`
/// `#` `$` `/` `[` `]` or ASCII control characters.
///
/// Keys are *not* compared like Swift strings:
/// - Equality and hashing use the exact code units, so `"é"` (U+00E9) and
///   `"e\u{301}"` are two different keys, as they are on the server.
/// - Order is Firebase key order: *integer keys* (an optional `-` and ASCII
///   digits whose value fits a signed 32-bit integer) come first by numeric
///   value, equal values shorter first (`"7" < "007"`); then all other keys
///   by UTF-16 code units (JavaScript's string order, where `"😀" < "｡"`).
///   Distinct keys never compare equal (`"-0" < "00"`).
public struct Key: Sendable {
    /// The key's UTF-8: inline up to ``KeyBytes/capacity`` bytes (a push id
    /// fits), otherwise a string. Each key has exactly one form, chosen by
    /// its length, so equal keys always have the same form.
    let storage: Storage

    enum Storage: Sendable {
        case inline(KeyBytes)
        case text(String)
    }

    /// The key's text.
    /// - Complexity: O(length of the key); a key longer than 15 bytes of
    ///   UTF-8 is copied into a new string each time.
    public var string: String {
        switch storage {
        case .inline(let bytes): return bytes.withUTF8 { String(decoding: $0, as: UTF8.self) }
        case .text(let text): return text
        }
    }

    /// Validates a key.
    ///
    /// With a string *literal* argument, `Key("a")` is the literal
    /// initialiser (``init(stringLiteral:)``), which traps on an invalid
    /// literal; pass text from users or the network as a value.
    /// - Throws: ``KeyError`` with the rule broken and the byte position.
    /// - Complexity: O(length of the key).
    public init(_ string: String) throws(KeyError) {
        var string = string
        string.makeContiguousUTF8()
        let (status, error) = string.withUTF8Bytes { bytes in
            var error = lc_error()
            let status = lc_key_validate(bytes.cChars, bytes.count, &error)
            return (status, error)
        }
        guard status == LC_OK else {
            throw KeyError(text: string, isPath: false, status: status, error: error)
        }
        self.init(validated: string)
    }

    /// The key of an integer: always valid (`Key(3)` is `"3"`), and an
    /// integer key when it fits 32 bits.
    public init(_ integer: Int) {
        self.init(validated: String(integer))
    }

    /// A key the C core has already validated (from a parsed document).
    package init(unchecked string: String) {
        var string = string
        string.makeContiguousUTF8()
        self.init(validated: string)
    }

    /// A key from validated UTF-8 bytes borrowed from the C core.
    package init(uncheckedUTF8 pointer: UnsafePointer<CChar>?, count: Int) {
        if count <= KeyBytes.capacity {
            storage = .inline(KeyBytes(UnsafeRawBufferPointer(start: pointer, count: count)))
        } else {
            storage = .text(String(utf8: pointer, count: count))
        }
    }

    private init(validated string: String) {
        storage = string.withUTF8Bytes { bytes in
            bytes.count <= KeyBytes.capacity ? .inline(KeyBytes(UnsafeRawBufferPointer(bytes))) : .text(string)
        }
    }

    /// Runs `body` over the key's UTF-8 bytes, without copying them into a
    /// string.
    @inline(__always)
    package func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch storage {
        case .inline(let bytes): return try bytes.withUTF8(body)
        case .text(let text): return try text.withUTF8Bytes { try body($0) }
        }
    }

    /// The value of an integer key (see the type's documentation), or `nil`.
    public var integerValue: Int32? {
        withUTF8 { bytes in
            var value: Int32 = 0
            return lc_key_integer(bytes.cChars, bytes.count, &value) ? value : nil
        }
    }

    /// Length of the key in bytes of UTF-8.
    public var utf8Count: Int {
        switch storage {
        case .inline(let bytes): return Int(bytes.count)
        case .text(let text): return text.utf8.count
        }
    }
}

extension Key: ExpressibleByStringLiteral {
    /// A key written in source code.
    ///
    /// Traps if the literal is not a valid key — a programming error in the
    /// source. For text that comes from users or the network, use the
    /// throwing ``init(_:)-(String)`` instead.
    public init(stringLiteral value: String) {
        do {
            try self.init(value)
        } catch {
            preconditionFailure("invalid Key literal: \(error)")
        }
    }
}

extension Key: Hashable {
    /// Equality by exact code units: `"é" != "e\u{301}"`.
    /// - Complexity: O(length of the shorter key).
    public static func == (lhs: Key, rhs: Key) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case (.inline(let a), .inline(let b)): return a == b
        case (.text(let a), .text(let b)): return a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
        default: return false  // lengths differ
        }
    }

    /// Hashes the key's exact UTF-8 bytes, consistently with ``==(_:_:)``.
    /// - Complexity: O(length of the key).
    public func hash(into hasher: inout Hasher) {
        switch storage {
        case .inline(let bytes): bytes.hash(into: &hasher)
        case .text(let text): text.withUTF8Bytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }
}

extension Key: Comparable {
    /// Firebase key order (see the type's documentation).
    /// - Complexity: O(length of the shorter key).
    public static func < (lhs: Key, rhs: Key) -> Bool {
        Key.compare(lhs, rhs) < 0
    }

    /// Three-way Firebase key comparison: negative, zero (only for equal
    /// keys) or positive.
    package static func compare(_ lhs: Key, _ rhs: Key) -> Int {
        lhs.withUTF8 { a in
            rhs.withUTF8 { b in
                Int(lc_key_compare(a.cChars, a.count, b.cChars, b.count))
            }
        }
    }
}

extension Key: CustomStringConvertible, CustomDebugStringConvertible {
    /// The key's text.
    public var description: String { string }
    /// `Key("text")`, with the text quoted and escaped as a Swift string.
    public var debugDescription: String { "Key(\(string.debugDescription))" }
}

extension Key: Codable {
    /// Decodes a string and validates it as a key.
    /// - Throws: `DecodingError.dataCorrupted` (its underlying error is the
    ///   ``KeyError``) if the string is not a valid key.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        do {
            try self.init(string)
        } catch {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
    }

    /// Encodes the key's text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }
}
