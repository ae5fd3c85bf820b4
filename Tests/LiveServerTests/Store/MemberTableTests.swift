// MemberTableTests.swift — a large object of a data file, kept in a table
// of its text with the writes since in an overlay, against the same object
// read as a body (a dictionary) and written the same way.

import LiveModel
@testable import LiveServer
import Testing

@Suite("Member table")
struct MemberTableTests {
    /// Whether `node` keeps its children in a table of its text.
    static func isTable(_ node: DataNode) -> Bool {
        if case .table = node.value { return true }
        return false
    }

    /// The text of an object of `count` members, of every kind a data file
    /// may hold: plain values, values read as a body is (arrays, fractions,
    /// priorities, escapes the server does not write), `null`s, names given
    /// twice, spaces.
    static func text(count: Int, rng: inout SplitMix64, escapedName: Bool = false) -> String {
        var members: [String] = []
        for i in 0..<count {
            let name = Int.random(in: 0..<20, using: &rng) == 0 ? "k\(Int.random(in: 0..<i + 1, using: &rng))" : "k\(i)"
            let value: String
            switch Int.random(in: 0..<10, using: &rng) {
            case 0: value = "null"
            case 1: value = "[1, 2, {\"a\": null}]"
            case 2: value = #"{"n": 1.5, "s": "\u00e9"}"#
            case 3: value = #"{".priority": \#(i % 7), "n": \#(i)}"#
            case 4: value = #""text \#(i)""#
            case 5: value = "\(i)"
            default: value = #"{"n": \#(i), "title": "Item \#(i)", "tags": {"a": true}}"#
            }
            members.append((i % 97 == 0 ? " " : "") + "\"\(name)\":" + value)
        }
        if escapedName { members.append(#""\u006b1": 7"#) }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// The same data read from a file (`read`) and as a body (`body`).
    static func pair(count: Int, rng: inout SplitMix64, escapedName: Bool = false) throws -> (read: DataNode, body: DataNode) {
        let bytes = Array(text(count: count, rng: &rng, escapedName: escapedName).utf8)
        return (try DataNode.reading(snapshot: bytes), try DataNode(json: JSONValue(parsingUTF8: bytes)))
    }

    /// Every whole read of `read` answers as the same read of `body`.
    static func expectSame(_ read: DataNode, _ body: DataNode, _ context: @autoclosure () -> String) {
        // (Compared as booleans: a failure would otherwise print both values.)
        let equal = read == body
        #expect(equal, "\(context())")
        #expect(read.childCount == body.childCount, "\(context())")
        #expect(read.digest == body.digest, "\(context())")
        for export in [false, true] {
            let same = (try? JSONValue(parsingUTF8: read.jsonBytes(export: export))) == body.json(export: export)
            #expect(same, "\(context())")
        }
        let text = JSONTextChunksTests.joined(JSONTextChunks(read, export: true), size: 1 << 12).text
        let chunked = (try? JSONValue(parsingUTF8: text)) == body.json(export: true)
        #expect(chunked, "\(context())")
    }

    @Test("a large object of a data file is kept in a table and reads as a body does")
    func readsAsABody() throws {
        let seed = storeTestSeed("MemberTableTests.readsAsABody")
        var rng = SplitMix64(seed: seed)
        let (read, body) = try Self.pair(count: SnapshotReader.countedAfter + 1500, rng: &rng)
        let isTable = Self.isTable(read)
        #expect(isTable, "seed \(seed)")
        Self.expectSame(read, body, "seed \(seed)")
        for (key, child) in body.children {
            let found = read.child(key) == child
            #expect(found, "seed \(seed): \(key)")
        }
        #expect(read.child("absent").isEmpty)
        // Wrapped in another object, and with a name spelled with an escape
        // (then read into a dictionary).
        let escaped = try Self.pair(count: SnapshotReader.countedAfter + 1500, rng: &rng, escapedName: true)
        let escapedIsTable = Self.isTable(escaped.read)
        #expect(!escapedIsTable, "seed \(seed)")
        Self.expectSame(escaped.read, escaped.body, "seed \(seed), an escaped name")
    }

    @Test("writes to a table's children read as the same writes to a dictionary's, digests followed")
    func writes() throws {
        let seed = storeTestSeed("MemberTableTests.writes")
        var rng = SplitMix64(seed: seed)
        // Enough members that more than `countedAfter` are present.
        let count = SnapshotReader.countedAfter + 1500
        let text = "{\"big\":" + Self.text(count: count, rng: &rng) + ",\"other\":1}"
        var read = try DataNode.reading(snapshot: Array(text.utf8))
        var body = try DataNode(json: JSONValue(parsingUTF8: Array(text.utf8)))
        let isTable = Self.isTable(read.child("big"))
        #expect(isTable, "seed \(seed)")
        _ = read.digest  // the memo is then followed through the writes
        for step in 0..<80 {
            let key = "k\(Int.random(in: 0..<count + 50, using: &rng))"
            let path: DatabasePath
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: path = try DatabasePath("big/\(key)")
            case 1: path = try DatabasePath("big/\(key)/n")
            default: path = try DatabasePath("big/\(key)/deep/er")
            }
            let node: DataNode
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: node = .empty
            case 1: node = try storeNode("\(Int.random(in: 0..<9, using: &rng))")
            case 2: node = try storeNode(#"{".value": "s", ".priority": 2}"#)
            default: node = try storeNode(#"{"n": 1, "m": {"x": true}}"#)
            }
            let before = read
            read.set(node, at: path)
            body.set(node, at: path)
            let context = "seed \(seed), step \(step): \(path) = \(node); replay: LIVE_TEST_SEED=\(seed)"
            let written = read.child(at: path) == body.child(at: path)
            #expect(written, "\(context)")
            #expect(read.child("big").childCount == body.child("big").childCount, "\(context)")
            #expect(read.digest == body.digest, "\(context)")
            // A copy taken before the write still reads as it did.
            let kept = before != read || before.child(at: path) == read.child(at: path)
            #expect(kept, "\(context)")
            if step % 20 == 19 { Self.expectSame(read, body, context) }
        }
        Self.expectSame(read, body, "seed \(seed), at the end")
    }

    @Test("a table's digest is its own members' with the writes since taken into them, followed by its parent's")
    func digests() throws {
        let seed = storeTestSeed("MemberTableTests.digests")
        var rng = SplitMix64(seed: seed)
        let count = SnapshotReader.countedAfter + 1500
        // The table beside enough siblings that its parent keeps a memo too.
        let siblings = (1..<300).map { #""c\#($0)":\#($0)"# }.joined(separator: ",")
        let text = Array((#"{"c0":"# + Self.text(count: count, rng: &rng) + "," + siblings + "}").utf8)
        var read = try DataNode.reading(snapshot: text)
        var body = try DataNode(json: JSONValue(parsingUTF8: text))
        let isTable = Self.isTable(read.child("c0"))
        #expect(isTable, "seed \(seed)")
        // More nodes than a write follows, and none of them large enough
        // to keep its digest: never cheap.
        let group = "{" + (0..<100).map { #""x\#($0)":\#($0)"# }.joined(separator: ",") + "}"
        let large = try storeNode("{" + (0..<50).map { #""g\#($0)":"# + group }.joined(separator: ",") + "}")
        func write(_ node: DataNode, at path: DatabasePath, _ context: String) {
            read.set(node, at: path)
            body.set(node, at: path)
            #expect(read.digest == body.digest, "seed \(seed), \(context); replay: LIVE_TEST_SEED=\(seed)")
        }
        // Writes before any digest (the last of a child too large to
        // follow): the first digest takes them into the table's own members.
        for step in 0..<20 {
            let key = "k\(Int.random(in: 2..<count + 50, using: &rng))"
            let node = try storeNode(step % 3 == 0 ? "null" : "\(step)")
            read.set(node, at: try DatabasePath("c0/\(key)"))
            body.set(node, at: try DatabasePath("c0/\(key)"))
        }
        read.set(large, at: "c0/k1")
        body.set(large, at: "c0/k1")
        #expect(read.digest == body.digest, "seed \(seed), writes before the first digest")
        // Replacing the large child leaves the table's node without a known
        // digest, and its parent follows it through the table's own members.
        write(try storeNode("1"), at: "c0/k1", "the large child replaced")
        if case .children(_, let memo) = read.value {
            let followed = memo?.known != nil
            #expect(followed, "seed \(seed): the parent's digest was not followed through the table's")
        }
        for step in 0..<30 {
            let path = try DatabasePath("c0/k\(Int.random(in: 0..<count + 50, using: &rng))")
            write(step % 4 == 0 ? .empty : try storeNode(#"{"n": \#(step)}"#), at: path, "step \(step): \(path)")
        }
        Self.expectSame(read, body, "seed \(seed), at the end")
    }

    @Test("large objects nested in large objects, some with a name spelled with an escape, are each read once")
    func nested() throws {
        // Read again at each level, this would take 2^12 readings of the
        // innermost object (a body that must not hold the server).
        var text = "1"
        for level in 0..<12 {
            let members = (1...SnapshotReader.countedAfter + 4).map { #""m\#($0)":\#($0)"# }
            let escaped = level % 2 == 1 ? #","\u006d1":"escaped""# : ""
            text = #"{"m0":"# + text + "," + members.joined(separator: ",") + escaped + "}"
        }
        let bytes = Array(text.utf8)
        let read = try DataNode.reading(snapshot: bytes)
        let body = try DataNode(json: JSONValue(parsingUTF8: bytes))
        let equal = read == body
        #expect(equal)
        let (outer, inner) = (Self.isTable(read), Self.isTable(read.child("m0")))
        #expect(!outer && inner)  // the outermost level has the escaped name
        #expect(read.child(at: "m0/m1") == body.child(at: "m0/m1"))
    }

    @Test("removing every child of a table leaves nothing")
    func removeAll() throws {
        var rng = SplitMix64(seed: 7)
        var (read, _) = try Self.pair(count: SnapshotReader.countedAfter + 1500, rng: &rng)
        let isTable = Self.isTable(read)
        #expect(isTable)
        read.set(.empty, at: "k0")
        let keys = Array(read.children.keys)
        for key in keys { read.set(.empty, at: DatabasePath(uncheckedKeys: [key])) }
        #expect(read.isEmpty)
        #expect(read.children.isEmpty)
    }
}
