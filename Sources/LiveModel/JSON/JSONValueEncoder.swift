/// Encodes `Encodable` values into a ``JSONValue`` directly, without going
/// through JSON text: the counterpart of ``JSONValueDecoder``.
///
/// - Every number becomes a double (``JSONValue/number(_:)``): integers
///   beyond 2^53 lose precision, as they do in the database.
/// - NaN and infinities throw `EncodingError.invalidValue`: the database
///   cannot store them.
/// - Member names are kept as the coding keys give them, code unit for code
///   unit: keys that are canonically equivalent (`[Key: T]` with `"é"` and
///   `"e\u{301}"`) stay two members.
/// - A `nil` optional member is left out (Firebase does not store `null`).
public struct JSONValueEncoder: Sendable {
    /// Values the encoded types can read from `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]
    /// Whether a model (``LiveModelProtocol``) is encoded without the member
    /// that carries its key (``LiveModelProtocol/identifierMemberName``),
    /// wherever it is in the value: how a model is written, at its key.
    package var omitsModelKeys = false

    /// Creates an encoder.
    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.userInfo = userInfo
    }

    /// Encodes `value`.
    /// - Throws: `EncodingError` for a non-finite number, or whatever
    ///   `value`'s `encode(to:)` throws.
    /// - Complexity: O(size of the encoded value).
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        if let value = value as? JSONValue { return value }
        let node = EncodingNode()
        try value.encode(to: JSONValueEncoderImpl(node: node, codingPath: [], userInfo: userInfo,
                                                  omitsModelKeys: omitsModelKeys))
        if omitsModelKeys { node.omitKey(of: T.self) }
        return node.materialize()
    }
}

/// A value under construction: containers hand out child nodes and the
/// whole tree becomes a ``JSONValue`` at the end.
final class EncodingNode {
    enum Kind { case empty, value, object, array }
    var kind = Kind.empty
    var value = JSONValue.null
    /// Keyed by exact code units, as ``JSONObject`` is.
    var members: [JSONObject.Name: EncodingNode] = [:]
    var elements: [EncodingNode] = []

    func set(_ value: JSONValue) {
        kind = .value
        self.value = value
    }

    /// Removes the member that carries a model's key, when `type` is a
    /// model and this node an object.
    func omitKey<T>(of type: T.Type) {
        guard kind == .object, let model = type as? any LiveModelProtocol.Type else { return }
        members[JSONObject.Name(model.identifierMemberName)] = nil
    }

    func materialize() -> JSONValue {
        switch kind {
        // A type that encoded nothing is an empty object, as in JSONEncoder.
        case .empty: return .object([:])
        case .value: return value
        case .object:
            var object = JSONObject(minimumCapacity: members.count)
            for (name, node) in members { object.storage[name] = node.materialize() }
            return .object(object)
        case .array: return .array(elements.map { $0.materialize() })
        }
    }
}

/// The `Encoder` handed to `encode(to:)`; also its own single-value
/// container.
final class JSONValueEncoderImpl: Encoder, SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    let sendableUserInfo: [CodingUserInfoKey: any Sendable]
    let omitsModelKeys: Bool

    init(node: EncodingNode, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable],
         omitsModelKeys: Bool = false) {
        self.node = node
        self.codingPath = codingPath
        self.sendableUserInfo = userInfo
        self.omitsModelKeys = omitsModelKeys
    }

    var userInfo: [CodingUserInfoKey: Any] { sendableUserInfo }

    func nested(_ node: EncodingNode, key: any CodingKey) -> JSONValueEncoderImpl {
        JSONValueEncoderImpl(node: node, codingPath: codingPath + [key], userInfo: sendableUserInfo,
                             omitsModelKeys: omitsModelKeys)
    }

    /// Encodes `value` into `node`, a child at `key`.
    func encodeNested<T: Encodable>(_ value: T, into node: EncodingNode, key: any CodingKey) throws {
        if let value = value as? JSONValue {
            node.set(value)
            return
        }
        try value.encode(to: nested(node, key: key))
        if omitsModelKeys { node.omitKey(of: T.self) }
    }

    func container<K: CodingKey>(keyedBy type: K.Type) -> KeyedEncodingContainer<K> {
        if node.kind != .object {
            node.kind = .object
            node.members = [:]
        }
        return KeyedEncodingContainer(JSONKeyedEncodingContainer<K>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.kind != .array {
            node.kind = .array
            node.elements = []
        }
        return JSONUnkeyedEncodingContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: SingleValueEncodingContainer

    func encodeNil() throws { node.set(.null) }
    func encode(_ value: Bool) throws { node.set(.bool(value)) }
    func encode(_ value: String) throws { node.set(.string(value)) }
    func encode(_ value: Double) throws { node.set(.number(try finite(value))) }
    func encode(_ value: Float) throws { node.set(.number(try finite(Double(value)))) }
    func encode(_ value: Int) throws { node.set(.number(Double(value))) }
    func encode(_ value: Int8) throws { node.set(.number(Double(value))) }
    func encode(_ value: Int16) throws { node.set(.number(Double(value))) }
    func encode(_ value: Int32) throws { node.set(.number(Double(value))) }
    func encode(_ value: Int64) throws { node.set(.number(Double(value))) }
    func encode(_ value: UInt) throws { node.set(.number(Double(value))) }
    func encode(_ value: UInt8) throws { node.set(.number(Double(value))) }
    func encode(_ value: UInt16) throws { node.set(.number(Double(value))) }
    func encode(_ value: UInt32) throws { node.set(.number(Double(value))) }
    func encode(_ value: UInt64) throws { node.set(.number(Double(value))) }

    func encode<T: Encodable>(_ value: T) throws {
        if let value = value as? JSONValue {
            node.set(value)
            return
        }
        try value.encode(to: self)
    }

    private func finite(_ d: Double) throws -> Double {
        guard d.isFinite else {
            throw EncodingError.invalidValue(d, .init(
                codingPath: codingPath, debugDescription: "\(d) cannot be stored: the database has no NaN or infinity."))
        }
        return d
    }
}

/// The keyed container of ``JSONValueEncoder``.
struct JSONKeyedEncodingContainer<K: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: JSONValueEncoderImpl
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func child(_ key: K) -> EncodingNode {
        let node = EncodingNode()
        encoder.node.members[JSONObject.Name(key.stringValue)] = node
        return node
    }

    mutating func encodeNil(forKey key: K) throws { child(key).set(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: K) throws {
        try encoder.encodeNested(value, into: child(key), key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: K
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.nested(child(key), key: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: K) -> any UnkeyedEncodingContainer {
        encoder.nested(child(key), key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let node = EncodingNode()
        encoder.node.members[JSONObject.Name("super")] = node
        return encoder.nested(node, key: JSONCodingKey(stringValue: "super"))
    }

    mutating func superEncoder(forKey key: K) -> any Encoder {
        encoder.nested(child(key), key: key)
    }
}

/// The unkeyed container of ``JSONValueEncoder``.
struct JSONUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: JSONValueEncoderImpl
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.elements.count }

    private func append() -> (EncodingNode, JSONCodingKey) {
        let key = JSONCodingKey(index: encoder.node.elements.count)
        let node = EncodingNode()
        encoder.node.elements.append(node)
        return (node, key)
    }

    mutating func encodeNil() throws { append().0.set(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let (node, key) = append()
        try encoder.encodeNested(value, into: node, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let (node, key) = append()
        return encoder.nested(node, key: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let (node, key) = append()
        return encoder.nested(node, key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let (node, key) = append()
        return encoder.nested(node, key: key)
    }
}
