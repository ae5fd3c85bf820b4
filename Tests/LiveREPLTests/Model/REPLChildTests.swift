// REPLChildTests.swift — a child made from a received snapshot reads its
// value from the JSON text when asked, and reads exactly what a child
// holding the parsed value reads.

import Foundation
@testable import LiveREPL
import LiveModel
import LiveTestSupport
import Testing

@Suite("REPLChild: values read from the received text")
struct REPLChildTests {
    /// Member names that random paths pick from, so that paths hit.
    static let names = ["a", "b", "0", "1", "é", "e\u{301}", "-1", "10"]

    /// A random value as JSON text: objects, arrays with nulls and empty
    /// containers, numbers spelled several ways, priorities, wrapped
    /// values, names given twice, whitespace.
    static func randomText(depth: Int, _ rng: inout SplitMix64) -> String {
        switch Int.random(in: 0..<(depth > 2 ? 5 : 8), using: &rng) {
        case 0: return "null"
        case 1: return Bool.random(using: &rng) ? "true" : "false"
        case 2:
            return ["1", "1.0", "1e0", "-0", "0", "2.5", "1e300", "12345678901234567", "-42", "123456789012345"]
                .randomElement(using: &rng)!
        case 3: return "\"" + ["g1", "", "é", "e\\u0301", "\\\"", "10"].randomElement(using: &rng)! + "\""
        case 4: return ["{}", "[]", #"{".value":"v",".priority":1}"#, #"{".value":3}"#].randomElement(using: &rng)!
        case 5:
            let items = (0..<Int.random(in: 0...3, using: &rng)).map { _ in randomText(depth: depth + 1, &rng) }
            return "[" + items.joined(separator: ",") + "]"
        default:
            var members: [String] = []
            var names = Array(Self.names.shuffled(using: &rng).prefix(Int.random(in: 0...4, using: &rng)))
            // A name given twice now and then: the last one holds.
            if let name = names.first, Int.random(in: 0..<5, using: &rng) == 0 { names.append(name) }
            for name in names {
                members.append("\"\(name)\":" + randomText(depth: depth + 1, &rng))
            }
            if Int.random(in: 0..<4, using: &rng) == 0 { members.append(#"".priority":3"#) }
            return "{" + members.joined(separator: Bool.random(using: &rng) ? "," : " ,\n ") + "}"
        }
    }

    static func randomPath(_ rng: inout SplitMix64) throws -> DatabasePath {
        let keys = (0..<Int.random(in: 1...3, using: &rng)).map { _ in Self.names.randomElement(using: &rng)! }
        return try DatabasePath(keys.joined(separator: "/"))
    }

    /// The child `k` of `{"k": text}`, or nil when it holds nothing.
    static func child(_ text: String) throws -> Snapshot? {
        try Snapshot.parse(json: #"{"k":"# + text + "}").children.first
    }

    @Test("seeded: value(at:), dictionary and digest agree with a child holding the parsed value")
    func differential() throws {
        let seed = TestSeed.current("REPLChild differential", default: 20_261_124)
        var rng = SplitMix64(seed: seed.value)
        var children: [(text: String, lazy: REPLChild, parsed: REPLChild)] = []
        while children.count < 300 {
            let text = Self.randomText(depth: 0, &rng)
            guard let snapshot = try Self.child(text) else { continue }
            let lazy = try REPLChild(snapshot: snapshot)
            let parsed = REPLChild(identifier: "k", dictionary: snapshot.value)
            #expect(lazy.dictionary == parsed.dictionary, "\(seed): \(text)")
            #expect(lazy.digest == parsed.digest, "\(seed): \(text)")
            for _ in 0..<4 {
                let path = try Self.randomPath(&rng)
                #expect(lazy.value(at: path) == parsed.value(at: path), "\(seed): \(text) at \(path)")
                let sectioned = try REPLChild(snapshot: snapshot, sectionPath: path)
                #expect(sectioned.section?.path == path)
                #expect(sectionValue(of: sectioned, at: path) == sectionValue(of: parsed, at: path),
                        "\(seed): \(text) sectioned by \(path)")
            }
            children.append((text, lazy, parsed))
        }
        for _ in 0..<600 {
            let (x, y) = (children.randomElement(using: &rng)!, children.randomElement(using: &rng)!)
            #expect((x.lazy.digest == y.lazy.digest) == (x.parsed.dictionary == y.parsed.dictionary),
                    "\(seed): \(x.text) and \(y.text)")
        }
    }

    @Test("the value at a path through a primitive, a missing member or an empty container is null")
    func missing() throws {
        let child = try REPLChild(snapshot: try #require(try Self.child(#"{"a": 1, "b": {}, "c": [null, 2], "d": {"e": "x"}}"#)))
        #expect(child.value(at: DatabasePath("a/b")) == .null)
        #expect(child.value(at: DatabasePath("z")) == .null)
        #expect(child.value(at: DatabasePath("b")) == .null)
        #expect(child.value(at: DatabasePath("c/1")) == .number(2))
        #expect(child.value(at: DatabasePath("c/0")) == .null)
        #expect(child.value(at: DatabasePath("d/e")) == .string("x"))
    }

    @Test("an updated child reads its new value; its digest follows")
    func updated() throws {
        var child = try REPLChild(snapshot: try #require(try Self.child(#"{"a": 1}"#)))
        let before = child.digest
        child.update(with: .object(["a": .number(2)]))
        #expect(child.value(at: DatabasePath("a")) == .number(2))
        #expect(child.digest != before)
        child.update(with: .object(["a": .number(1.0)]))
        #expect(child.digest == before)
    }

    @Test("a section value read at preparation is used for its path only, and an update drops it")
    func preparedSection() throws {
        let snapshot = try #require(try Self.child(#"{"g": "x", "h": 2}"#))
        var child = try REPLChild(snapshot: snapshot, sectionPath: "g")
        #expect(sectionValue(of: child, at: "g") == .string("x"))
        #expect(sectionValue(of: child, at: "h") == .number(2))
        child.update(with: .object(["g": .string("y")]))
        #expect(child.section == nil && sectionValue(of: child, at: "g") == .string("y"))
    }
}
