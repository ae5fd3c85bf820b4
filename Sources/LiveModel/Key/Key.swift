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
    /// The key's text.
    public let string: String

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
        self.string = string
    }

    /// The key of an integer: always valid (`Key(3)` is `"3"`), and an
    /// integer key when it fits 32 bits.
    public init(_ integer: Int) {
        self.string = String(integer)
    }

    /// A key the C core has already validated (from a parsed document).
    package init(unchecked string: String) {
        var string = string
        string.makeContiguousUTF8()
        self.string = string
    }

    /// A key from validated UTF-8 bytes borrowed from the C core.
    package init(uncheckedUTF8 pointer: UnsafePointer<CChar>?, count: Int) {
        self.string = String(utf8: pointer, count: count)
    }

    /// The value of an integer key (see the type's documentation), or `nil`.
    public var integerValue: Int32? {
        string.withUTF8Bytes { bytes in
            var value: Int32 = 0
            return lc_key_integer(bytes.cChars, bytes.count, &value) ? value : nil
        }
    }

    /// Length of the key in bytes of UTF-8.
    public var utf8Count: Int { string.utf8.count }
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
        lhs.string.utf8.count == rhs.string.utf8.count && lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        string.withUTF8Bytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
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
        lhs.string.withUTF8Bytes { a in
            rhs.string.withUTF8Bytes { b in
                Int(lc_key_compare(a.cChars, a.count, b.cChars, b.count))
            }
        }
    }
}

extension Key: CustomStringConvertible, CustomDebugStringConvertible {
    /// The key's text.
    public var description: String { string }
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
