// DatabaseClient+Write.swift — writing: set, update, push and remove, the
// first and last optionally conditional on an ETag.
import Foundation
import LiveModel

extension DatabaseClient {
    /// Replaces the data at `path` with `value` (`PUT`); `null` removes it.
    ///
    /// `value` may carry priorities in the export format (a `".priority"`
    /// member, or `{".value": v, ".priority": p}` for a primitive) and
    /// server values (`{".sv": "timestamp"}`).
    ///
    /// - Parameters:
    ///   - value: The new data.
    ///   - path: The location, relative to the reference.
    ///   - etag: Write only if the value there still has this ETag (from
    ///     ``getWithETag(_:)`` or a previous write).
    /// - Returns: The ETag of the value now at `path`, when the server sends
    ///   it.
    /// - Throws: ``DatabaseError/etagMismatch(currentETag:currentValue:)``
    ///   when `etag` no longer matches (nothing is written);
    ///   ``DatabaseError/invalidValue(_:)`` for a value the database cannot
    ///   store (a non-finite number, an invalid key); any error of a request.
    /// - Complexity: One request; O(size of the value) to encode it.
    @discardableResult
    public func set(_ value: JSONValue, at path: DatabasePath = .root, ifMatch etag: String? = nil)
        async throws(DatabaseError) -> String?
    {
        try RESTValueCheck.check(value)
        return try await write("PUT", path: path, body: Data(value.jsonBytes()), ifMatch: etag).etag
    }

    /// Replaces the data at `path` with `value` and gives it `priority` (no
    /// priority when `nil`); see ``set(_:at:ifMatch:)-(JSONValue,_,_)``.
    @discardableResult
    public func set(_ value: JSONValue, priority: Priority?, at path: DatabasePath = .root, ifMatch etag: String? = nil)
        async throws(DatabaseError) -> String?
    {
        try await set(RESTValueCheck.withPriority(value, priority), at: path, ifMatch: etag)
    }

    /// Writes several locations below `path` at once (`PATCH`): each key of
    /// `values` is a path relative to `path` whose data is replaced (`null`
    /// removes it); locations not named keep their data. Either every
    /// location is written or none.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` for the root as a key or
    ///   a value the database cannot store; the server refuses (`400`) two
    ///   keys of which one is inside the other; any error of a request.
    /// - Complexity: One request; O(total size of the values).
    public func update(_ values: [DatabasePath: JSONValue], at path: DatabasePath = .root) async throws(DatabaseError) {
        // Member names stay exactly as given, even two that differ only by
        // Unicode canonical equivalence (see JSONObject).
        var body = JSONObject(minimumCapacity: values.count)
        for (relative, value) in values {
            guard !relative.isRoot else { throw .invalidValue("an update cannot name the location itself (\"/\")") }
            try RESTValueCheck.check(value, at: relative.description)
            body[relative.relativeText] = value
        }
        _ = try await write("PATCH", path: path, body: Data(JSONValue.object(body).jsonBytes()), ifMatch: nil)
    }

    /// Adds `value` at a new child of `path` (`POST`), named by a push id
    /// that sorts after every id given before.
    /// - Returns: The new child's key.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` as ``set(_:at:ifMatch:)-(JSONValue,_,_)``;
    ///   ``DatabaseError/invalidResponse(_:)`` when the answer names no valid
    ///   key; any error of a request.
    /// - Complexity: One request; O(size of the value).
    @discardableResult
    public func push(_ value: JSONValue, at path: DatabasePath = .root) async throws(DatabaseError) -> Key {
        try RESTValueCheck.check(value)
        let absolute = try absolute(path)
        let response = try await send(RESTClientRequest(method: "POST", path: absolute, body: Data(value.jsonBytes())))
        guard case .object(let members) = try response.json(), case .string(let name)? = members["name"],
              let key = try? Key(name) else {
            throw .invalidResponse("the answer to a push from \(response.url) names no valid key")
        }
        return key
    }

    /// Removes the data at `path` (`DELETE`); removing nothing succeeds.
    /// - Parameters:
    ///   - path: The location, relative to the reference.
    ///   - etag: Remove only if the value there still has this ETag (from
    ///     ``getWithETag(_:)`` or a previous write).
    /// - Throws: ``DatabaseError/etagMismatch(currentETag:currentValue:)``
    ///   when `etag` no longer matches (nothing is removed); any error of a
    ///   request.
    /// - Complexity: One request.
    public func remove(at path: DatabasePath = .root, ifMatch etag: String? = nil) async throws(DatabaseError) {
        _ = try await write("DELETE", path: path, body: nil, ifMatch: etag)
    }

    /// Sends a write. Without a condition the answer is silent
    /// (`print=silent`); a conditional write asks for the value, so that a
    /// mismatch comes with the current one. A `PUT` asks for the new ETag.
    private func write(_ method: String, path: DatabasePath, body: Data?, ifMatch etag: String?)
        async throws(DatabaseError) -> RESTClientResponse
    {
        let absolute = try absolute(path)
        var request = RESTClientRequest(method: method, path: absolute, body: body)
        if method == "PUT" { request.headers.append(("X-Firebase-ETag", "true")) }
        if let etag {
            request.headers.append(("if-match", etag))
        } else {
            request.parameters.append(("print", "silent"))
        }
        return try await send(request)
    }
}
