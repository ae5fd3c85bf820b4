// DatabaseQuery.swift — a Realtime Database query: an order, range bounds
// with an optional key tie-break, and a limit window. The one query type of
// the client and the server.

/// Which children of a location to show, and in which order: Firebase's
/// `orderBy…`, `startAt` / `startAfter` / `endAt` / `endBefore` /
/// `equalTo` (each with an optional key tie-break) and `limitToFirst` /
/// `limitToLast`.
///
/// ```swift
/// let top = DatabaseQuery(order: .child("score"))
///     .starting(at: .number(10))
///     .limited(toLast: 50)
/// ```
///
/// Build a query with the methods below, then call ``validated()`` (the
/// collection and the REST client do) to get a ``QueryError`` for anything
/// Firebase would refuse. A server reads one from a request's parameters
/// with ``init(parameters:)``, and a client writes one as parameters with
/// ``restParameters``.
public struct DatabaseQuery: Sendable, Hashable, CustomStringConvertible {
    /// A range bound: the post `(value, key)`.
    public struct Bound: Sendable, Hashable {
        /// The bound's value: null, a boolean, a number or a string (a key
        /// under `orderByKey`).
        public var value: JSONValue
        /// The key tie-break among children whose sort value equals ``value``.
        public var key: Key?
        /// `startAt` / `endAt` / `equalTo` include the bound; `startAfter` /
        /// `endBefore` do not.
        public var isInclusive: Bool

        /// The bound at `(value, key)`, inclusive unless `isInclusive` is false.
        public init(value: JSONValue, key: Key? = nil, isInclusive: Bool = true) {
            self.value = value
            self.key = key
            self.isInclusive = isInclusive
        }
    }

    /// A limit window.
    public enum Limit: Sendable, Hashable {
        /// The first `n` children in query order (`limitToFirst`).
        case first(Int)
        /// The last `n` children in query order (`limitToLast`).
        case last(Int)

        /// The number of children the window holds at most.
        public var count: Int {
            switch self {
            case .first(let n), .last(let n): return n
            }
        }
    }

    /// The order; `QueryOrder.priority` is Firebase's default.
    public var order: QueryOrder
    /// The lower bound, if any.
    public var start: Bound?
    /// The upper bound, if any.
    public var end: Bound?
    /// The limit window, if any.
    public var limit: Limit?

    /// A query with these parts; the default is every child in priority
    /// order. Call ``validated()`` to check it.
    public init(order: QueryOrder = .priority, start: Bound? = nil, end: Bound? = nil, limit: Limit? = nil) {
        self.order = order
        self.start = start
        self.end = end
        self.limit = limit
    }

    // MARK: Building

    /// The same query in another order.
    public func ordered(by order: QueryOrder) -> DatabaseQuery { with { $0.order = order } }
    /// Children at or after `(value, key)` (`startAt`).
    public func starting(at value: JSONValue, key: Key? = nil) -> DatabaseQuery {
        with { $0.start = Bound(value: value, key: key) }
    }
    /// Children after `(value, key)` (`startAfter`).
    public func starting(after value: JSONValue, key: Key? = nil) -> DatabaseQuery {
        with { $0.start = Bound(value: value, key: key, isInclusive: false) }
    }
    /// Children at or before `(value, key)` (`endAt`).
    public func ending(at value: JSONValue, key: Key? = nil) -> DatabaseQuery {
        with { $0.end = Bound(value: value, key: key) }
    }
    /// Children before `(value, key)` (`endBefore`).
    public func ending(before value: JSONValue, key: Key? = nil) -> DatabaseQuery {
        with { $0.end = Bound(value: value, key: key, isInclusive: false) }
    }
    /// Children equal to `(value, key)` (`equalTo`): both bounds.
    public func equal(to value: JSONValue, key: Key? = nil) -> DatabaseQuery {
        with {
            $0.start = Bound(value: value, key: key)
            $0.end = Bound(value: value, key: key)
        }
    }
    /// The first `n` children (`limitToFirst`).
    public func limited(toFirst n: Int) -> DatabaseQuery { with { $0.limit = .first(n) } }
    /// The last `n` children (`limitToLast`).
    public func limited(toLast n: Int) -> DatabaseQuery { with { $0.limit = .last(n) } }

    private func with(_ change: (inout DatabaseQuery) -> Void) -> DatabaseQuery {
        var copy = self
        change(&copy)
        return copy
    }

    // MARK: Validation

    /// The query, if Firebase would accept it.
    /// - Throws: ``QueryError``: a limit below 1; a
    ///   bound that is an array or object; under `orderByKey`, a bound that
    ///   is not a valid key string or that has a key tie-break; under
    ///   `orderByPriority`, a boolean bound.
    public func validated() throws(QueryError) -> DatabaseQuery {
        if let limit, limit.count < 1 { throw QueryError("the limit must be at least 1, not \(limit.count)") }
        for (name, bound) in [("start", start), ("end", end)] {
            guard let bound else { continue }
            switch bound.value {
            case .array, .object:
                throw QueryError("the \(name) bound must be null, a boolean, a number or a string")
            case .number(let d) where !d.isFinite:
                throw QueryError("the \(name) bound must be a finite number")
            default: break
            }
            switch order {
            case .key:
                guard case .string(let s) = bound.value, (try? Key(s)) != nil else {
                    throw QueryError("under orderByKey the \(name) bound must be a valid key string")
                }
                if bound.key != nil {
                    throw QueryError("under orderByKey a bound takes no key tie-break")
                }
            case .priority:
                if case .bool = bound.value {
                    throw QueryError("under orderByPriority the \(name) bound must be null, a number or a string")
                }
            case .value, .child: break
            }
        }
        return self
    }

    /// The query in Firebase's terms, such as
    /// `orderBy=score startAt(10) limitToLast(50)`.
    public var description: String {
        var parts = ["orderBy=\(order)"]
        func text(_ b: Bound) -> String { b.value.jsonText() + (b.key.map { ", key " + $0.string } ?? "") }
        if let start { parts.append((start.isInclusive ? "startAt(" : "startAfter(") + text(start) + ")") }
        if let end { parts.append((end.isInclusive ? "endAt(" : "endBefore(") + text(end) + ")") }
        switch limit {
        case .first(let n)?: parts.append("limitToFirst(\(n))")
        case .last(let n)?: parts.append("limitToLast(\(n))")
        case nil: break
        }
        return parts.joined(separator: " ")
    }
}
