/// A JSON value as the Firebase Realtime Database stores it.
///
/// ## Numbers
/// Every number is a `Double`, because that is what the database stores: an
/// integer literal such as `42` in a snapshot becomes `.number(42)`. Integers
/// are exact up to 2^53; ``JSONValueDecoder`` converts a number back to any
/// integer type when it is integral and in range, and serialisation writes
/// integral numbers without a fraction (`42`, not `42.0`).
///
/// ## Equality
/// Strings and object member names compare by their Unicode code units, not
/// by Swift's canonical equivalence: `.string("é")` (U+00E9) and
/// `.string("e\u{301}")` are *different* values, as they are on the server.
/// Numbers compare as doubles (`-0 == 0`). Arrays compare element by element,
/// objects member by member regardless of order.
///
/// ## Member names
/// An object's members are a ``JSONObject``, which keeps member names apart
/// by their exact code units: `{"é": 1, "e\u{301}": 2}` has two members,
/// as it has on the server. No parsing, coding or rendering step merges
/// canonically equivalent names.
public enum JSONValue: Sendable {
    /// `null`; for Firebase, the absence of a value.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, always a double (see "Numbers" above).
    case number(Double)
    /// A string.
    case string(String)
    /// An ordered array.
    case array([JSONValue])
    /// An object: member names (exact code units) to values.
    case object(JSONObject)
}

extension JSONValue: Equatable {
    /// Exact equality: strings and member names by code units (see the type's
    /// documentation), numbers as doubles.
    /// - Complexity: O(size of the smaller value).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            return true
        case let (.bool(a), .bool(b)):
            return a == b
        case let (.number(a), .number(b)):
            return a == b
        case let (.string(a), .string(b)):
            return a.utf8.elementsEqual(b.utf8)
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0 == $1 }
        case let (.object(a), .object(b)):
            return a == b
        default:
            return false
        }
    }
}

extension JSONValue: Hashable {
    /// Hashes consistently with ``==(_:_:)``: strings by their code units,
    /// objects independently of member order.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null:
            hasher.combine(0 as UInt8)
        case .bool(let b):
            hasher.combine(1 as UInt8)
            hasher.combine(b)
        case .number(let d):
            hasher.combine(2 as UInt8)
            hasher.combine(d)
        case .string(let s):
            hasher.combine(3 as UInt8)
            JSONValue.hashCodeUnits(of: s, into: &hasher)
        case .array(let a):
            hasher.combine(4 as UInt8)
            hasher.combine(a.count)
            for element in a { hasher.combine(element) }
        case .object(let o):
            hasher.combine(5 as UInt8)
            hasher.combine(o)  // independent of member order
        }
    }

    static func hashCodeUnits(of string: String, into hasher: inout Hasher) {
        hasher.combine(string.utf8.count)
        for byte in string.utf8 { hasher.combine(byte) }
    }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral {
    /// `nil` is ``null``.
    public init(nilLiteral: ()) { self = .null }
}

extension JSONValue: ExpressibleByBooleanLiteral {
    /// `true` or `false` becomes a ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension JSONValue: ExpressibleByIntegerLiteral {
    /// An integer literal becomes a ``number(_:)``.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
}

extension JSONValue: ExpressibleByFloatLiteral {
    /// A floating-point literal becomes a ``number(_:)``.
    public init(floatLiteral value: Double) { self = .number(value) }
}

extension JSONValue: ExpressibleByStringLiteral {
    /// A string literal becomes a ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
}

extension JSONValue: ExpressibleByArrayLiteral {
    /// An array literal becomes an ``array(_:)`` of its elements, in order.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// A dictionary literal becomes an ``object(_:)``; a repeated name keeps
    /// the last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements, uniquingKeysWith: { _, last in last }))
    }
}
