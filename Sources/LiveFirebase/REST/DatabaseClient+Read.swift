// DatabaseClient+Read.swift — reading a location: whole, by query, shallow,
// or with its ETag.
import Foundation
import LiveModel

extension DatabaseClient {
    /// Reads the data at `path`, or the children a query selects.
    ///
    /// The data comes in the export format, so `Snapshot.priority` is set
    /// on every child that has one. With a query, each child's
    /// `Snapshot.sortValue` is its value under the query's order, and
    /// `Snapshot.orderedChildren()` lists them in query order. Bounds the
    /// REST API cannot express (`startAfter`, `endBefore`, key tie-breaks)
    /// are sent as a wider range and applied here, with the limit, so the
    /// children are exactly those Firebase's query gives.
    ///
    /// - Parameters:
    ///   - path: The location, relative to the reference.
    ///   - query: Which children to read; `nil` reads everything.
    /// - Returns: The snapshot; it does not exist when there is no data (or
    ///   no child in range).
    /// - Throws: ``DatabaseError/invalidQuery(_:)`` for a query Firebase
    ///   refuses, or any error of a request (see ``DatabaseClient``).
    /// - Complexity: One request; O(size of the answer) to parse it, plus
    ///   O(n log n) for n children when the query is applied here.
    public func get(_ path: DatabasePath = .root, query: DatabaseQuery? = nil) async throws(DatabaseError) -> Snapshot {
        let query = try query?.checked()
        let absolute = try absolute(path)
        let parameters = (query?.restParameters ?? []) + [("format", "export")]
        let response = try await send(RESTClientRequest(method: "GET", path: absolute, parameters: parameters))
        let snapshot = try response.snapshot(key: absolute.lastKey, order: query?.order ?? .priority)
        guard let query, !query.serverAppliesLimit else { return snapshot }
        return try RESTQueryWindow(query).apply(to: snapshot, body: response.body)
    }

    /// Reads the data at `path` with its ETag, for a conditional
    /// ``set(_:at:ifMatch:)-(JSONValue,_,_)`` or ``remove(at:ifMatch:)``.
    /// - Returns: The snapshot, and the ETag of the value (`"null_etag"`-like
    ///   when there is none, as the server words it).
    /// - Throws: ``DatabaseError/invalidResponse(_:)`` when the server sends
    ///   no ETag, or any error of a request.
    /// - Complexity: One request; O(size of the answer).
    public func getWithETag(_ path: DatabasePath = .root) async throws(DatabaseError) -> (snapshot: Snapshot, etag: String) {
        let absolute = try absolute(path)
        let response = try await send(RESTClientRequest(method: "GET", path: absolute, parameters: [("format", "export")],
                                                  headers: [("X-Firebase-ETag", "true")]))
        guard let etag = response.etag, !etag.isEmpty else {
            throw .invalidResponse("no ETag in the answer from \(response.url)")
        }
        return (try response.snapshot(key: absolute.lastKey, order: .priority), etag)
    }

    /// Reads the data at `path` without its depth (`shallow=true`): a
    /// primitive as it is, and for children only their keys, each with the
    /// value `true`.
    /// - Returns: The shallow snapshot; its `children` name the
    ///   children at `path`.
    /// - Throws: Any error of a request.
    /// - Complexity: One request; O(number of children).
    public func getShallow(_ path: DatabasePath = .root) async throws(DatabaseError) -> Snapshot {
        let absolute = try absolute(path)
        let response = try await send(RESTClientRequest(method: "GET", path: absolute, parameters: [("shallow", "true")]))
        return try response.snapshot(key: absolute.lastKey, order: .key)
    }
}
