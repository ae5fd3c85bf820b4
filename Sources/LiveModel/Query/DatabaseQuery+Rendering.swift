// DatabaseQuery+Rendering.swift — a query written as REST API parameters.

extension DatabaseQuery {
    /// The REST parameters that ask the server for this query's children.
    ///
    /// Values are JSON-encoded (`orderBy="score"`, `startAt=10`). The REST
    /// API has neither a key tie-break nor `startAfter` / `endBefore`, so a
    /// bound that uses one is sent as the inclusive bound of its value (a
    /// superset) and the client applies the exact bound. A limit is sent only
    /// when both bounds are exact; otherwise the server returns the whole
    /// range and the client keeps the window. Either way the result the
    /// client shows is exactly Firebase's.
    /// - Complexity: O(size of the bound values).
    public var restParameters: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        if order != .priority || start != nil || end != nil || limit != nil {
            items.append(("orderBy", JSONValue.string(order.description).jsonText()))
        }
        if let start { items.append(("startAt", start.value.jsonText())) }
        if let end { items.append(("endAt", end.value.jsonText())) }
        if serverAppliesLimit, let limit {
            switch limit {
            case .first(let n): items.append(("limitToFirst", String(n)))
            case .last(let n): items.append(("limitToLast", String(n)))
            }
        }
        return items
    }

    /// The parameters of a stream of this query: ``restParameters`` and
    /// `format=export`, so priorities arrive with the data (the default
    /// order and `orderByPriority` need them).
    public var streamParameters: [(name: String, value: String)] {
        restParameters + [("format", "export")]
    }

    /// Whether the server's answer is exactly the query's result (its bounds
    /// are expressible in the REST API), so the server keeps the window.
    package var serverAppliesLimit: Bool {
        [start, end].allSatisfy { $0 == nil || ($0!.isInclusive && $0!.key == nil) }
    }
}
