/// The keyed container of ``JSONValueDecoder``: the members of an object.
struct JSONKeyedDecodingContainer<K: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: JSONValueDecoderImpl
    let members: JSONObject

    var codingPath: [any CodingKey] { decoder.codingPath }

    var allKeys: [K] { members.keys.compactMap { K(stringValue: $0) } }

    func contains(_ key: K) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: K) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(
                codingPath: codingPath,
                debugDescription: "No value for key \"\(key.stringValue)\"."))
        }
        return value
    }

    func decodeNil(forKey key: K) throws -> Bool {
        members[key.stringValue]?.isNull ?? true
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: K) throws -> T {
        try decoder.decodeNested(type, from: try member(key), key: key)
    }

    // Primitive overloads route through the single-value container so every
    // type gets the same checks.
    private func primitive<T>(_ key: K, _ read: (JSONValueDecoderImpl) throws -> T) throws -> T {
        try read(decoder.nested(try member(key), key: key))
    }

    func decode(_ type: Bool.Type, forKey key: K) throws -> Bool { try primitive(key) { try $0.decode(type) } }
    func decode(_ type: String.Type, forKey key: K) throws -> String { try primitive(key) { try $0.decode(type) } }
    func decode(_ type: Double.Type, forKey key: K) throws -> Double { try primitive(key) { try $0.decode(type) } }
    func decode(_ type: Float.Type, forKey key: K) throws -> Float { try primitive(key) { try $0.decode(type) } }
    func decode(_ type: Int.Type, forKey key: K) throws -> Int { try primitive(key) { try $0.decode(type) } }
    func decode(_ type: Int8.Type, forKey key: K) throws -> Int8 { try primitive(key) { try $0.decode(type) } }
    func decode(_ type: Int16.Type, forKey key: K) throws -> Int16 { try primitive(key) { try $0.decode(type) } }
    func decode(_ type: Int32.Type, forKey key: K) throws -> Int32 { try primitive(key) { try $0.decode(type) } }
    func decode(_ type: Int64.Type, forKey key: K) throws -> Int64 { try primitive(key) { try $0.decode(type) } }
    func decode(_ type: UInt.Type, forKey key: K) throws -> UInt { try primitive(key) { try $0.decode(type) } }
    func decode(_ type: UInt8.Type, forKey key: K) throws -> UInt8 { try primitive(key) { try $0.decode(type) } }
    func decode(_ type: UInt16.Type, forKey key: K) throws -> UInt16 { try primitive(key) { try $0.decode(type) } }
    func decode(_ type: UInt32.Type, forKey key: K) throws -> UInt32 { try primitive(key) { try $0.decode(type) } }
    func decode(_ type: UInt64.Type, forKey key: K) throws -> UInt64 { try primitive(key) { try $0.decode(type) } }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: K
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder.nested(try member(key), key: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: K) throws -> any UnkeyedDecodingContainer {
        try decoder.nested(try member(key), key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.nested(members["super"] ?? .null, key: JSONCodingKey(stringValue: "super"))
    }

    func superDecoder(forKey key: K) throws -> any Decoder {
        decoder.nested(members[key.stringValue] ?? .null, key: key)
    }
}

/// The unkeyed container of ``JSONValueDecoder``: the elements of an array.
struct JSONUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoder: JSONValueDecoderImpl
    let elements: [JSONValue]
    private(set) var currentIndex = 0

    init(decoder: JSONValueDecoderImpl, elements: [JSONValue]) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private var currentKey: JSONCodingKey { JSONCodingKey(index: currentIndex) }

    /// The next element, or `valueNotFound` at the end.
    private func next(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(
                codingPath: codingPath + [currentKey],
                debugDescription: "Unkeyed container is at end (\(elements.count) elements)."))
        }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard try next(JSONValue.self).isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try decoder.decodeNested(type, from: try next(type), key: currentKey)
        currentIndex += 1
        return value
    }

    private mutating func primitive<T>(_ type: T.Type, _ read: (JSONValueDecoderImpl) throws -> T) throws -> T {
        let value = try read(decoder.nested(try next(type), key: currentKey))
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try primitive(type) { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try primitive(type) { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try primitive(type) { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try primitive(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try primitive(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try primitive(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try primitive(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try primitive(type) { try $0.decode(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try primitive(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try primitive(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive(type) { try $0.decode(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive(type) { try $0.decode(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try decoder.nested(try next(JSONValue.self), key: currentKey).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try decoder.nested(try next(JSONValue.self), key: currentKey).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let sub = decoder.nested(try next(JSONValue.self), key: currentKey)
        currentIndex += 1
        return sub
    }
}
