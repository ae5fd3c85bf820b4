/// What the children of a location are ordered by.
///
/// Every order breaks ties by ``Key`` order; ``key`` orders by key alone.
public enum QueryOrder: Sendable, Hashable {
    /// By priority (no priority, then numbers, then strings): Firebase's
    /// default order, `orderByPriority`.
    case priority
    /// By key alone, `orderByKey`.
    case key
    /// By each child's own value, `orderByValue`.
    case value
    /// By the value at a relative path inside each child, `orderByChild`.
    /// A missing path, or one passing through a primitive, is null.
    case child(DatabasePath)

    /// The sort value of a child under this order.
    ///
    /// - Parameters:
    ///   - value: The child's value (priorities already removed).
    ///   - priority: The child's priority, used by ``priority`` only.
    /// - Returns: ``SortValue/null`` for ``key``; the priority's sort value
    ///   for ``priority``; otherwise the sort value of the value, or of the
    ///   value at the child path.
    /// - Complexity: O(depth of the child path); see ``SortValue/init(_:)``.
    public func sortValue(of value: JSONValue, priority: Priority? = nil) -> SortValue {
        switch self {
        case .priority:
            return priority.sortValue
        case .key:
            return .null
        case .value:
            return SortValue(value)
        case .child(let path):
            guard let nested = value[path: path] else { return .null }
            return SortValue(nested)
        }
    }
}

extension QueryOrder: CustomStringConvertible {
    /// The query parameter that asks for this order: `$priority`, `$key`,
    /// `$value` or the child path (`a/b`).
    public var description: String {
        switch self {
        case .priority: return "$priority"
        case .key: return "$key"
        case .value: return "$value"
        case .child(let path): return path.relativeText
        }
    }
}
