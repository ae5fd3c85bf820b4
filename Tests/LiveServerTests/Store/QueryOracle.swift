import LiveModel
@testable import LiveServer

/// A query as the differential test draws it: what a request asks for,
/// before any parsing.
struct QuerySpec: CustomStringConvertible {
    /// The `orderBy` value: `$key`, `$value`, `$priority` or a child path.
    var orderBy: String
    /// Bound parameters (`startAt`, …) to their JSON value and optional key.
    var bounds: [String: (value: JSONValue, key: String?)] = [:]
    /// `limitToFirst` or `limitToLast` and its count.
    var limit: (name: String, count: Int)?

    /// The request's parameters, JSON-encoded.
    var parameters: [String: String] {
        var result = ["orderBy": JSONValue.string(orderBy).jsonText()]
        for (name, bound) in bounds {
            result[name] = bound.value.jsonText()
            if let key = bound.key { result[name + "Key"] = JSONValue.string(key).jsonText() }
        }
        if let limit { result[limit.name] = String(limit.count) }
        return result
    }

    var description: String {
        parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }
}

/// Brute force from DESIGN.md's rules, written apart from ``DatabaseQuery``: sort
/// every child by (value, key), keep those the bound predicates accept,
/// then cut to the limit.
enum QueryOracle {
    static func window(_ spec: QuerySpec, of node: DataNode) -> [Key] {
        let byKey = spec.orderBy == "$key"
        // Read each child's value through its JSON rendering.
        func value(of child: DataNode) -> SortValue {
            switch spec.orderBy {
            case "$key": return .null
            case "$priority": return child.priority.sortValue
            case "$value": return SortValue(child.json())
            default:
                let path = DatabasePath(stringLiteral: spec.orderBy)
                return child.json()[path: path].map(SortValue.init) ?? .null
            }
        }
        var children = node.children.map { (key: $0.key, value: value(of: $0.value)) }
        children.sort { a, b in a.value != b.value ? a.value < b.value : a.key < b.key }

        func accepts(_ child: (key: Key, value: SortValue), _ name: String, _ bound: (value: JSONValue, key: String?))
            -> Bool
        {
            if byKey {
                // Under $key the bound is a key (maybe not a valid one).
                let k = Key(unchecked: bound.value.stringValue!)
                switch name {
                case "startAt": return !(child.key < k)
                case "startAfter": return k < child.key
                case "endAt": return !(k < child.key)
                case "endBefore": return child.key < k
                default: return child.key == k
                }
            }
            let v = SortValue(bound.value)
            let x = child.value
            guard let keyText = bound.key else {
                switch name {
                case "startAt": return x >= v
                case "startAfter": return x > v
                case "endAt": return x <= v
                case "endBefore": return x < v
                default: return x == v
                }
            }
            let k = Key(unchecked: keyText)
            switch name {
            case "startAt": return x > v || (x == v && child.key >= k)
            case "startAfter": return x > v || (x == v && child.key > k)
            case "endAt": return x < v || (x == v && child.key <= k)
            case "endBefore": return x < v || (x == v && child.key < k)
            default: return x == v && child.key == k
            }
        }
        var kept = children.filter { child in spec.bounds.allSatisfy { accepts(child, $0.key, $0.value) } }
        if let limit = spec.limit {
            kept = limit.name == "limitToFirst" ? Array(kept.prefix(limit.count)) : Array(kept.suffix(limit.count))
        }
        return kept.map(\.key)
    }
}
