package import CLiveCore

// Conversions between the model's ordering types and the C core's, for the
// layers above (package access: never public).

extension SortValue {
    /// Runs `body` with this value as an `lc_value`; a string's bytes are
    /// borrowed for the duration of `body` only.
    package func withCoreValue<R>(_ body: (lc_value) throws -> R) rethrows -> R {
        switch self {
        case .null: return try body(lc_value_null())
        case .bool(let b): return try body(lc_value_bool(b ? 1 : 0))
        case .number(let d): return try body(lc_value_number(d))
        case .object: return try body(lc_value_object())
        case .string(let s):
            return try s.withUTF8Bytes { bytes in try body(lc_value_string(bytes.cChars, bytes.count)) }
        }
    }

    /// A sort value copied from an `lc_value` (strings are copied out of the
    /// borrowed bytes). An unknown tag reads as null.
    package init(coreValue value: lc_value) {
        switch value.tag {
        case LC_SORT_FALSE: self = .bool(false)
        case LC_SORT_TRUE: self = .bool(true)
        case LC_SORT_NUMBER: self = .number(value.number)
        case LC_SORT_STRING: self = .string(String(utf8: value.str, count: value.len))
        case LC_SORT_OBJECT: self = .object
        default: self = .null
        }
    }
}

extension Priority {
    /// The priority an `lc_value` states (`LC_SORT_NUMBER` or
    /// `LC_SORT_STRING`); `nil` for anything else.
    package init?(coreValue value: lc_value) {
        switch value.tag {
        case LC_SORT_NUMBER: self = .number(value.number)
        case LC_SORT_STRING: self = .string(String(utf8: value.str, count: value.len))
        default: return nil
        }
    }
}

extension QueryOrder {
    /// Runs `body` with this order as an `lc_order`; the child path's text
    /// is borrowed for the duration of `body` only.
    package func withCoreOrder<R>(_ body: (lc_order) throws -> R) rethrows -> R {
        switch self {
        case .priority: return try body(lc_order(kind: LC_ORDER_PRIORITY, child_path: nil, child_path_len: 0))
        case .key: return try body(lc_order(kind: LC_ORDER_KEY, child_path: nil, child_path_len: 0))
        case .value: return try body(lc_order(kind: LC_ORDER_VALUE, child_path: nil, child_path_len: 0))
        case .child(let path) where path.keys.count == 1:
            // One member, the common case: its bytes as they are, no text made.
            return try path.keys[0].withUTF8 { bytes in
                try body(lc_order(kind: LC_ORDER_CHILD, child_path: bytes.cChars, child_path_len: bytes.count))
            }
        case .child(let path):
            return try path.relativeText.withUTF8Bytes { bytes in
                try body(lc_order(kind: LC_ORDER_CHILD, child_path: bytes.cChars, child_path_len: bytes.count))
            }
        }
    }
}
