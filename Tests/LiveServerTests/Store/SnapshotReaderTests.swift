import Testing
import LiveModel
@testable import LiveServer

/// The data file's reader, which keeps plain values as text, against
/// reading the same text as a request body: the same data, the same
/// answers to every read, and the same data after the same writes.
@Suite("Snapshot reader")
struct SnapshotReaderTests {
    /// Draws JSON text of the kinds a data file may hold, hostile ones
    /// included: whitespace, escapes, fractions, `-0`, long integers,
    /// `null`s, arrays, array-like objects, priorities, wrapped values,
    /// repeated members, and keys that look alike.
    struct TextDraw {
        var rng: SplitMix64

        static let keys = ["a", "b", "s", "0", "1", "2", "7", "10", "007", "-1", "café", "cafe\u{301}",
                           "-NjEtLV-lM28BqXD5Zfv", String(repeating: "k", count: 24), "😀😀😀😀😀"]
        static let numbers = ["0", "5", "-3", "181816", "123456789012345", "1234567890123456", "1.5", "1.0",
                              "2e3", "-0", "-0.0", "9007199254740993"]
        static let strings = [#""x""#, #""Item 0 elit""#, #""""#, #""a\nb""#, #""\u00e9""#, #""q\"q""#, #""é😀""#,
                              #""tab\there\\ \b\f\r""#, #""\u001f\u0001""#, #""\u001F""#, #""\/""#, #""\u0008""#,
                              #""\u0041""#]

        mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
        mutating func pick(_ values: [String]) -> String { values.randomElement(using: &rng)! }
        mutating func space() -> String { chance(0.05) ? pick([" ", "\n", "\t "]) : "" }

        mutating func key() -> String {
            let key = pick(Self.keys)
            // The same key spelled with an escape.
            if key == "a", chance(0.2) { return #""\u0061""# }
            return "\"" + key + "\""
        }

        mutating func value(depth: Int) -> String {
            let roll = Int.random(in: 0..<20, using: &rng)
            switch roll {
            case 0: return "null"
            case 1, 2: return chance(0.5) ? "true" : "false"
            case 3...6: return pick(Self.numbers)
            case 7...9: return pick(Self.strings)
            case 10 where depth < 4: return array(depth: depth)
            default: return depth < 4 ? object(depth: depth) : pick(Self.numbers)
            }
        }

        mutating func array(depth: Int) -> String {
            let count = Int.random(in: 0...3, using: &rng)
            return "[" + space() + (0..<count).map { _ in value(depth: depth + 1) }.joined(separator: space() + "," + space())
                + space() + "]"
        }

        mutating func object(depth: Int) -> String {
            // Some objects are large, so that they are read member by member.
            let count = chance(0.15) ? Int.random(in: 20...70, using: &rng) : Int.random(in: 0...5, using: &rng)
            var members: [String] = []
            for _ in 0..<count {
                members.append(space() + key() + space() + ":" + space() + value(depth: depth + 1))
            }
            if chance(0.1) { members.append(#"".priority":"# + pick(["1", #""p""#, "null"])) }
            if chance(0.05) { return #"{".value":"# + pick(Self.numbers) + #",".priority":2}"# }
            return "{" + members.joined(separator: ",") + space() + "}"
        }
    }

    @Test func readsAsABodyReads() throws {
        let seed = storeTestSeed("SnapshotReaderTests")
        var draw = TextDraw(rng: SplitMix64(seed: seed))
        var packedChildren = 0
        for round in 0..<150 {
            let text = draw.space() + (round % 10 == 0 ? draw.value(depth: 2) : draw.object(depth: 0)) + draw.space()
            let bytes = Array(text.utf8)
            let context = "seed \(seed), round \(round): \(text)"
            let body: DataNode
            do { body = try DataNode(json: JSONValue(parsingUTF8: bytes)) } catch {
                #expect(throws: (any Error).self, "\(context)") { try DataNode.reading(snapshot: bytes) }
                #expect(throws: (any Error).self, "\(context)") {
                    try DataNode.reading(snapshot: bytes + [UInt8](repeating: 0, count: Snapshot.checkPadding),
                                         length: bytes.count)
                }
                continue
            }
            // One digest: the server's ETag is the client's digest of the
            // same text, priorities included.
            let client = try Snapshot.parse(json: bytes)
            #expect(Store.etag(of: body) == (body.isEmpty ? Store.nullETag : client.digest().description), "\(context)")
            // Followed by the zero bytes that let the core check it in place,
            // or by other bytes (then it is checked on a copy).
            for trailer in [[UInt8](repeating: 0, count: Snapshot.checkPadding), Array("}x".utf8)] {
                let padded = try DataNode.reading(snapshot: bytes + trailer, length: bytes.count)
                expectSameReads(padded, body, "\(context), followed by \(trailer)")
            }
            for limit in [SnapshotReader.packLimit, 40] {
                var read = try DataNode.reading(snapshot: bytes, packLimit: limit)
                expectSameReads(read, body, "\(context), limit \(limit)")
                packedChildren += read.children.values.count(where: { if case .packed = $0.content { true } else { false } })
                // The same writes leave the same data.
                var written = body
                for _ in 0..<5 {
                    let path = try DatabasePath("/" + (0..<Int.random(in: 1...3, using: &draw.rng)).map { _ in
                        draw.pick(["a", "b", "s", "0", "10", "café", "new"])
                    }.joined(separator: "/"))
                    let node = draw.chance(0.3) ? .empty : try DataNode(json: JSONValue(parsing: draw.value(depth: 3)))
                    read.set(node, at: path)
                    written.set(node, at: path)
                    expectSameReads(read, written, "\(context), limit \(limit), after writing \(path)")
                }
            }
        }
        #expect(packedChildren > 150, "seed \(seed): only \(packedChildren) children were packed")
    }

    @Test("strings with the escapes the server writes stay text, written as they were read; others are read as JSON")
    func escapes() throws {
        let canonical = #"{"a":{"t":"q\"q\tx\\y\u001f\n\r\b\f","n":1},"b":"é\t😀"}"#
        let read = try DataNode.reading(snapshot: Array(canonical.utf8))
        let body = try DataNode(json: JSONValue(parsing: canonical))
        for key in ["a", "b"] {
            let child = read.child(Key(unchecked: key))
            guard case .packed = child.content else {
                Issue.record("\(key) is not kept as text")
                continue
            }
            #expect(try JSONValue(parsingUTF8: child.jsonBytes(export: false)) == body.child(Key(unchecked: key)).json(export: false))
            #expect(child == body.child(Key(unchecked: key)))
            #expect(child.digest == body.child(Key(unchecked: key)).digest)
        }
        // The string's text, sent as it was read, is what the server writes for it.
        for path: DatabasePath in ["a/t", "b"] {
            #expect(read.child(at: path).jsonBytes(export: false) == body.child(at: path).jsonBytes(export: false))
        }
        #expect(read.child(at: "a/t").leaf == .string("q\"q\tx\\y\u{1f}\n\r\u{8}\u{c}"))
        // Escapes the server does not write: read as JSON, written as the server writes them.
        for text in [#"{"x":{"t":"\u00e9"}}"#, #"{"x":{"t":"\/"}}"#, #"{"x":{"t":"\u001F"}}"#, #"{"x":{"t":"\u0009"}}"#] {
            let node = try DataNode.reading(snapshot: Array(text.utf8)).child("x")
            if case .packed = node.content { Issue.record("\(text) kept as text") }
            #expect(node == (try DataNode(json: JSONValue(parsing: text))).child("x"), "\(text)")
        }
    }

    @Test("objects with priorities nested 30 deep (as the server's own data file writes them) read as a body does")
    func nestedPriorities() throws {
        // Each object's `.priority` comes last, after its members were read:
        // each level is read member by member once, then as a body.
        var text = #""leaf""#
        for level in 0..<30 { text = #"{"a":\#(text),"b":{"n":\#(level)},".priority":\#(level)}"# }
        let bytes = Array(text.utf8)
        let read = try DataNode.reading(snapshot: bytes)
        #expect(read == (try DataNode(json: JSONValue(parsingUTF8: bytes))))
        #expect(read.priority == .number(29))
    }

    @Test("an object of many members (counted before its dictionary is made) reads as a body does")
    func manyMembers() throws {
        let members = (0..<(SnapshotReader.countedAfter * 2 + 7)).map { #""k\#($0)": {"n": \#($0), "s": "x"}"# }
        // Repeated keys, an empty member that removes one, and spaces.
        let text = "{ " + members.joined(separator: " ,\n") + #", "k3": null, "k5": {"n": -1} }"#
        let bytes = Array(text.utf8)
        let read = try DataNode.reading(snapshot: bytes)
        #expect(read == (try DataNode(json: JSONValue(parsingUTF8: bytes))))
        #expect(read.children.count == SnapshotReader.countedAfter * 2 + 6)
    }

    /// Every read of `read` answers as the same read of `body` does.
    /// (`nested`: a child of the node compared, whose own children are not
    /// compared one by one again.)
    private func expectSameReads(_ read: DataNode, _ body: DataNode, _ context: String, nested: Bool = false) {
        #expect(read == body, "\(context)")
        #expect(body == read, "\(context)")
        #expect(read.description == body.description, "\(context)")
        #expect(read.digest == body.digest, "\(context)")
        for export in [false, true] {
            #expect(read.json(export: export) == body.json(export: export), "\(context)")
            #expect((try? JSONValue(parsingUTF8: read.jsonBytes(export: export))) == body.json(export: export),
                    "\(context)")
        }
        #expect(read.shallowJSON() == body.shallowJSON(), "\(context)")
        #expect(read.isEmpty == body.isEmpty && read.hasChildren == body.hasChildren, "\(context)")
        guard !nested else { return }
        // Every location, reached from the top as a read finds it.
        var paths: [DatabasePath] = [.root]
        while let path = paths.popLast() {
            for key in body.child(at: path).children.keys {
                let child = try! path.child(key)
                expectSameReads(read.child(at: child), body.child(at: child), "\(context) at \(child)", nested: true)
                paths.append(child)
            }
        }
        for query in [DatabaseQuery(order: .child("s")), DatabaseQuery(order: .value, limit: .first(2)),
                      DatabaseQuery(order: .key, start: .init(value: .string("1")))] {
            #expect(query.window(of: read).map(\.key) == query.window(of: body).map(\.key), "\(context)")
        }
    }
}
