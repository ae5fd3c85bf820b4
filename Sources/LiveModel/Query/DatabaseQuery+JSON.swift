// DatabaseQuery+JSON.swift — a query as one JSON value that says all of
// it (REST parameters cannot: a bound's key, an exclusive bound, a limit
// beside an inexact bound).

extension DatabaseQuery {
    /// The query as `[order, start, end, limit]`: the order as
    /// ``QueryOrder/description`` (`"$key"`, `"$value"`, `"$priority"` or
    /// a child path), each bound `[value, key or null, inclusive]` or null,
    /// the limit `["first" or "last", n]` or null.
    package var json: JSONValue {
        func bound(_ b: Bound?) -> JSONValue {
            guard let b else { return .null }
            return .array([b.value, b.key.map { .string($0.string) } ?? .null, .bool(b.isInclusive)])
        }
        let limit: JSONValue
        switch self.limit {
        case .first(let n)?: limit = .array(["first", .number(Double(n))])
        case .last(let n)?: limit = .array(["last", .number(Double(n))])
        case nil: limit = .null
        }
        return .array([.string(order.description), bound(start), bound(end), limit])
    }

    /// The query ``json`` describes, checked as ``validated()`` checks one.
    /// - Throws: ``QueryError`` naming what is wrong.
    package init(json: JSONValue) throws(QueryError) {
        guard case .array(let parts) = json, parts.count == 4, let orderText = parts[0].stringValue else {
            throw QueryError("a query is [order, start, end, limit]")
        }
        let order: QueryOrder
        switch orderText {
        case "$key": order = .key
        case "$value": order = .value
        case "$priority": order = .priority
        default:
            guard let path = try? DatabasePath(orderText), !path.isRoot else { throw QueryError("order \(orderText) is not a path") }
            order = .child(path)
        }
        func bound(_ value: JSONValue) throws(QueryError) -> Bound? {
            if value.isNull { return nil }
            guard case .array(let b) = value, b.count == 3, let inclusive = b[2].boolValue else {
                throw QueryError("a bound is [value, key or null, inclusive]")
            }
            var key: Key?
            if !b[1].isNull {
                guard let text = b[1].stringValue, let k = try? Key(text) else { throw QueryError("a bound's key is not a key") }
                key = k
            }
            return Bound(value: b[0], key: key, isInclusive: inclusive)
        }
        var limit: Limit?
        if !parts[3].isNull {
            guard case .array(let l) = parts[3], l.count == 2, let n = l[1].numberValue, n >= 0, n <= 1e15,
                  n == n.rounded(), let side = l[0].stringValue, side == "first" || side == "last"
            else { throw QueryError("a limit is [first or last, n]") }
            limit = side == "first" ? .first(Int(n)) : .last(Int(n))
        }
        self = try DatabaseQuery(order: order, start: bound(parts[1]), end: bound(parts[2]), limit: limit).validated()
    }
}
