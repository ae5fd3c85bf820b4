/// A child's priority, the legacy Firebase ordering field (`.priority` in
/// the export format).
///
/// In priority order (the default order of a query), children without a
/// priority come first, then number priorities by value, then string
/// priorities by UTF-16 code units; ties go to key order.
public enum Priority: Sendable, Hashable {
    /// A number priority.
    case number(Double)
    /// A string priority.
    case string(String)

    /// The priority a JSON value states: a number or a string; `nil` for
    /// anything else (Firebase allows no other priority).
    public init?(_ value: JSONValue) {
        switch value {
        case .number(let d): self = .number(d)
        case .string(let s): self = .string(s)
        default: return nil
        }
    }

    /// The priority as a JSON value, as written in `".priority"`.
    public var jsonValue: JSONValue {
        switch self {
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        }
    }

    /// The sort value of the priority, for priority order.
    public var sortValue: SortValue {
        switch self {
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        }
    }

    /// Equality by exact code units for strings, by value for numbers.
    public static func == (lhs: Priority, rhs: Priority) -> Bool {
        lhs.sortValue == rhs.sortValue
    }

    /// Hashes consistently with ``==(_:_:)``: by the priority's
    /// ``sortValue``.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(sortValue)
    }
}

extension Priority: Comparable {
    /// Numbers before strings; numbers by value, strings by UTF-16 code units.
    public static func < (lhs: Priority, rhs: Priority) -> Bool {
        lhs.sortValue < rhs.sortValue
    }
}

/// Priority order for an optional priority, where no priority comes
/// first.
extension Optional where Wrapped == Priority {
    /// The sort value of an optional priority: no priority is ``SortValue/null``.
    public var sortValue: SortValue {
        self?.sortValue ?? .null
    }
}

extension Priority: CustomStringConvertible {
    /// The priority as JSON text: `3`, or `"a"` quoted and escaped.
    public var description: String { jsonValue.jsonText() }
}
