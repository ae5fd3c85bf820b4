import Testing
import LiveModel
@testable import LiveServer

@Suite("DataNode rendering")
struct DataNodeRenderingTests {
    @Test func emptyIsNull() {
        #expect(DataNode.empty.json() == .null)
        #expect(DataNode.empty.json(export: true) == .null)
        #expect(DataNode.empty.shallowJSON() == .null)
    }

    @Test(arguments: [
        // Dense indexes: an array.
        (#"{"0": "a", "1": "b", "2": "c"}"#, #"["a","b","c"]"#),
        // Largest index below twice the count: an array with holes.
        (#"{"0": "a", "2": "c"}"#, #"["a",null,"c"]"#),
        (#"{"1": "b"}"#, #"[null,"b"]"#),
        (#"{"1": "b", "3": "d"}"#, #"[null,"b",null,"d"]"#),
        // Largest index at twice the count or more: an object.
        (#"{"2": "c"}"#, #"{"2":"c"}"#),
        (#"{"0": "a", "4": "e"}"#, #"{"0":"a","4":"e"}"#),
        // Keys that are not array indexes: an object.
        (#"{"0": "a", "01": "b"}"#, #"{"0":"a","01":"b"}"#),
        (#"{"0": "a", "-1": "b"}"#, #"{"-1":"b","0":"a"}"#),
        (#"{"0": "a", "x": "b"}"#, #"{"0":"a","x":"b"}"#),
        (#"{"2147483648": "a"}"#, #"{"2147483648":"a"}"#),
        // Arrays inside, priorities dropped.
        (#"{"a": [1, 2], ".priority": 1, "b": {".value": 3, ".priority": 4}}"#, #"{"a":[1,2],"b":3}"#),
    ])
    func arrayRule(_ body: String, _ expected: String) throws {
        #expect(try storeNode(body).json() == storeJSON(expected))
        #expect(try JSONValue(parsingUTF8: try storeNode(body).jsonBytes()) == storeJSON(expected))
    }

    /// A random request value: primitives, awkward strings, arrays (some
    /// with holes), objects with priorities, `depth` levels deep at most.
    static func randomValue(_ draw: inout QueryDifferentialTests.Draw, depth: Int = 0) -> JSONValue {
        let names = ["0", "1", "3", "a", "q\"uote", "back\\slash", "é", "😀"]
        let strings = names + ["tab\t", "\u{1}", "line\u{2028}", "\n"]
        switch Int.random(in: 0..<(depth > 2 ? 2 : 5), using: &draw.rng) {
        case 0: return draw.primitive()
        case 1: return .string(draw.pick(strings))
        case 2:
            return .array((0..<Int.random(in: 0...4, using: &draw.rng)).map { _ in randomValue(&draw, depth: depth + 1) })
        case 3: return draw.child()
        default:
            var members = JSONObject()
            for _ in 0..<Int.random(in: 0...4, using: &draw.rng) {
                members[draw.pick(names)] = randomValue(&draw, depth: depth + 1)
            }
            if let priority = draw.priority(), !members.isEmpty { members[".priority"] = priority }
            return .object(members)
        }
    }

    @Test("seeded: the text written straight from a node is the text of its value, exported or not")
    func writtenText() throws {
        let seed = storeTestSeed("DataNode written text")
        var draw = QueryDifferentialTests.Draw(rng: SplitMix64(seed: seed))
        for round in 0..<400 {
            let node = try DataNode(json: Self.randomValue(&draw))
            for export in [false, true] {
                #expect(try JSONValue(parsingUTF8: node.jsonBytes(export: export)) == node.json(export: export),
                        "seed \(seed), round \(round), export \(export): \(node)")
            }
        }
    }

    @Test func arraysRoundTrip() throws {
        let node = try storeNode(#"[1, null, 3]"#)
        #expect(node.json() == storeJSON("[1, null, 3]"))
        #expect(node.json(export: true) == storeJSON(#"{"0": 1, "2": 3}"#))
    }

    @Test func exportFormat() throws {
        let node = try storeNode(#"""
            {".priority": "top", "a": {".value": 1, ".priority": 2}, "b": {"c": true}, "0": "x",
             "d": {".priority": 5, "e": "y"}}
            """#)
        let expected = storeJSON(#"""
            {".priority": "top", "a": {".value": 1, ".priority": 2}, "b": {"c": true}, "0": "x",
             "d": {".priority": 5, "e": "y"}}
            """#)
        #expect(node.json(export: true) == expected)
        // Export never makes arrays.
        #expect(try storeNode("[1, 2]").json(export: true) == storeJSON(#"{"0": 1, "1": 2}"#))
        // A leaf without priority is itself.
        #expect(try storeNode("7").json(export: true) == 7)
    }

    @Test func exportReadsBack() throws {
        let node = try storeNode(#"{"a": {".value": 1, ".priority": 2}, "b": {".priority": "p", "c": [1]}}"#)
        #expect(try DataNode(json: node.json(export: true)) == node)
    }

    @Test func shallow() throws {
        #expect(try storeNode("5").shallowJSON() == 5)
        #expect(try storeNode(#"{"a": {"b": 1}, "c": 2, ".priority": 1}"#).shallowJSON()
            == storeJSON(#"{"a": true, "c": true}"#))
        #expect(try storeNode("[1, 2]").shallowJSON() == storeJSON(#"{"0": true, "1": true}"#))
    }

    @Test func description() throws {
        #expect(try storeNode(#"{"b": 1, "a": {".value": 2, ".priority": 3}}"#).description
            == #"{"a":{".priority":3,".value":2},"b":1}"#)
    }

    @Test func renderingKeepsCanonicalEquivalentKeysApart() throws {
        let node = try storeNode(#"{"\u00e9": {"A\u030a": 1, "\u00c5": 2, "\u212b": 3, ".priority": 1}, "e\u0301": 4}"#)
        for export in [false, true] {
            let rendered = node.json(export: export)
            #expect(rendered.objectValue?.count == 2)
            #expect(rendered["\u{E9}"]?.objectValue?.count == (export ? 4 : 3))
            #expect(rendered["e\u{301}"] == 4)
            let reparsed = try DataNode(json: try JSONValue(parsing: rendered.jsonText()))
            #expect(reparsed.child(Key("\u{E9}")).children.count == 3)
            #expect(reparsed.children.count == 2)
        }
        #expect(node.shallowJSON().objectValue?.count == 2)
    }
}
