// WrittenValue.swift — an `Encodable` value as the database stores it, for
// a write: the whole value, an update's paths, or where a model goes.
import LiveCollection
import LiveModel

extension JSONValue {
    /// `value` as the database would store it, for a write. A model
    /// (``LiveModelProtocol``), wherever it is in the value, is written
    /// without its key's member (`identifierMemberName`):
    /// the key is where it goes.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` naming what could not
    ///   be encoded and where (a non-finite number, or the value's own
    ///   error).
    /// - Complexity: O(size of the encoded value).
    static func written<Value: Encodable>(_ value: Value) throws(DatabaseError) -> JSONValue {
        var encoder = JSONValueEncoder()
        encoder.omitsModelKeys = true
        do {
            return try encoder.encode(value)
        } catch let error as EncodingError {
            throw .invalidValue("\(Value.self) cannot be written: \(Self.describe(error))")
        } catch {
            throw .invalidValue("\(Value.self) cannot be written: \(error)")
        }
    }

    /// What an encoding error says, and where in the value.
    private static func describe(_ error: EncodingError) -> String {
        guard case .invalidValue(_, let context) = error else { return "\(error)" }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? context.debugDescription : "at \(path): \(context.debugDescription)"
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

    /// Each value of `values`, encoded, at its path. A `JSONValue` stays as
    /// it is (`null` removes).
    static func updates<Value: Encodable>(_ values: [DatabasePath: Value]) throws(DatabaseError) -> [DatabasePath: JSONValue] {
        var updates: [DatabasePath: JSONValue] = [:]
        updates.reserveCapacity(values.count)
        for (path, value) in values { updates[path] = try written(value) }
        return updates
    }
}

extension DatabasePath {
    /// Where `model` is written: its key, below `path`.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` when the key cannot be
    ///   a child there (the path would be too deep).
    static func of<Model: LiveModelProtocol>(_ model: Model, under path: DatabasePath = .root) throws(DatabaseError) -> DatabasePath {
        do {
            return try path.child(model.identifier)
        } catch {
            throw .invalidValue("\(Model.self) \(model.identifier) cannot be written below \(path): \(error.description)")
        }
    }
}
