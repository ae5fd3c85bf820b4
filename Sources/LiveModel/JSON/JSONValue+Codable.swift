/// A coding key for any member name or array index.
struct JSONCodingKey: CodingKey, Hashable, Sendable {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }

    /// The key of element `index` of an unkeyed container, as Foundation
    /// names it in coding paths.
    init(index: Int) {
        self.stringValue = "Index \(index)"
        self.intValue = index
    }
}

extension JSONValue: Codable {
    /// Decodes any JSON value. With ``JSONValueDecoder`` this takes the value
    /// as it is, without a round trip through containers.
    public init(from decoder: any Decoder) throws {
        if let decoder = decoder as? JSONValueDecoderImpl {
            self = decoder.value
            return
        }
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() {
                self = .null
                return
            }
            if let b = try? container.decode(Bool.self) {
                self = .bool(b)
                return
            }
            if let d = try? container.decode(Double.self) {
                self = .number(d)
                return
            }
            if let s = try? container.decode(String.self) {
                self = .string(s)
                return
            }
        }
        if let container = try? decoder.container(keyedBy: JSONCodingKey.self) {
            var members = JSONObject()
            for key in container.allKeys {
                members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
            return
        }
        var container = try decoder.unkeyedContainer()
        var elements: [JSONValue] = []
        while !container.isAtEnd {
            elements.append(try container.decode(JSONValue.self))
        }
        self = .array(elements)
    }

    /// Encodes the value with the matching container.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let b):
            var container = encoder.singleValueContainer()
            try container.encode(b)
        case .number(let d):
            var container = encoder.singleValueContainer()
            try container.encode(d)
        case .string(let s):
            var container = encoder.singleValueContainer()
            try container.encode(s)
        case .array(let a):
            var container = encoder.unkeyedContainer()
            for element in a { try container.encode(element) }
        case .object(let o):
            var container = encoder.container(keyedBy: JSONCodingKey.self)
            for (name, value) in o { try container.encode(value, forKey: JSONCodingKey(stringValue: name)) }
        }
    }
}

extension Key: CodingKeyRepresentable {
    /// Lets `[Key: Value]` be coded as a JSON object keyed by the keys.
    public var codingKey: any CodingKey { JSONCodingKey(stringValue: string) }

    /// The key named by a coding key, or `nil` if it is not a valid key.
    public init?<T: CodingKey>(codingKey: T) {
        guard let key = try? Key(codingKey.stringValue) else { return nil }
        self = key
    }
}
