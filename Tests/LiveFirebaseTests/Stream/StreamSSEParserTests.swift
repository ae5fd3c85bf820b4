// StreamSSEParserTests.swift — the event-stream format, line by line.

@testable import LiveFirebase
import Testing

@Suite struct StreamSSEParserTests {
    /// The events (and retries) `text` yields in one chunk.
    private func parse(_ text: String) throws -> [SSEItem] {
        var parser = SSEParser()
        return try parser.feed(Array(text.utf8))
    }

    private func event(_ name: String = "message", _ data: String, id: String? = nil) -> SSEItem {
        .event(ServerSentEvent(name: name, text: data, id: id))
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let label: String
        let input: String
        let expected: [SSEItem]
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "LF", input: "event: put\ndata: {}\n\n", expected: [.event(.init(name: "put", text: "{}"))]),
        Case(label: "CRLF", input: "event: put\r\ndata: {}\r\n\r\n", expected: [.event(.init(name: "put", text: "{}"))]),
        Case(label: "CR", input: "event: put\rdata: {}\r\r", expected: [.event(.init(name: "put", text: "{}"))]),
        Case(label: "mixed line ends", input: "event: a\r\ndata: 1\r\rdata: 2\n\r\n",
             expected: [.event(.init(name: "a", text: "1")), .event(.init(text: "2"))]),
        Case(label: "several data lines join with LF", input: "data: a\ndata: b\ndata:\ndata: c\n\n",
             expected: [.event(.init(text: "a\nb\n\nc"))]),
        Case(label: "one space after the colon is dropped, not two", input: "data:  x\ndata:y\n\n",
             expected: [.event(.init(text: " x\ny"))]),
        Case(label: "comments are ignored", input: ": hello\n:\ndata: 1\n: between\n\n",
             expected: [.event(.init(text: "1"))]),
        Case(label: "retry with digits", input: "retry: 1500\n\n", expected: [.retry(milliseconds: 1500)]),
        Case(label: "retry with anything else is ignored",
             input: "retry: 15x\nretry: -1\nretry:\nretry: 1.5\nretry: 99999999999999999999999\n\n", expected: []),
        Case(label: "a byte order mark at the start", input: "\u{FEFF}data: 1\n\n", expected: [.event(.init(text: "1"))]),
        Case(label: "a second byte order mark is part of the field name",
             input: "\u{FEFF}\u{FEFF}data: 1\n\ndata: 2\n\n", expected: [.event(.init(text: "2"))]),
        Case(label: "a field without colon has an empty value", input: "data\ndata\n\n",
             expected: [.event(.init(text: "\n"))]),
        Case(label: "event without colon resets the name", input: "event: x\nevent\ndata: 1\n\n",
             expected: [.event(.init(text: "1"))]),
        Case(label: "no data, no event", input: "event: put\n\n\n\nid: 3\n\n", expected: []),
        Case(label: "empty data is an event", input: "event: keep-alive\ndata:\n\n",
             expected: [.event(.init(name: "keep-alive", text: ""))]),
        Case(label: "the name resets after dispatch", input: "event: put\ndata: 1\n\ndata: 2\n\n",
             expected: [.event(.init(name: "put", text: "1")), .event(.init(text: "2"))]),
        Case(label: "unknown fields are ignored", input: "foo: bar\ndata: 1\nDATA: 2\n\n",
             expected: [.event(.init(text: "1"))]),
        Case(label: "the last event id carries over", input: "id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\n",
             expected: [.event(.init(text: "a", id: "7")), .event(.init(text: "b", id: "7")), .event(.init(text: "c"))]),
        Case(label: "an id with NUL is ignored", input: "id: 1\nid: a\u{0}b\ndata: x\n\n",
             expected: [.event(.init(text: "x", id: "1"))]),
        Case(label: "an unfinished event is not dispatched", input: "data: 1\n\ndata: 2\n", expected: [.event(.init(text: "1"))]),
        Case(label: "colons in the value stay", input: "data: {\"a\":\"b:c\"}\n\n",
             expected: [.event(.init(text: #"{"a":"b:c"}"#))]),
        Case(label: "a Firebase stream",
             input: "event: put\ndata: {\"path\":\"/\",\"data\":{\"a\":1}}\n\nevent: keep-alive\ndata: null\n\n"
                + "event: patch\ndata: {\"path\":\"/\",\"data\":{\"b\":2}}\n\n",
             expected: [.event(.init(name: "put", text: #"{"path":"/","data":{"a":1}}"#)),
                        .event(.init(name: "keep-alive", text: "null")),
                        .event(.init(name: "patch", text: #"{"path":"/","data":{"b":2}}"#))]),
    ]

    @Test("the WHATWG rules", arguments: cases)
    func rules(_ c: Case) throws {
        #expect(try parse(c.input) == c.expected)
    }

    @Test("a CR ending one chunk and an LF starting the next are one line end")
    func crlfAcrossChunks() throws {
        var parser = SSEParser()
        var items = try parser.feed(Array("data: 1\r".utf8))
        items += try parser.feed(Array("\ndata: 2\r".utf8))
        items += try parser.feed(Array("\n\r".utf8))
        items += try parser.feed(Array("\n".utf8))
        #expect(items == [.event(.init(text: "1\n2"))])
    }

    @Test("a byte order mark cut across chunks is still skipped; a partial one is kept")
    func splitBOM() throws {
        var parser = SSEParser()
        var items = try parser.feed([0xEF])
        items += try parser.feed([0xBB])
        items += try parser.feed([0xBF] + Array("data: 1\n\n".utf8))
        #expect(items == [.event(.init(text: "1"))])

        var other = SSEParser()
        // EF BB then "d": not a mark, so the field name starts with those bytes.
        let kept = try other.feed([0xEF, 0xBB] + Array("data: 1\n\ndata: 2\n\n".utf8))
        #expect(kept == [.event(.init(text: "2"))])

        var short = SSEParser()
        #expect(try short.feed(Array("\n".utf8)).isEmpty)
        #expect(try short.feed(Array("data: 3\n\n".utf8)) == [.event(.init(text: "3"))])
    }

    @Test("data stays bytes, invalid UTF-8 included")
    func bytes() throws {
        var parser = SSEParser()
        let items = try parser.feed(Array("data: ".utf8) + [0xFF, 0x00, 0xC3] + Array("\n\n".utf8))
        #expect(items == [.event(ServerSentEvent(data: [0xFF, 0x00, 0xC3]))])
    }

    @Test("an event past the limit throws, in one chunk or many, and the parser stays failed")
    func oversize() throws {
        var parser = SSEParser(maxEventBytes: 16)
        #expect(try parser.feed(Array("data: 0123456789\n\n".utf8)).count == 1)
        #expect(throws: SSEParserError.eventTooLarge(limit: 16)) {
            _ = try parser.feed(Array("data: 0123456789\ndata: 0123456789\n\n".utf8))
        }
        #expect(throws: SSEParserError.self) { _ = try parser.feed(Array("data: 1\n\n".utf8)) }

        var chunked = SSEParser(maxEventBytes: 16)
        #expect(throws: SSEParserError.self) {
            for _ in 0..<10 { _ = try chunked.feed(Array("0123".utf8)) }  // a line that never ends
        }

        var comments = SSEParser(maxEventBytes: 16)
        #expect(throws: SSEParserError.self) { _ = try comments.feed(Array((":" + String(repeating: "c", count: 40)).utf8)) }
        // A long comment line that does end is fine: comments are not kept.
        var ended = SSEParser(maxEventBytes: 64)
        #expect(try ended.feed(Array((":" + String(repeating: "c", count: 40) + "\ndata: 1\n\n").utf8)).count == 1)
    }

    @Test("a large event in small chunks")
    func large() throws {
        let value = String(repeating: "abcdefgh", count: 200_000)
        let stream = Array(("event: put\ndata: " + value + "\n\n").utf8)
        var parser = SSEParser()
        var items: [SSEItem] = []
        var i = 0
        while i < stream.count {
            try parser.feed(stream[i..<min(i + 4093, stream.count)], into: &items)
            i += 4093
        }
        #expect(items == [.event(.init(name: "put", text: value))])
    }
}
