// TypedWrites.swift — writes of `Encodable` values, through a collection or
// the REST client: encoded into a JSONValue, then written as one.
import LiveCollection
import LiveModel

extension JSONValue {
    /// `value` as the database would store it, for a write.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` naming what could not
    ///   be encoded (a non-finite number, or the value's own error).
    /// - Complexity: O(size of the encoded value).
    /// A model (``LiveModelProtocol``) is written without its key's member
    /// (``LiveModelProtocol/identifierMemberName``): the key is where it
    /// goes.
    static func written<Value: Encodable>(_ value: Value) throws(DatabaseError) -> JSONValue {
        let encoded: JSONValue
        do {
            encoded = try JSONValueEncoder().encode(value)
        } catch {
            throw .invalidValue("\(Value.self) cannot be written: \(error)")
        }
        guard let model = Value.self as? any LiveModelProtocol.Type, case .object(var members) = encoded else {
            return encoded
        }
        members[model.identifierMemberName] = nil
        return .object(members)
    }

    /// The members of `value`, encoded, as the paths of an update: each
    /// member's name is a path relative to the update's location (`"a/b"`
    /// reaches below `a`). A `nil` optional member is left out, so it is not
    /// changed; write `JSONValue.null` in a `[DatabasePath: JSONValue]`
    /// update to remove one.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` when `value` is not
    ///   encoded as an object, or a member's name is not a valid path.
    /// - Complexity: O(size of the encoded value).
    static func updates<Value: Encodable>(_ value: Value) throws(DatabaseError) -> [DatabasePath: JSONValue] {
        if let paths = value as? [DatabasePath: JSONValue] { return paths }
        guard case .object(let members) = try written(value) else {
            throw .invalidValue("an update is written from an object's members, and \(Value.self) is not encoded as one")
        }
        var updates: [DatabasePath: JSONValue] = [:]
        updates.reserveCapacity(members.count)
        for (name, member) in members {
            do {
                updates[try DatabasePath(name)] = member
            } catch {
                throw .invalidValue("the member \"\(name)\" of \(Value.self) is not a path: \(error.description)")
            }
        }
        return updates
    }
}

extension JSONValue {
    /// Each value of `values`, encoded, at its path. A `JSONValue` stays as
    /// it is (`null` removes).
    static func updates<Value: Encodable>(_ values: [DatabasePath: Value]) throws(DatabaseError) -> [DatabasePath: JSONValue] {
        var updates: [DatabasePath: JSONValue] = [:]
        updates.reserveCapacity(values.count)
        for (path, value) in values { updates[path] = try written(value) }
        return updates
    }
}

extension FirebaseCollection {
    /// Writes `value`, encoded, at `path`; see ``set(_:at:ifMatch:)-(JSONValue,_,_)``.
    /// A member of type `ServerValue` (or a ``ServerTimestamp`` left nil)
    /// is filled in by the server.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` when `value` cannot be
    ///   encoded (nothing is shown or sent); as the untyped `set` after.
    /// - Complexity: O(size of the encoded value), then as ``write(_:)``.
    public func set<Value: Encodable>(_ value: Value, at path: DatabasePath = .root, ifMatch etag: String? = nil)
        async throws(DatabaseError)
    {
        try await set(JSONValue.written(value), at: path, ifMatch: etag)
    }

    /// Writes each member of `value`, encoded, at its name below `path`
    /// (an update: other children keep their data; a `nil` member is left
    /// as it is).
    /// - Throws: ``DatabaseError/invalidValue(_:)`` when `value` is not an
    ///   object or a member's name is not a path; as the untyped `update`.
    /// - Complexity: O(size of the encoded value), then as ``write(_:)``.
    public func update<Value: Encodable>(_ value: Value, at path: DatabasePath = .root) async throws(DatabaseError) {
        try await update(JSONValue.updates(value), at: path)
    }

    /// Writes each value of `values`, encoded, at its path below `path`
    /// (a `JSONValue` as it is: `null` removes); see
    /// ``update(_:at:)-([DatabasePath:JSONValue],_)``.
    /// - Complexity: O(size of the encoded values), then as ``write(_:)``.
    public func update<Value: Encodable>(_ values: [DatabasePath: Value], at path: DatabasePath = .root)
        async throws(DatabaseError)
    {
        try await update(JSONValue.updates(values), at: path)
    }

    /// Adds `value`, encoded, at a new push id below `path`; see
    /// ``push(_:at:)-(JSONValue,_)``.
    /// - Returns: The new child's key.
    /// - Complexity: O(size of the encoded value), then as ``write(_:)``.
    @discardableResult
    public func push<Value: Encodable>(_ value: Value, at path: DatabasePath = .root) async throws(DatabaseError) -> Key {
        try await push(JSONValue.written(value), at: path)
    }
}

extension DatabaseClient {
    /// Replaces the data at `path` with `value`, encoded; see
    /// ``set(_:at:ifMatch:)-(JSONValue,_,_)``.
    /// - Returns: The new value's ETag when `etag` was given.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` when `value` cannot be
    ///   encoded (nothing is sent); as the untyped `set` after.
    /// - Complexity: One request; O(size of the encoded value).
    @discardableResult
    public func set<Value: Encodable>(_ value: Value, at path: DatabasePath = .root, ifMatch etag: String? = nil)
        async throws(DatabaseError) -> String?
    {
        try await set(JSONValue.written(value), at: path, ifMatch: etag)
    }

    /// Writes each member of `value`, encoded, at its name below `path`, in
    /// one request; see ``update(_:at:)-([DatabasePath:JSONValue],_)``.
    /// - Complexity: One request; O(size of the encoded value).
    public func update<Value: Encodable>(_ value: Value, at path: DatabasePath = .root) async throws(DatabaseError) {
        try await update(JSONValue.updates(value), at: path)
    }

    /// Writes each value of `values`, encoded, at its path below `path`, in
    /// one request (a `JSONValue` as it is: `null` removes).
    /// - Complexity: One request; O(size of the encoded values).
    public func update<Value: Encodable>(_ values: [DatabasePath: Value], at path: DatabasePath = .root)
        async throws(DatabaseError)
    {
        try await update(JSONValue.updates(values), at: path)
    }

    /// Adds `value`, encoded, at a new push id below `path`; see
    /// ``push(_:at:)-(JSONValue,_)``.
    /// - Returns: The new child's key.
    /// - Complexity: One request; O(size of the encoded value).
    @discardableResult
    public func push<Value: Encodable>(_ value: Value, at path: DatabasePath = .root) async throws(DatabaseError) -> Key {
        try await push(JSONValue.written(value), at: path)
    }
}
