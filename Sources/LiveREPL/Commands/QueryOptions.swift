// QueryOptions.swift — the query and sections, as options on the command
// line and after the `query` command.

import ArgumentParser
import LiveFirebase
import LiveModel

/// The query (order, bounds, limit) and the sections, as options. The same
/// options start the REPL and follow its `query` command.
public struct QueryOptions: ParsableArguments, Sendable {
    @Option(name: .customLong("order-by"),
            help: "What children are ordered by: a child path, $key, $value or $priority.")
    public var orderBy: String = "$priority"

    @Option(name: .customLong("limit-first"), help: "Keep the first N children (limitToFirst).")
    public var limitFirst: Int?

    @Option(name: .customLong("limit-last"), help: "Keep the last N children (limitToLast).")
    public var limitLast: Int?

    @Option(name: .customLong("start-at"), help: "Keep children from this JSON value on (startAt).")
    public var startAt: String?

    @Option(name: .customLong("end-at"), help: "Keep children up to this JSON value (endAt).")
    public var endAt: String?

    @Option(name: .customLong("equal-to"), help: "Keep children of exactly this JSON value (equalTo).")
    public var equalTo: String?

    @Option(name: .customLong("section-by"),
            help: "Group rows into sections by the value of this child path (missing is null).")
    public var sectionBy: String?

    public init() {}

    /// The order the options name.
    public func order() throws(REPLError) -> QueryOrder {
        switch orderBy {
        case "$key": return .key
        case "$value": return .value
        case "$priority": return .priority
        default:
            do { return .child(try DatabasePath(orderBy)) } catch {
                throw .invalidQuery("--order-by \(orderBy.debugDescription): \(error)")
            }
        }
    }

    /// The query the options describe, checked as Firebase checks it.
    public func query() throws(REPLError) -> DatabaseQuery {
        var query = DatabaseQuery(order: try order())
        if limitFirst != nil, limitLast != nil { throw .invalidQuery("--limit-first and --limit-last exclude each other") }
        if equalTo != nil, startAt != nil || endAt != nil {
            throw .invalidQuery("--equal-to excludes --start-at and --end-at")
        }
        if let n = limitFirst {
            guard n > 0 else { throw .invalidQuery("--limit-first must be at least 1, not \(n)") }
            query = query.limited(toFirst: n)
        }
        if let n = limitLast {
            guard n > 0 else { throw .invalidQuery("--limit-last must be at least 1, not \(n)") }
            query = query.limited(toLast: n)
        }
        if let text = startAt { query = query.starting(at: try Self.bound(text, "--start-at")) }
        if let text = endAt { query = query.ending(at: try Self.bound(text, "--end-at")) }
        if let text = equalTo { query = query.equal(to: try Self.bound(text, "--equal-to")) }
        do { return try query.validated() } catch { throw .invalidQuery(Self.reason(error)) }
    }

    /// The section path, if sections are asked for.
    public func sectionPath() throws(REPLError) -> DatabasePath? {
        guard let sectionBy else { return nil }
        do { return try DatabasePath(sectionBy) } catch {
            throw .invalidQuery("--section-by \(sectionBy.debugDescription): \(error)")
        }
    }

    private static func bound(_ text: String, _ option: String) throws(REPLError) -> JSONValue {
        do { return try JSONValue(parsing: text) } catch {
            throw .invalidQuery("\(option) \(text.debugDescription) is not JSON: \(error.message) at column \(error.column)")
        }
    }

    private static func reason(_ error: DatabaseError) -> String {
        if case .invalidQuery(let reason) = error { return reason }
        return error.description
    }
}

extension QueryOptions: Equatable {
    public static func == (a: QueryOptions, b: QueryOptions) -> Bool {
        a.orderBy == b.orderBy && a.limitFirst == b.limitFirst && a.limitLast == b.limitLast
            && a.startAt == b.startAt && a.endAt == b.endAt && a.equalTo == b.equalTo && a.sectionBy == b.sectionBy
    }
}
