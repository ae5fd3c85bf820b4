/// A model object kept in a live collection: something with an identity
/// (the child's ``Key``) whose content can be read and refreshed from the
/// child's value.
///
/// This is the protocol CWCollection called `CWCollectionModelProtocol`
/// (`identifier`, `dictionary`, `updateWithDictionary:`), with the
/// initialiser its models had (`initWithIdentifier:andDictionary:`). The
/// collection creates a model when a child is added and calls
/// ``update(with:)`` when the child changes, so a model that is a class
/// keeps its identity (and any view bound to it) across changes.
///
/// ## Codable models
/// A type that is `Codable` gets every requirement but ``identifier`` for
/// free. The child's key is visible to `init(from:)` as the member named
/// ``identifierMemberName`` (`"identifier"` unless you say otherwise), and
/// that member is left out of ``dictionary``:
///
/// ```swift
/// struct Message: LiveModelProtocol, Codable {
///     var identifier: Key
///     var text: String
///     var likes: Int?
/// }
/// let message = try Message(snapshot: snapshot)
/// ```
///
/// ## Isolation
/// Models need not be `Sendable`, but their conformance may not be isolated
/// to an actor (the protocol refines `SendableMetatype`): a large load makes
/// models from snapshots on a background executor.
public protocol LiveModelProtocol: SendableMetatype {
    /// The key of the child this model stands for. It never changes.
    var identifier: Key { get }

    /// The model's content as the database would store it: the value
    /// written back for this child.
    ///
    /// A conforming type may implement it without `throws`.
    /// - Throws: Any error, when the model cannot be expressed as a value
    ///   (for `Encodable` models, an `EncodingError` for a non-finite number).
    var dictionary: JSONValue { get throws }

    /// Creates the model for the child `identifier` whose value is
    /// `dictionary`.
    /// - Throws: Any error, when the value does not describe a model.
    init(identifier: Key, dictionary: JSONValue) throws

    /// Refreshes the model from the child's new value, keeping its identity.
    /// - Throws: Any error, when the value does not describe a model; the
    ///   model should then be left as it was.
    mutating func update(with dictionary: JSONValue) throws

    /// The member of the value that carries the key for `Codable` models.
    static var identifierMemberName: String { get }
}

extension LiveModelProtocol {
    /// `"identifier"`: the member that carries the key unless a model
    /// names another.
    public static var identifierMemberName: String { "identifier" }

    /// Creates the model for a child snapshot.
    /// - Throws: `DecodingError.valueNotFound` if the snapshot has no key
    ///   (the database root), or what ``init(identifier:dictionary:)``
    ///   throws.
    /// - Complexity: Reads the snapshot's whole value.
    public init(snapshot: Snapshot) throws {
        guard let key = snapshot.key else {
            throw DecodingError.valueNotFound(Key.self, .init(
                codingPath: [], debugDescription: "The snapshot has no key (it is the database root)."))
        }
        try self.init(identifier: key, dictionary: snapshot.value)
    }

    /// Refreshes the model from a child snapshot of the same key.
    public mutating func update(with snapshot: Snapshot) throws {
        try update(with: snapshot.value)
    }
}

extension LiveModelProtocol where Self: Decodable {
    /// Decodes the model with ``JSONValueDecoder``, the key given as the
    /// member ``identifierMemberName`` of an object value (unless the value
    /// has that member already).
    public init(identifier: Key, dictionary: JSONValue) throws {
        var value = dictionary
        if case .object(var members) = value, members[Self.identifierMemberName] == nil {
            value = .null
            members[Self.identifierMemberName] = .string(identifier.string)
            value = .object(members)
        }
        self = try JSONValueDecoder().decode(Self.self, from: value)
    }

    /// Decodes a new model from `dictionary` with the same identifier and
    /// replaces this one only if that succeeds.
    public mutating func update(with dictionary: JSONValue) throws {
        self = try Self(identifier: identifier, dictionary: dictionary)
    }
}

extension LiveModelProtocol where Self: Encodable {
    /// The model encoded with ``JSONValueEncoder``, without the member
    /// ``identifierMemberName``.
    /// - Throws: `EncodingError.invalidValue` for a non-finite number, which
    ///   the database cannot store, or what `encode(to:)` throws.
    public var dictionary: JSONValue {
        get throws {
            let encoded = try JSONValueEncoder().encode(self)
            guard case .object(var members) = encoded else { return encoded }
            members[Self.identifierMemberName] = nil
            return .object(members)
        }
    }
}
