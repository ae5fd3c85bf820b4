import LiveTestSupport
import Testing
import LiveModel

@Suite("JSONValue")
struct JSONValueTests {
    @Test("literals and accessors")
    func literals() {
        let value: JSONValue = ["a": [1, 2.5, "x", true, nil], "b": ["c": "d"]]
        #expect(value["a"]?[0] == 1)
        #expect(value["a"]?[1]?.numberValue == 2.5)
        #expect(value["a"]?[2]?.stringValue == "x")
        #expect(value["a"]?[3]?.boolValue == true)
        #expect(value["a"]?[4]?.isNull == true)
        #expect(value["a"]?["2"] == "x")
        #expect(value["a"]?["02"] == nil)
        #expect(value[path: "b/c"] == "d")
        #expect(value[path: "a/1"] == 2.5)
        #expect(value[path: "b/c/d"] == nil)
        #expect(value[path: "/"] == value)
        #expect(value["zzz"] == nil)
        var mutable: JSONValue = nil
        mutable["x"] = 1
        mutable["y"] = ["z": true]
        mutable["x"] = nil
        #expect(mutable == ["y": ["z": true]])
        var array: JSONValue = ["a", nil, "c"]
        array["3"] = "d"
        #expect(array == ["0": "a", "2": "c", "3": "d"])
        var primitive: JSONValue = 5
        primitive["k"] = true
        #expect(primitive == ["k": true])
    }

    @Test("equality and hashing: strings by code units, -0 == 0, objects unordered")
    func equality() {
        #expect(JSONValue.string("\u{E9}") != .string("e\u{301}"))
        #expect(Set<JSONValue>([.string("\u{E9}"), .string("e\u{301}")]).count == 2)
        #expect(JSONValue.number(-0.0) == .number(0))
        #expect(JSONValue.number(-0.0).hashValue == JSONValue.number(0).hashValue)
        let a: JSONValue = ["x": 1, "y": [1, 2], "z": ["k": nil]]
        let b: JSONValue = ["z": ["k": nil], "y": [1, 2], "x": 1]
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a != ["x": 1, "y": [2, 1], "z": ["k": nil]])
        #expect(JSONValue.object(["\u{E9}": 1]) != .object(["e\u{301}": 1]))
        #expect(JSONValue.bool(true) != .number(1))
        #expect(JSONValue.array([]) != .object([:]))
    }

    @Test("serialisation: escaping and numbers")
    func serialisation() throws {
        #expect(JSONValue.string("a\"b\\c\n\t\u{1}\u{1F}é😀/").jsonText() == #""a\"b\\c\n\t\u0001\u001fé😀/""#)
        #expect(JSONValue.number(3).jsonText() == "3")
        #expect(JSONValue.number(-0.0).jsonText() == "0")
        #expect(JSONValue.number(0.1).jsonText() == "0.1")
        #expect(JSONValue.number(1e20).jsonText() == "1e+20")
        #expect(JSONValue.number(-2.5e-7).jsonText() == "-2.5e-07")
        #expect(JSONValue.number(9_007_199_254_740_991).jsonText() == "9007199254740991")
        #expect(JSONValue.number(.nan).jsonText() == "null")
        #expect(JSONValue.number(.infinity).jsonText() == "null")
        let value: JSONValue = ["b": [1, nil, false], "a": ["": "x"]]
        #expect(value.jsonText(sortedKeys: true) == #"{"a":{"":"x"},"b":[1,null,false]}"#)
        #expect(value.description == value.jsonText(sortedKeys: true))
    }

    @Test("parsing: arrays stay arrays, nulls stay, big integers become doubles")
    func parsing() throws {
        let value = try JSONValue(parsing: #" {"a": [1, null, {"b": "\u00e9\ud83d\ude00"}], ".priority": 2, "n": 12345678901234567} "#)
        #expect(value["a"] == [1, nil, ["b": "é😀"]])
        #expect(value[".priority"] == 2)
        #expect(value["n"] == .number(Double(12_345_678_901_234_567 as Int64)))
        #expect(try JSONValue(parsing: "\"top\"") == "top")
        #expect(try JSONValue(parsingUTF8: Array("[true]".utf8)) == [true])
    }

    @Test("parse errors carry code, line, column and position",
          arguments: [
              ("{\"a\": }", ParseError.Code.jsonSyntax, 1),
              ("[1, 2", .jsonTruncated, 1),
              ("{}\n{}", .jsonTrailing, 2),
              ("\"\\u0000\"", .nulCharacter, 1),
              ("[1e999]", .numberRange, 1),
              ("[123456789012345678901234567890]", .numberRange, 1),
          ] as [(String, ParseError.Code, Int)])
    func parseErrors(text: String, code: ParseError.Code, line: Int) {
        do {
            _ = try JSONValue(parsing: text)
            Issue.record("\(text.debugDescription) was accepted")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.line == line, "\(error)")
            #expect(error.position > 0, "\(error)")
            #expect(!error.message.isEmpty)
        }
    }

    @Test("deep and wide values convert without recursion or quadratic copies", .timeLimit(.minutes(5)))
    func deepAndWide() throws {
        let depth = 2000  // jansson's own limit is 2048
        let deep = try JSONValue(parsing: String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        var level = 0
        var current = deep
        while case .array(let a) = current, let first = a.first {
            current = first
            level += 1
        }
        #expect(level == depth - 1)
        #expect(deep == deep && deep.hashValue == deep.hashValue)
        #expect(try JSONValue(parsing: deep.jsonText()) == deep)
        #expect(deep.isAbsent)  // nothing but empty arrays
        let wide = "{" + (0..<200_000).map { "\"k\($0)\":[\($0)]" }.joined(separator: ",") + "}"
        let value = try JSONValue(parsing: wide)
        #expect(value.objectValue?.count == 200_000)
        #expect(value["k199999"] == [199_999])
        let long = try JSONValue(parsing: "[" + (0..<200_000).map(String.init).joined(separator: ",") + "]")
        #expect(long.arrayValue?.count == 200_000)
    }

    @Test("invalid UTF-8 is rejected")
    func invalidUTF8() {
        #expect(throws: ParseError.self) { try JSONValue(parsingUTF8: [0x22, 0xC3, 0x28, 0x22]) }
        do {
            _ = try JSONValue(parsingUTF8: [0x22, 0xC3, 0x28, 0x22])
        } catch {
            #expect(error.code == .invalidUTF8)
        }
    }

    @Test("randomised round trips: text → value → text → value", arguments: [0, 1, 2, 3])
    func roundTrips(round: Int) throws {
        var generator = SplitMix64(seed: testSeed("JSONValue round trips") &+ UInt64(round))
        for _ in 0..<200 {
            let value = Self.randomValue(depth: 0, using: &generator)
            let text = value.jsonText(sortedKeys: Bool.random(using: &generator))
            let reparsed = try JSONValue(parsing: text)
            #expect(reparsed == value, "\(text)")
            #expect(reparsed.jsonText(sortedKeys: true) == value.jsonText(sortedKeys: true))
            // Codable round trip through the value encoder / decoder.
            let decoded = try JSONValueDecoder().decode(JSONValue.self, from: try JSONValueEncoder().encode(value))
            #expect(decoded == value)
        }
    }

    static func randomString(using generator: inout SplitMix64) -> String {
        let pieces = ["a", "Z", " ", "\"", "\\", "\n", "\u{1}", "é", "e\u{301}", "😀", "｡", "/", "\u{7F}", "\u{2028}"]
        return (0..<Int.random(in: 0...5, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }

    static func randomValue(depth: Int, using generator: inout SplitMix64) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)))
        case 3: return .number(Double.random(in: -1e6...1e6, using: &generator) * pow10(Int.random(in: -300...300, using: &generator)))
        case 4: return .string(randomString(using: &generator))
        case 5: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in randomValue(depth: depth + 1, using: &generator) })
        default:
            var members = JSONObject()
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                members[randomString(using: &generator)] = randomValue(depth: depth + 1, using: &generator)
            }
            return .object(members)
        }
    }

    static func pow10(_ e: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(e) { result *= 10 }
        let scaled = e < 0 ? 1 / result : result
        return scaled.isFinite && scaled != 0 ? scaled : 1
    }
}

