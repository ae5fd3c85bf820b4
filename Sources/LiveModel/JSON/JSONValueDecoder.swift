/// Decodes `Decodable` types from a ``JSONValue`` directly, without going
/// through JSON text.
///
/// Rules, chosen for Firebase data:
/// - Numbers decode to every integer type when integral and in range, to
///   `Double`, and to `Float` when within its range; otherwise
///   `DecodingError.dataCorrupted`.
/// - An object whose member names are all array indexes (`"0"`, `"1"`, …)
///   decodes as an array, as Firebase's SDKs read them, when at least half
///   of the indexes up to the largest are present; missing indexes are
///   `null` (decode `[T?]` to accept them).
/// - An array decodes as an object keyed `"0"`, `"1"`, … without its `null`
///   elements, so `[String: T]` and `[Key: T]` read either shape.
/// - A `CodingKey` finds the member whose name has exactly its code units:
///   `"é"` (U+00E9) never reads the member `"e\u{301}"`, and `[Key: T]`
///   reads both.
/// - A missing member and `null` both decode as `nil` for optionals;
///   otherwise they throw `keyNotFound` and `valueNotFound`.
/// - `Bool` decodes only from JSON booleans, `String` only from strings.
///
/// Errors are the standard `DecodingError`s with the coding path of the
/// offending value.
public struct JSONValueDecoder: Sendable {
    /// Values the decoded types can read from `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Creates a decoder.
    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.userInfo = userInfo
    }

    /// Decodes a value of `type` from `value`.
    /// - Throws: `DecodingError` when the value does not have the shape
    ///   `type` expects, or whatever `type`'s initialiser throws.
    /// - Complexity: O(size of the value read by `type`).
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        if T.self == JSONValue.self { return value as! T }
        let decoder = JSONValueDecoderImpl(value: value, codingPath: [], userInfo: userInfo)
        return try T(from: decoder)
    }
}

/// The `Decoder` handed to `Decodable` initialisers; also its own
/// single-value container.
final class JSONValueDecoderImpl: Decoder, SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let sendableUserInfo: [CodingUserInfoKey: any Sendable]

    init(value: JSONValue, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
        self.value = value
        self.codingPath = codingPath
        self.sendableUserInfo = userInfo
    }

    var userInfo: [CodingUserInfoKey: Any] { sendableUserInfo }

    /// A decoder for a nested value.
    func nested(_ value: JSONValue, key: any CodingKey) -> JSONValueDecoderImpl {
        JSONValueDecoderImpl(value: value, codingPath: codingPath + [key], userInfo: sendableUserInfo)
    }

    /// Decodes `type` from a nested value, taking ``JSONValue`` as it is.
    func decodeNested<T: Decodable>(_ type: T.Type, from value: JSONValue, key: any CodingKey) throws -> T {
        if T.self == JSONValue.self { return value as! T }
        return try T(from: nested(value, key: key))
    }

    // MARK: Decoder

    func container<K: CodingKey>(keyedBy type: K.Type) throws -> KeyedDecodingContainer<K> {
        let members: JSONObject
        switch value {
        case .object(let o):
            members = o
        case .array(let a):
            var o = JSONObject()
            for (i, element) in a.enumerated() where !element.isNull { o[String(i)] = element }
            members = o
        default:
            throw typeMismatch(JSONObject.self, "a keyed container (an object)")
        }
        return KeyedDecodingContainer(JSONKeyedDecodingContainer<K>(decoder: self, members: members))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let a):
            return JSONUnkeyedDecodingContainer(decoder: self, elements: a)
        case .object(let o):
            guard let elements = JSONValueDecoderImpl.arrayElements(o) else {
                throw typeMismatch([JSONValue].self, "an unkeyed container (an array, or an object keyed 0, 1, …)")
            }
            return JSONUnkeyedDecodingContainer(decoder: self, elements: elements)
        default:
            throw typeMismatch([JSONValue].self, "an unkeyed container (an array)")
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The elements of an object that stands for an array, by Firebase's
    /// rule; `nil` if it does not.
    static func arrayElements(_ members: JSONObject) -> [JSONValue]? {
        if members.isEmpty { return [] }
        var maxIndex = -1
        var indexed: [(Int, JSONValue)] = []
        indexed.reserveCapacity(members.count)
        for (name, value) in members {
            guard let i = JSONValue.arrayIndex(name) else { return nil }
            maxIndex = max(maxIndex, i)
            indexed.append((i, value))
        }
        guard maxIndex < 2 * members.count else { return nil }
        var elements = [JSONValue](repeating: .null, count: maxIndex + 1)
        for (i, value) in indexed { elements[i] = value }
        return elements
    }

    // MARK: Errors

    func typeMismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        DecodingError.typeMismatch(type, .init(
            codingPath: codingPath, debugDescription: "Expected \(expected) but found \(value.kindDescription)."))
    }

    // MARK: SingleValueDecodingContainer

    func decodeNil() -> Bool { value.isNull }

    func decode(_ type: Bool.Type) throws -> Bool { try PrimitiveRead.bool(value, at: codingPath) }
    func decode(_ type: String.Type) throws -> String { try PrimitiveRead.string(value, at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try PrimitiveRead.double(value, at: codingPath) }
    func decode(_ type: Float.Type) throws -> Float { try PrimitiveRead.float(value, at: codingPath) }
    func decode(_ type: Int.Type) throws -> Int { try PrimitiveRead.integer(value, at: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try PrimitiveRead.integer(value, at: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try PrimitiveRead.integer(value, at: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try PrimitiveRead.integer(value, at: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try PrimitiveRead.integer(value, at: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try PrimitiveRead.integer(value, at: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try PrimitiveRead.integer(value, at: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try PrimitiveRead.integer(value, at: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try PrimitiveRead.integer(value, at: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try PrimitiveRead.integer(value, at: codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == JSONValue.self { return value as! T }
        return try T(from: self)
    }
}

extension JSONValue {
    /// "null", "a boolean", … for error messages.
    var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
