import LiveTestSupport
import Testing
import LiveModel

@Suite("JSONObject")
struct JSONObjectTests {
    @Test("dictionary-like access by exact member names")
    func access() {
        var object: JSONObject = ["\u{E9}": 1, "e\u{301}": 2, "x": ["y": 3]]
        #expect(object.count == 3 && !object.isEmpty)
        #expect(object["\u{E9}"] == 1 && object["e\u{301}"] == 2)
        object["x"]?["y"] = 4                       // in place, through the member
        #expect(object["x"] == ["y": 4])
        #expect(object.removeValue(forKey: "\u{E9}") == 1)
        #expect(object.removeValue(forKey: "\u{E9}") == nil)
        #expect(object["e\u{301}"] == 2)
        object["e\u{301}"] = nil
        #expect(object.keys.map { Array($0.utf8) } == [Array("x".utf8)])
        #expect(Array(object.values) == [["y": 4]])
        #expect(JSONObject().isEmpty)
    }

    @Test("iteration, keys and values list every member once")
    func iteration() {
        var object = JSONObject(minimumCapacity: EquivalentNames.all.count)
        for (i, name) in EquivalentNames.all.enumerated() { object[name] = .number(Double(i)) }
        let members = object.map { (Array($0.key.utf8), $0.value) }
        #expect(members.count == EquivalentNames.all.count)
        #expect(Set(members.map(\.0)) == Set(EquivalentNames.all.map { Array($0.utf8) }))
        for (name, value) in object {
            #expect(EquivalentNames.all[Int(value.numberValue!)].utf8.elementsEqual(name.utf8))
        }
        #expect(Set(object.keys.map { Array($0.utf8) }).count == object.count)
        #expect(object.values.count == object.count)
        let doubled = object.mapValues { .number(($0.numberValue ?? 0) * 2) }
        #expect(doubled.count == object.count && doubled["e\u{301}"] == 2 && doubled["\u{E9}"] == 0)
    }

    @Test("initialisers: unique members, combining repeats, literals keep the last")
    func initialisers() {
        let unique = JSONObject(uniqueKeysWithValues: [("\u{E9}", 1), ("e\u{301}", 2)])
        #expect(unique.count == 2)
        let combined = JSONObject([("a", 1), ("a", 2), ("e\u{301}", 3)], uniquingKeysWith: { first, _ in first })
        #expect(combined == ["a": 1, "e\u{301}": 3])
        let literal: JSONObject = ["a": 1, "a": 2]
        #expect(literal == ["a": 2])
    }

    @Test("equality and hashing ignore order, not code units")
    func equality() {
        let a: JSONObject = ["\u{E9}": 1, "e\u{301}": 2, "n": nil]
        let b: JSONObject = ["n": nil, "e\u{301}": 2, "\u{E9}": 1]
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a != ["\u{E9}": 2, "e\u{301}": 1, "n": nil])
        #expect((["\u{E9}": 1] as JSONObject) != ["e\u{301}": 1])
        #expect(Set<JSONObject>([["\u{E9}": 1], ["e\u{301}": 1], ["\u{E9}": 1]]).count == 2)
        #expect(JSONValue.object(a) == .object(b))
        #expect(a.description == JSONValue.object(a).jsonText(sortedKeys: true))
    }

    @Test("names of every length up to 20 bytes, differing in any one byte, are distinct members")
    func namesDifferingInOneByte() {
        var object = JSONObject()
        var expected = 0
        for length in 1...20 {
            let base = String(repeating: "a", count: length)
            object[base] = .number(Double(length))
            expected += 1
            for position in 0..<length {
                var bytes = Array(base.utf8)
                bytes[position] = UInt8(ascii: "b")
                object[String(decoding: bytes, as: UTF8.self)] = .number(Double(length * 100 + position))
                expected += 1
            }
        }
        #expect(object.count == expected)
        for length in 1...20 {
            // A name built anew finds the member stored under the same bytes.
            #expect(object[String(decoding: Array(repeating: UInt8(ascii: "a"), count: length), as: UTF8.self)]
                    == .number(Double(length)))
        }
    }
}
