import Testing
import LiveModel
@testable import LiveServer

@Suite("JSON text written a chunk at a time")
struct JSONTextChunksTests {
    /// All the chunks of `chunks` at `size`, checking that each stops at the
    /// first boundary past `size`, and that the count says so.
    static func joined(_ chunks: JSONTextChunks, size: Int) -> (text: [UInt8], count: Int) {
        var chunks = chunks
        var text: [UInt8] = []
        var count = 0
        var more = true
        while more {
            var out: [UInt8] = []
            more = chunks.next(into: &out, size: size)
            if more { #expect(out.count >= size, "a chunk before the last stops only past the size asked for") }
            count += 1
            text += out
        }
        #expect(chunks.isFinished)
        return (text, count)
    }

    @Test("seeded: the chunks at any size join into the text written in one piece, exported or not")
    func chunksJoin() throws {
        let seed = storeTestSeed("JSONTextChunks join")
        var draw = QueryDifferentialTests.Draw(rng: SplitMix64(seed: seed))
        for round in 0..<300 {
            let value = DataNodeRenderingTests.randomValue(&draw)
            // Also as a data file's text, packed where plain (small packing
            // limit: larger objects are read member by member).
            let nodes = [try DataNode(json: value),
                         try DataNode.reading(snapshot: Array(value.jsonText().utf8), packLimit: 8)]
            for node in nodes {
                for export in [false, true] {
                    let whole = node.jsonBytes(export: export)
                    for size in [1, 5, 64, 1 << 20] {
                        let chunks = JSONTextChunks(node, export: export, prefix: Array("<".utf8), suffix: Array(">".utf8))
                        #expect(Self.joined(chunks, size: size).text == Array("<".utf8) + whole + Array(">".utf8),
                                "seed \(seed), round \(round), export \(export), size \(size): \(node)")
                    }
                    var counted = JSONTextChunks(node, export: export)
                    #expect(counted.drainCount(chunk: 3) == whole.count, "seed \(seed), round \(round)")
                }
            }
        }
    }

    @Test("a window's members, as a list or by key, are one object; none is null")
    func members() throws {
        let node = try storeNode(#"{"a": 1, "b": {"c": [1, 2]}, "d": "x"}"#)
        let list = node.children.sorted { $0.key < $1.key }.map { (key: $0.key, node: $0.value) }
        let expected = storeJSON(#"{"a": 1, "b": {"c": [1, 2]}, "d": "x"}"#)
        for size in [1, 4, 100] {
            #expect(try JSONValue(parsingUTF8: Self.joined(JSONTextChunks(members: list, export: false), size: size).text)
                == expected)
            #expect(try JSONValue(parsingUTF8: Self.joined(JSONTextChunks(members: node.children, export: false),
                                                           size: size).text) == expected)
        }
        #expect(Self.joined(JSONTextChunks(members: [(key: Key, node: DataNode)](), export: false), size: 1).text
            == Array("null".utf8))
        #expect(Self.joined(JSONTextChunks(members: DataNode.Children([:]), export: true), size: 1).text == Array("null".utf8))
        #expect(Self.joined(JSONTextChunks(.empty, export: false), size: 1).text == Array("null".utf8))
    }

    @Test("a large location comes in chunks of about the size asked for, each ending between members")
    func largeLocation() throws {
        var members = JSONObject()
        for i in 0..<2_000 { members["k\(i)"] = .object(["title": .string("item \(i)"), "score": .number(Double(i))]) }
        let node = try DataNode(json: .object(["items": .object(members)]))
        let (text, count) = Self.joined(JSONTextChunks(node, export: false), size: 4_096)
        #expect(text == node.jsonBytes(export: false))
        #expect(count >= text.count / 5_000 && count <= text.count / 4_096 + 1)
    }

    @Test("bytes put before the text go out first, once")
    func prepend() throws {
        var chunks = JSONTextChunks(try storeNode(#"{"a": 1}"#), export: false, prefix: Array("P".utf8))
        chunks.prepend(Array("K".utf8))
        #expect(Self.joined(chunks, size: 1).text == Array(#"KP{"a":1}"#.utf8))
    }
}