@Suite("JSONValue member names")
struct JSONValueMemberNameTests {
    @Test("the test names are canonically equivalent for String, distinct in code units")
    func namesAreEquivalent() {
        for group in EquivalentNames.groups {
            #expect(Set(group).count == 1, "\(group.map(EquivalentNames.scalars))")
            #expect(Set(group.map { Array($0.utf8) }).count == group.count)
        }
    }

    @Test("parsing and rendering keep canonically equivalent member names apart")
    func parseAndRender() throws {
        let names = EquivalentNames.all
        let parsed = try JSONValue(parsing: EquivalentNames.objectText { i, _ in "\(i)" })
        #expect(parsed.objectValue?.count == names.count)
        for (i, name) in names.enumerated() {
            #expect(parsed[name] == .number(Double(i)), "\(EquivalentNames.scalars(name))")
        }
        for sorted in [false, true] {
            let text = parsed.jsonText(sortedKeys: sorted)
            let reparsed = try JSONValue(parsing: text)
            #expect(reparsed.objectValue?.count == names.count, "\(text)")
            #expect(reparsed == parsed)
        }
        // Sorted text is the same whatever order the members were added in.
        var reversed: JSONValue = [:]
        for (i, name) in names.enumerated().reversed() { reversed[name] = .number(Double(i)) }
        #expect(reversed.jsonText(sortedKeys: true) == parsed.jsonText(sortedKeys: true))
        // Nested members and paths through them.
        let nested = try JSONValue(parsing: #"{"\u00e9": {"e\u0301": 1}, "e\u0301": {"\u00e9": 2}}"#)
        #expect(nested[path: DatabasePath("e\u{301}/\u{E9}")] == 2)
        #expect(nested[path: DatabasePath("\u{E9}/e\u{301}")] == 1)
        #expect(nested[path: DatabasePath("\u{E9}/\u{E9}")] == nil)
    }

    @Test("building, removing, equality and hashing by exact member names")
    func buildAndCompare() throws {
        let names = EquivalentNames.all
        var built: JSONValue = nil
        for (i, name) in names.enumerated() { built[name] = .number(Double(i)) }
        #expect(built.objectValue?.count == names.count)
        let parsed = try JSONValue(parsing: EquivalentNames.objectText { i, _ in "\(i)" })
        #expect(built == parsed && built.hashValue == parsed.hashValue)
        var removed = built
        removed["e\u{301}"] = nil
        #expect(removed["\u{E9}"] == 0 && removed["e\u{301}"] == nil)
        #expect(removed.objectValue?.count == names.count - 1)
        #expect(removed != built)
        let literal: JSONValue = ["\u{E9}": 1, "e\u{301}": 2]
        #expect(literal.objectValue?.count == 2)
        #expect(literal != ["\u{E9}": 2, "e\u{301}": 1])
        #expect(literal == ["e\u{301}": 2, "\u{E9}": 1])
        #expect(Set<JSONValue>([["\u{E9}": 1], ["e\u{301}": 1], ["\u{E9}": 1]]).count == 2)
    }
}
