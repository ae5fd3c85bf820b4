import LiveTestSupport
import Testing
import LiveModel

@Suite("JSONValueDecoder / JSONValueEncoder")
struct DecoderTests {
    struct Address: Codable, Equatable {
        var city: String
        var zip: String?
    }

    struct User: Codable, Equatable {
        enum Role: String, Codable { case admin, member }
        var name: String
        var age: UInt8
        var score: Double
        var ratio: Float
        var big: Int64
        var role: Role
        var addresses: [Address]
        var tags: [String]?
        var nickname: String?
        var flags: [String: Bool]
        var matrix: [[Int]]
    }

    static let userValue: JSONValue = [
        "name": "Ada", "age": 36, "score": 99.5, "ratio": 0.25, "big": 9_007_199_254_740_992, "role": "admin",
        "addresses": [["city": "London"], ["city": "Paris", "zip": "75001"]],
        "nickname": nil,
        "flags": ["x": true, "y": false],
        "matrix": [[1, 2], [], [3]],
    ]

    @Test("nested structs, arrays, optionals, enums, dictionaries")
    func nested() throws {
        let user = try JSONValueDecoder().decode(User.self, from: Self.userValue)
        #expect(user == User(name: "Ada", age: 36, score: 99.5, ratio: 0.25, big: 9_007_199_254_740_992, role: .admin,
                             addresses: [Address(city: "London", zip: nil), Address(city: "Paris", zip: "75001")],
                             tags: nil, nickname: nil, flags: ["x": true, "y": false], matrix: [[1, 2], [], [3]]))
        // Encoding leaves nil members out; decoding it again gives the same user.
        let encoded = try JSONValueEncoder().encode(user)
        #expect(encoded["nickname"] == nil)
        #expect(encoded["addresses"]?[0] == ["city": "London"])
        #expect(try JSONValueDecoder().decode(User.self, from: encoded) == user)
    }

    @Test("type mismatch reports the coding path")
    func typeMismatch() throws {
        var value = Self.userValue
        value["addresses"] = [["city": "London"], ["city": 75]]
        do {
            _ = try JSONValueDecoder().decode(User.self, from: value)
            Issue.record("decoded")
        } catch DecodingError.typeMismatch(let type, let context) {
            #expect(ObjectIdentifier(type) == ObjectIdentifier(String.self))
            #expect(context.codingPath.map(\.stringValue) == ["addresses", "Index 1", "city"])
            #expect(context.debugDescription.contains("a number"))
        }
    }

    @Test("missing key and null report keyNotFound / valueNotFound with the path")
    func missingAndNull() throws {
        var value = Self.userValue
        value["name"] = nil
        do {
            _ = try JSONValueDecoder().decode(User.self, from: value)
            Issue.record("decoded")
        } catch DecodingError.keyNotFound(let key, let context) {
            #expect(key.stringValue == "name")
            #expect(context.codingPath.isEmpty)
        }
        value = Self.userValue
        value["matrix"] = [[1, nil]]
        do {
            _ = try JSONValueDecoder().decode(User.self, from: value)
            Issue.record("decoded")
        } catch DecodingError.valueNotFound(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["matrix", "Index 0", "Index 1"])
        }
    }

    @Test("numbers convert to every integer type with range checks")
    func numbers() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Int8.self, from: 127) == 127)
        #expect(try decoder.decode(UInt64.self, from: 3.0) == 3)
        #expect(try decoder.decode(Int.self, from: -5) == -5)
        #expect(try decoder.decode(Float.self, from: 1.5) == 1.5)
        for (value, type) in [(JSONValue.number(128), Int8.self as any Decodable.Type),
                              (.number(-1), UInt.self), (.number(1.5), Int.self),
                              (.number(1e300), Float.self), (.number(65536), UInt16.self)] {
            do {
                _ = try decoder.decode(type, from: value)
                Issue.record("\(value) decoded as \(type)")
            } catch DecodingError.dataCorrupted(let context) {
                #expect(context.debugDescription.contains("does not fit"))
            }
        }
        #expect(throws: DecodingError.self) { try decoder.decode(Bool.self, from: 1) }
        #expect(throws: DecodingError.self) { try decoder.decode(String.self, from: 1) }
        #expect(throws: DecodingError.self) { try decoder.decode(Int.self, from: "1") }
    }

    @Test("Firebase arrays: objects keyed 0, 1, … decode as arrays; holes are null")
    func firebaseArrays() throws {
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode([String].self, from: ["1": "b", "0": "a", "2": "c"]) == ["a", "b", "c"])
        #expect(try decoder.decode([String?].self, from: ["0": "a", "2": "c"]) == ["a", nil, "c"])
        #expect(throws: DecodingError.self) { try decoder.decode([String].self, from: ["0": "a", "2": "c"]) }
        #expect(throws: DecodingError.self) { try decoder.decode([String].self, from: ["0": "a", "9": "c"]) }
        #expect(throws: DecodingError.self) { try decoder.decode([String].self, from: ["0": "a", "x": "c"]) }
        #expect(try decoder.decode([String: Int].self, from: [nil, 1, 2]) == ["1": 1, "2": 2])
        #expect(try decoder.decode([Int].self, from: [:]) == [])
    }

    @Test("optionals at the top and nested JSONValue members")
    func optionalsAndRawValues() throws {
        struct Wrapper: Codable, Equatable {
            var any: JSONValue
            var maybe: Int??
        }
        let decoder = JSONValueDecoder()
        #expect(try decoder.decode(Int?.self, from: nil) == nil)
        #expect(try decoder.decode(Int?.self, from: 4) == 4)
        let wrapper = try decoder.decode(Wrapper.self, from: ["any": ["x": [1, nil]]])
        #expect(wrapper.any == ["x": [1, nil]])
        #expect(try JSONValueEncoder().encode(wrapper) == ["any": ["x": [1, nil]]])
    }

    @Test("userInfo reaches the decoded type")
    func userInfo() throws {
        struct Probe: Decodable {
            var seen: String
            init(from decoder: any Decoder) throws {
                seen = decoder.userInfo[CodingUserInfoKey(rawValue: "who")!] as? String ?? "nobody"
            }
        }
        let decoder = JSONValueDecoder(userInfo: [CodingUserInfoKey(rawValue: "who")!: "me"])
        #expect(try decoder.decode(Probe.self, from: nil).seen == "me")
    }

    @Test("encoder rejects non-finite numbers")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(["x": Double.nan]) }
        #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(Float.infinity) }
    }

    /// A type whose two members are named "é" precomposed and decomposed.
    struct Accented: Codable, Equatable {
        var composed: Int?
        var decomposed: Int?

        struct Name: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
            static let composed = Name(stringValue: "\u{E9}")
            static let decomposed = Name(stringValue: "e\u{301}")
        }

        init(composed: Int?, decomposed: Int?) {
            self.composed = composed
            self.decomposed = decomposed
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Name.self)
            composed = try container.decodeIfPresent(Int.self, forKey: .composed)
            decomposed = try container.decodeIfPresent(Int.self, forKey: .decomposed)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Name.self)
            try container.encodeIfPresent(composed, forKey: .composed)
            try container.encodeIfPresent(decomposed, forKey: .decomposed)
        }
    }

    @Test("coding keys find members by exact code units")
    func exactCodingKeys() throws {
        let both = try JSONValue(parsing: #"{"\u00e9": 1, "e\u0301": 2}"#)
        #expect(try JSONValueDecoder().decode(Accented.self, from: both) == Accented(composed: 1, decomposed: 2))
        let decomposedOnly = try JSONValue(parsing: #"{"e\u0301": 2}"#)
        #expect(try JSONValueDecoder().decode(Accented.self, from: decomposedOnly) == Accented(composed: nil, decomposed: 2))
        #expect(try JSONValueEncoder().encode(Accented(composed: 1, decomposed: 2)) == both)
        #expect(try JSONValueEncoder().encode(Accented(composed: nil, decomposed: 2)) == decomposedOnly)
    }

    @Test("[Key: T] encodes and decodes every canonically equivalent key")
    func equivalentKeys() throws {
        var keyed: [Key: Int] = [:]
        for (i, name) in EquivalentNames.all.enumerated() { keyed[try Key(name)] = i }
        #expect(keyed.count == EquivalentNames.all.count)
        let value = try JSONValueEncoder().encode(keyed)
        #expect(value == (try JSONValue(parsing: EquivalentNames.objectText { i, _ in "\(i)" })))
        #expect(try JSONValueDecoder().decode([Key: Int].self, from: value) == keyed)
        // JSONValue itself through the keyed containers.
        struct Box: Codable { var value: JSONValue }
        let boxed = try JSONValueDecoder().decode(Box.self, from: ["value": value])
        #expect(boxed.value == value)
        #expect(try JSONValueEncoder().encode(Box(value: value)) == ["value": value])
    }
}
