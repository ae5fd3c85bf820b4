// RESTQueryWindow.swift — applying a query on the client to the superset a
// server answered with.
import Foundation
import LiveModel

/// A query applied to a snapshot exactly as Firebase applies it: the
/// children inside the bounds (key tie-breaks and exclusive bounds
/// included), then the limit window.
///
/// The REST API cannot express every query (see
/// ``DatabaseQuery/restParameters``): the server answers with a superset,
/// and this keeps the children the query selects.
struct RESTQueryWindow {
    let query: DatabaseQuery
    private let range: QueryRange

    init(_ query: DatabaseQuery) {
        self.query = query
        self.range = QueryRange(query)
    }

    /// The children of `snapshot` the query selects, as a snapshot of their
    /// own. `body` is the JSON text `snapshot` was parsed from: the
    /// children kept are copied from it as they are. A snapshot without
    /// children (a primitive) has none in range, as on the server.
    /// - Throws: ``DatabaseError/invalidResponse(_:)`` if the text cannot be
    ///   read again (it was already validated, so this does not happen).
    /// - Complexity: O(n log n) comparisons for n children, plus the length
    ///   of the text.
    func apply(to snapshot: Snapshot, body: Data) throws(DatabaseError) -> Snapshot {
        guard snapshot.hasChildren else { return .absent(key: snapshot.key) }
        let ordered = snapshot.orderedChildren()
        var kept = ordered.filter { child in child.key.map { range.contains(child.sortValue, $0) } ?? false }
        switch query.limit {
        case .first(let n)?: kept = Array(kept.prefix(n))
        case .last(let n)?: kept = Array(kept.suffix(n))
        case nil: break
        }
        if kept.count == ordered.count && snapshot.priority == nil { return snapshot }
        if kept.isEmpty { return .absent(key: snapshot.key) }

        let bytes = [UInt8](body)
        guard let members = RESTJSONMembers.scan(bytes) else {
            throw .invalidResponse("the children of a query's answer could not be read again")
        }
        var texts: [Key: Range<Int>] = [:]
        for member in members {
            texts[Key(unchecked: member.name)] = member.value
        }
        var out: [UInt8] = [UInt8(ascii: "{")]
        for (i, child) in kept.enumerated() {
            guard let key = child.key, let text = texts[key] else {
                throw .invalidResponse("the child \(child.key?.string ?? "?") of a query's answer could not be found again")
            }
            if i > 0 { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: JSONValue.string(key.string).jsonBytes())
            out.append(UInt8(ascii: ":"))
            out.append(contentsOf: bytes[text])
        }
        out.append(UInt8(ascii: "}"))
        do {
            return try Snapshot.parse(json: out, key: snapshot.key, order: query.order)
        } catch {
            throw .invalidResponse("the children of a query's answer could not be read again: \(error)")
        }
    }
}
