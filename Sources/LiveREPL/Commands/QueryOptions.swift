// QueryOptions.swift — the query and sections, as options on the command
// line and after the `query` command.

import ArgumentParser
import LiveFirebase
import LiveModel

/// The query (order, bounds, limit) and the sections, as options. The same
/// options start the REPL and follow its `query` command.
public struct QueryOptions: ParsableArguments, Sendable {
    /// What children are ordered by: `$priority` (the default), `$key`,
    /// `$value`, or a child path.
    @Option(name: .customLong("order-by"),
            help: "What children are ordered by: a child path, $key, $value or $priority.")
    public var orderBy: String = "$priority"

    /// Keep only the first this many children (`limitToFirst`).
    @Option(name: .customLong("limit-first"), help: "Keep the first N children (limitToFirst).")
    public var limitFirst: Int?

    /// Keep only the last this many children (`limitToLast`).
    @Option(name: .customLong("limit-last"), help: "Keep the last N children (limitToLast).")
    public var limitLast: Int?

    // Options that take a JSON value take the next argument whatever it
    // starts with: a bound below zero is `--start-at -1`.

    /// The JSON text of the lower bound (`startAt`).
    @Option(name: .customLong("start-at"), parsing: .unconditional, help: "Keep children from this JSON value on (startAt).")
    public var startAt: String?

    /// The JSON text of the upper bound (`endAt`).
    @Option(name: .customLong("end-at"), parsing: .unconditional, help: "Keep children up to this JSON value (endAt).")
    public var endAt: String?

    /// The JSON text of the only value kept (`equalTo`).
    @Option(name: .customLong("equal-to"), parsing: .unconditional, help: "Keep children of exactly this JSON value (equalTo).")
    public var equalTo: String?

    /// The child path whose values are the sections; nil for one section.
    @Option(name: .customLong("section-by"),
            help: "Group rows into sections by the value of this child path (missing is null).")
    public var sectionBy: String?

    /// The conditions every child shown meets (`PATH OP JSON`, see
    /// ``ChildCondition``); filtered on the client, after the query.
    @Option(name: .customLong("where"), parsing: .unconditionalSingleValue,
            help: "Show only children whose value at a path compares so with a JSON value: 'PATH OP JSON', OP one of == != < <= > >= in Firebase's order of values; repeat to require several. Filtered here, after the query.")
    public var conditions: [String] = []

    /// The default options: priority order, no bounds, no limit, no
    /// conditions, one section.
    public init() {}

    /// The order the options name.
    /// - Throws: ``REPLError/invalidQuery(_:)`` when ``orderBy`` is not a
    ///   valid path.
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
    /// - Throws: ``REPLError/invalidQuery(_:)`` for a bad order, a bound
    ///   that is not JSON, a limit below 1, or options that exclude each
    ///   other.
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
        do { return try query.validated() } catch { throw .invalidQuery(error.reason) }
    }

    /// The section path, if sections are asked for.
    /// - Throws: ``REPLError/invalidQuery(_:)`` when ``sectionBy`` is not a
    ///   valid path.
    public func sectionPath() throws(REPLError) -> DatabasePath? {
        guard let sectionBy else { return nil }
        do { return try DatabasePath(sectionBy) } catch {
            throw .invalidQuery("--section-by \(sectionBy.debugDescription): \(error)")
        }
    }

    /// The client-side filter the ``conditions`` describe; nil without
    /// conditions.
    /// - Throws: ``REPLError/invalidQuery(_:)`` for a condition that does
    ///   not parse (see ``ChildCondition/init(parsing:)``).
    public func filter() throws(REPLError) -> (@Sendable (Snapshot) -> Bool)? {
        guard !conditions.isEmpty else { return nil }
        var parsed: [ChildCondition] = []
        for text in conditions { parsed.append(try ChildCondition(parsing: text)) }
        return { [parsed] child in parsed.allSatisfy { $0.holds(for: child) } }
    }

    private static func bound(_ text: String, _ option: String) throws(REPLError) -> JSONValue {
        do { return try JSONValue(parsing: text) } catch {
            throw .invalidQuery("\(option) \(text.debugDescription) is not JSON: \(error.message) at column \(error.column)")
        }
    }
}

extension QueryOptions {
    /// Whether no option is given: priority order, no bounds, no limit,
    /// no conditions, one section.
    public var isDefault: Bool {
        orderBy == "$priority" && limitFirst == nil && limitLast == nil && startAt == nil && endAt == nil
            && equalTo == nil && sectionBy == nil && conditions.isEmpty
    }
}

extension QueryOptions: Equatable {
    /// Whether every option is the same.
    public static func == (a: QueryOptions, b: QueryOptions) -> Bool {
        a.orderBy == b.orderBy && a.limitFirst == b.limitFirst && a.limitLast == b.limitLast
            && a.startAt == b.startAt && a.endAt == b.endAt && a.equalTo == b.equalTo && a.sectionBy == b.sectionBy
            && a.conditions == b.conditions
    }
}
