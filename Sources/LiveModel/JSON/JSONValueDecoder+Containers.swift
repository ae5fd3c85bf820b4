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

    // Primitives are read from the member itself, with the same rules as
    // the single-value container; a coding path is made only for an error.
    private func path(_ key: K) -> [any CodingKey] { codingPath + [key] }

    func decode(_ type: Bool.Type, forKey key: K) throws -> Bool { try PrimitiveRead.bool(try member(key), at: path(key)) }
    func decode(_ type: String.Type, forKey key: K) throws -> String { try PrimitiveRead.string(try member(key), at: path(key)) }
    func decode(_ type: Double.Type, forKey key: K) throws -> Double { try PrimitiveRead.double(try member(key), at: path(key)) }
    func decode(_ type: Float.Type, forKey key: K) throws -> Float { try PrimitiveRead.float(try member(key), at: path(key)) }
    func decode(_ type: Int.Type, forKey key: K) throws -> Int { try PrimitiveRead.integer(try member(key), at: path(key)) }
    func decode(_ type: Int8.Type, forKey key: K) throws -> Int8 { try PrimitiveRead.integer(try member(key), at: path(key)) }
    func decode(_ type: Int16.Type, forKey key: K) throws -> Int16 { try PrimitiveRead.integer(try member(key), at: path(key)) }
    func decode(_ type: Int32.Type, forKey key: K) throws -> Int32 { try PrimitiveRead.integer(try member(key), at: path(key)) }
    func decode(_ type: Int64.Type, forKey key: K) throws -> Int64 { try PrimitiveRead.integer(try member(key), at: path(key)) }
    func decode(_ type: UInt.Type, forKey key: K) throws -> UInt { try PrimitiveRead.integer(try member(key), at: path(key)) }
    func decode(_ type: UInt8.Type, forKey key: K) throws -> UInt8 { try PrimitiveRead.integer(try member(key), at: path(key)) }
    func decode(_ type: UInt16.Type, forKey key: K) throws -> UInt16 { try PrimitiveRead.integer(try member(key), at: path(key)) }
    func decode(_ type: UInt32.Type, forKey key: K) throws -> UInt32 { try PrimitiveRead.integer(try member(key), at: path(key)) }
    func decode(_ type: UInt64.Type, forKey key: K) throws -> UInt64 { try PrimitiveRead.integer(try member(key), at: path(key)) }

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

    /// The next element read as a primitive by `read`, with the element's
    /// coding path made only for an error.
    private mutating func primitive<T>(_ type: T.Type,
                                       _ read: (JSONValue, @autoclosure () -> [any CodingKey]) throws -> T) throws -> T {
        let value = try read(try next(type), codingPath + [currentKey])
        currentIndex += 1
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try primitive(type, PrimitiveRead.bool) }
    mutating func decode(_ type: String.Type) throws -> String { try primitive(type, PrimitiveRead.string) }
    mutating func decode(_ type: Double.Type) throws -> Double { try primitive(type, PrimitiveRead.double) }
    mutating func decode(_ type: Float.Type) throws -> Float { try primitive(type, PrimitiveRead.float) }
    mutating func decode(_ type: Int.Type) throws -> Int { try primitive(type, PrimitiveRead.integer) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try primitive(type, PrimitiveRead.integer) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try primitive(type, PrimitiveRead.integer) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try primitive(type, PrimitiveRead.integer) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try primitive(type, PrimitiveRead.integer) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try primitive(type, PrimitiveRead.integer) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try primitive(type, PrimitiveRead.integer) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try primitive(type, PrimitiveRead.integer) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try primitive(type, PrimitiveRead.integer) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try primitive(type, PrimitiveRead.integer) }

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
