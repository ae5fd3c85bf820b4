// StreamSSEChunkingTests.swift — the same bytes cut anywhere give the same
// events.

@testable import LiveFirebase
import LiveModel
import Testing

@Suite struct StreamSSEChunkingTests {
    /// A stream exercising every rule: each line end, comments, several
    /// data lines, retry, ids, empty and unfinished events, a mark at the
    /// start and multi-byte characters.
    static let stream: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((
        "event: put\r\ndata: {\"path\":\"/\",\"data\":{\"é\":1}}\r\n\r\n"
            + ": comment\rretry: 250\revent: patch\rdata: a\rdata: b\r\r"
            + "id: 9\nevent: keep-alive\ndata: null\n\n"
            + "data\n\n\n\nevent: cancel\r\ndata:  \"x\"\n\r\n"
            + "event: put\ndata: 漢字 ✓\n\ndata: tail"
    ).utf8)

    static func whole() throws -> [SSEItem] {
        var parser = SSEParser()
        return try parser.feed(stream)
    }

    @Test("the reference reading")
    func reference() throws {
        let items = try Self.whole()
        #expect(items.count == 7)
        #expect(items.first == .event(ServerSentEvent(name: "put", text: #"{"path":"/","data":{"é":1}}"#)))
        #expect(items.contains(.retry(milliseconds: 250)))
        #expect(items.last == .event(ServerSentEvent(name: "put", text: "漢字 ✓", id: "9")))
    }

    @Test("random cuts, one seed after another")
    func randomCuts() throws {
        let expected = try Self.whole()
        for seed in UInt64(1)...300 {
            var random = SplitMix64(seed: seed)
            var parser = SSEParser()
            var items: [SSEItem] = []
            var i = 0
            while i < Self.stream.count {
                let size = Int.random(in: 0...(seed % 3 == 0 ? 3 : 17), using: &random)
                let end = min(i + size, Self.stream.count)
                try parser.feed(Self.stream[i..<end], into: &items)
                i = end
            }
            #expect(items == expected, "chunking seed \(seed)")
            if items != expected { return }
        }
    }

    @Test("byte by byte")
    func byteByByte() throws {
        var parser = SSEParser()
        var items: [SSEItem] = []
        for byte in Self.stream { try parser.feed(CollectionOfOne(byte), into: &items) }
        #expect(items == (try Self.whole()))
    }
}
