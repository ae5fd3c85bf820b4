internal import CLiveCore

/// The value a child is ordered by, in Firebase value order.
///
/// `null` (or missing) < `false` < `true` < numbers < strings < objects.
/// Numbers compare as doubles (`-0 == 0`), strings by UTF-16 code units
/// (JavaScript's order, not Swift's), and all objects are equal. Ties
/// between children are broken by ``Key`` order, which this type does not
/// include.
///
/// Equality agrees with the order: two strings are equal only when their
/// code units are (`"é" != "e\u{301}"`), and any two objects are equal.
public enum SortValue: Sendable {
    /// No value: a missing child, a missing path, or no priority.
    case null
    /// A boolean.
    case bool(Bool)
    /// A number. Never NaN or infinite when it comes from JSON.
    case number(Double)
    /// A string.
    case string(String)
    /// Any object (all objects sort together).
    case object

    /// The sort value of a JSON value under `orderByValue`: objects and
    /// arrays with at least one present member are ``object``; `null` and
    /// empty containers (which Firebase does not store) are ``null``.
    /// - Complexity: O(1) for primitives; for containers, until the first
    ///   present member is found.
    public init(_ value: JSONValue) {
        switch value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .number(let d): self = .number(d)
        case .string(let s): self = .string(s)
        case .array, .object: self = value.isAbsent ? .null : .object
        }
    }

    /// The rank of the kind in Firebase order (the C core's `lc_sort_tag`).
    var rank: Int {
        switch self {
        case .null: return Int(LC_SORT_NULL.rawValue)
        case .bool(false): return Int(LC_SORT_FALSE.rawValue)
        case .bool(true): return Int(LC_SORT_TRUE.rawValue)
        case .number: return Int(LC_SORT_NUMBER.rawValue)
        case .string: return Int(LC_SORT_STRING.rawValue)
        case .object: return Int(LC_SORT_OBJECT.rawValue)
        }
    }

    /// Three-way comparison in Firebase value order (`lc_value_compare`).
    /// - Complexity: O(length of the shorter string) for strings, else O(1).
    package static func compare(_ lhs: SortValue, _ rhs: SortValue) -> Int {
        lhs.withCoreValue { a in
            rhs.withCoreValue { b in
                withUnsafePointer(to: a) { pa in
                    withUnsafePointer(to: b) { pb in Int(lc_value_compare(pa, pb)) }
                }
            }
        }
    }
}

extension SortValue: Comparable {
    /// Whether `lhs` comes before `rhs` in Firebase value order (see the
    /// type's documentation).
    /// - Complexity: O(length of the shorter string) for strings, else O(1).
    public static func < (lhs: SortValue, rhs: SortValue) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Equal in Firebase value order (see the type's documentation).
    public static func == (lhs: SortValue, rhs: SortValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null), (.object, .object): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)):
            return a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
        default: return false
        }
    }
}

extension SortValue: Hashable {
    /// Hashes consistently with ``==(_:_:)``: strings by their UTF-8
    /// bytes, `-0` as `0`, every object alike.
    /// - Complexity: O(length of a string), else O(1).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(rank)
        switch self {
        case .number(let d): hasher.combine(d == 0 ? 0 : d)  // -0 and 0 are equal
        case .string(let s): s.withUTF8Bytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        default: break
        }
    }
}

extension SortValue: CustomStringConvertible {
    /// The value as JSON text (`null`, `true`, `3`, `"a"`), objects as `{…}`.
    public var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let d): return JSONValue.number(d).jsonText()
        case .string(let s): return JSONValue.string(s).jsonText()
        case .object: return "{…}"
        }
    }
}
