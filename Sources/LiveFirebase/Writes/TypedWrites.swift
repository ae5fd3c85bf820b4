// TypedWrites.swift — writes of `Encodable` values and models, through a
// collection or the REST client: encoded into a JSONValue (see
// WrittenValue.swift), then written as one.
import LiveCollection
import LiveModel

extension FirebaseCollection {
    /// Writes `value`, encoded, at `path`; see ``set(_:at:ifMatch:)-(JSONValue,_,_)``.
    /// A member of type `ServerValue` (or a ``ServerTimestamp`` left nil)
    /// is filled in by the server. `path` has no default: a value is not
    /// written over the whole location by omission (a model is written at
    /// its key with ``set(_:ifMatch:)``).
    /// - Throws: ``DatabaseError/invalidValue(_:)`` when `value` cannot be
    ///   encoded (nothing is shown or sent); as the untyped `set` after.
    /// - Complexity: O(size of the encoded value), then as ``write(_:)``.
    public func set<Value: Encodable>(_ value: Value, at path: DatabasePath, ifMatch etag: String? = nil)
        async throws(DatabaseError)
    {
        try await set(JSONValue.written(value), at: path, ifMatch: etag)
    }

    /// Writes `model` at its key (its `identifier`),
    /// replacing what was there; see ``set(_:at:ifMatch:)-(Value,_,_)``.
    /// - Complexity: O(size of the encoded model), then as ``write(_:)``.
    public func set<Item: LiveModelProtocol & Encodable>(_ model: Item, ifMatch etag: String? = nil)
        async throws(DatabaseError)
    {
        try await set(JSONValue.written(model), at: DatabasePath.of(model), ifMatch: etag)
    }

    /// Writes each member of `value`, encoded, at its name below `path`
    /// (an update: other children keep their data; a `nil` member is left
    /// as it is).
    /// - Throws: ``DatabaseError/invalidValue(_:)`` when `value` is not an
    ///   object or a member's name is not a path; as the untyped `update`.
    /// - Complexity: O(size of the encoded value), then as ``write(_:)``.
    @_disfavoredOverload
    public func update<Value: Encodable>(_ value: Value, at path: DatabasePath) async throws(DatabaseError) {
        try await update(JSONValue.updates(value), at: path)
    }

    /// Writes each member of `model`, encoded, at its key (an update: its
    /// other members keep their data; a `nil` member is left as it is).
    /// - Complexity: O(size of the encoded model), then as ``write(_:)``.
    public func update<Item: LiveModelProtocol & Encodable>(_ model: Item) async throws(DatabaseError) {
        try await update(JSONValue.updates(model), at: DatabasePath.of(model))
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

    /// Adds `value`, encoded, at a new push id below `path` (a model
    /// without its key's member: the push id is its key); see
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
    /// ``set(_:at:ifMatch:)-(JSONValue,_,_)``. `path` has no default (a
    /// model is written at its key with ``set(_:ifMatch:)``).
    /// - Returns: The new value's ETag when `etag` was given.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` when `value` cannot be
    ///   encoded (nothing is sent); as the untyped `set` after.
    /// - Complexity: One request; O(size of the encoded value).
    @discardableResult
    public func set<Value: Encodable>(_ value: Value, at path: DatabasePath, ifMatch etag: String? = nil)
        async throws(DatabaseError) -> String?
    {
        try await set(JSONValue.written(value), at: path, ifMatch: etag)
    }

    /// Replaces the data at `model`'s key with it, encoded.
    /// - Returns: The new value's ETag when `etag` was given.
    /// - Complexity: One request; O(size of the encoded model).
    @discardableResult
    public func set<Item: LiveModelProtocol & Encodable>(_ model: Item, ifMatch etag: String? = nil)
        async throws(DatabaseError) -> String?
    {
        try await set(JSONValue.written(model), at: DatabasePath.of(model), ifMatch: etag)
    }

    /// Writes each member of `value`, encoded, at its name below `path`, in
    /// one request; see ``update(_:at:)-([DatabasePath:JSONValue],_)``.
    /// - Complexity: One request; O(size of the encoded value).
    @_disfavoredOverload
    public func update<Value: Encodable>(_ value: Value, at path: DatabasePath) async throws(DatabaseError) {
        try await update(JSONValue.updates(value), at: path)
    }

    /// Writes each member of `model`, encoded, at its key, in one request.
    /// - Complexity: One request; O(size of the encoded model).
    public func update<Item: LiveModelProtocol & Encodable>(_ model: Item) async throws(DatabaseError) {
        try await update(JSONValue.updates(model), at: DatabasePath.of(model))
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
