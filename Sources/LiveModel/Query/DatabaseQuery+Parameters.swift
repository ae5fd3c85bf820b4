// DatabaseQuery+Parameters.swift — a query read from a REST request's
// parameters, as the Realtime Database reads them.

extension DatabaseQuery {
    /// The query parameters a request may carry, as ``init(parameters:)``
    /// reads them.
    package static let parameterNames: [String] = ["orderBy", "limitToFirst", "limitToLast"]
        + boundNames + boundNames.map { $0 + "Key" }

    /// The parameters that bound the range, each with a `…Key` tie-break.
    static let boundNames = ["startAt", "startAfter", "endAt", "endBefore", "equalTo"]

    /// Reads the query of a REST request.
    ///
    /// Values are JSON, already percent-decoded: `orderBy` is `"$key"`,
    /// `"$value"`, `"$priority"` or a child path such as `"a/b"`;
    /// `limitToFirst` and `limitToLast` are non-negative integers;
    /// `startAt`, `startAfter`, `endAt`, `endBefore` and `equalTo` are
    /// JSON primitives (strings under `"$key"`; `null`, numbers and strings
    /// under `"$priority"`); `startAtKey`, `startAfterKey`, `endAtKey`,
    /// `endBeforeKey` and `equalToKey` are strings holding a key that breaks
    /// ties among children of the bound's value (not under `"$key"`).
    /// Other parameters are ignored.
    /// - Returns: `nil` when the request carries no query parameter.
    /// - Throws: ``QueryError`` naming the offending parameter, worded as
    ///   the Realtime Database words it.
    /// - Complexity: O(length of the parameters).
    public init?(parameters: [String: String]) throws(QueryError) {
        guard DatabaseQuery.parameterNames.contains(where: { parameters[$0] != nil }) else { return nil }
        guard let orderText = parameters["orderBy"] else {
            throw QueryError("orderBy must be defined when other query parameters are defined")
        }
        let order = try DatabaseQuery.order(orderText)

        let first = try parameters["limitToFirst"].map { text throws(QueryError) in
            try DatabaseQuery.limit(text, name: "limitToFirst")
        }
        let last = try parameters["limitToLast"].map { text throws(QueryError) in
            try DatabaseQuery.limit(text, name: "limitToLast")
        }
        if first != nil, last != nil {
            throw QueryError("limitToFirst and limitToLast cannot both be defined")
        }

        var bounds: [String: Bound] = [:]
        for name in DatabaseQuery.boundNames {
            bounds[name] = try DatabaseQuery.bound(name, in: parameters, order: order)
        }
        if bounds["startAt"] != nil, bounds["startAfter"] != nil {
            throw QueryError("startAt and startAfter cannot both be defined")
        }
        if bounds["endAt"] != nil, bounds["endBefore"] != nil {
            throw QueryError("endAt and endBefore cannot both be defined")
        }
        if let equal = bounds["equalTo"] {
            guard bounds.count == 1 else {
                throw QueryError("equalTo cannot be defined with startAt, startAfter, endAt or endBefore")
            }
            bounds["startAt"] = equal
            bounds["endAt"] = equal
        }
        self.init(order: order,
                  start: bounds["startAt"] ?? bounds["startAfter"],
                  end: bounds["endAt"] ?? bounds["endBefore"],
                  limit: first.map(Limit.first) ?? last.map(Limit.last))
    }

    private static func order(_ text: String) throws(QueryError) -> QueryOrder {
        let invalid = QueryError("orderBy must be a valid JSON encoded path")
        guard case .string(let name)? = try? JSONValue(parsing: text) else { throw invalid }
        switch name {
        case "$key": return .key
        case "$value": return .value
        case "$priority": return .priority
        default:
            guard let path = try? DatabasePath(name), !path.isRoot else { throw invalid }
            return .child(path)
        }
    }

    private static func limit(_ text: String, name: String) throws(QueryError) -> Int {
        guard case .number(let d)? = try? JSONValue(parsing: text), d >= 0, d <= 9_007_199_254_740_992,
              d.rounded(.towardZero) == d
        else {
            throw QueryError("\(name) must be a non-negative integer")
        }
        return Int(d)
    }

    /// The bound `name` (`startAt`, …) with its `…Key` tie-break, or `nil`
    /// when the request has neither.
    private static func bound(_ name: String, in parameters: [String: String], order: QueryOrder)
        throws(QueryError) -> Bound?
    {
        let keyName = name + "Key"
        guard let text = parameters[name] else {
            if parameters[keyName] != nil { throw QueryError("\(keyName) must be defined with \(name)") }
            return nil
        }
        guard let value = try? JSONValue(parsing: text) else {
            throw QueryError("\(name) must be a valid JSON encoded value")
        }
        switch (order, value) {
        case (_, .array), (_, .object):
            throw QueryError("\(name) must be a JSON primitive: null, true, false, a number or a string")
        case (.key, .null), (.key, .bool), (.key, .number):
            throw QueryError("\(name) must be a string when orderBy is \"$key\"")
        case (.priority, .bool):
            throw QueryError("\(name) must be null, a number or a string when orderBy is \"$priority\"")
        default:
            break
        }
        let inclusive = name == "startAt" || name == "endAt" || name == "equalTo"
        guard let keyText = parameters[keyName] else {
            return Bound(value: value, isInclusive: inclusive)
        }
        if order == .key {
            throw QueryError("\(keyName) cannot be defined when orderBy is \"$key\"")
        }
        guard case .string(let keyString)? = try? JSONValue(parsing: keyText) else {
            throw QueryError("\(keyName) must be a JSON encoded string")
        }
        do {
            return Bound(value: value, key: try Key(keyString), isInclusive: inclusive)
        } catch {
            throw QueryError("\(keyName) must be a valid key: \(error.description)")
        }
    }
}
