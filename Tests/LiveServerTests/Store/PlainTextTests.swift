// PlainTextTests.swift — the search for a string's end, eight bytes at a
// time, against a byte-by-byte search.

import LiveModel
@testable import LiveServer
import Testing

@Suite("Plain text")
struct PlainTextTests {
    /// The byte-by-byte answer of `PlainText.quoteOrBackslash`.
    static func expected(_ bytes: [UInt8], _ i: Int, _ end: Int) -> Int {
        var j = i
        while j < end, bytes[j] != UInt8(ascii: "\""), bytes[j] != UInt8(ascii: "\\") { j += 1 }
        return j
    }

    @Test("a quote or a backslash is found at every offset, and nothing else is taken for one")
    func quoteOrBackslash() {
        let seed = storeTestSeed("PlainTextTests.quoteOrBackslash")
        var rng = SplitMix64(seed: seed)
        // Bytes that differ from a quote or a backslash by one bit, or only
        // in the high bit, and text beyond ASCII.
        let near: [UInt8] = [0x21, 0x23, 0x02, 0xA2, 0x5D, 0x5B, 0x1C, 0xDC, 0x00, 0x01, 0x80, 0xFF, 0x7F, 0x20]
        for round in 0..<2000 {
            let count = Int.random(in: 0..<40, using: &rng)
            var bytes = (0..<count).map { _ in
                Bool.random(using: &rng) ? near.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            }
            for j in bytes.indices where bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "\\") {
                bytes[j] = 0x41
            }
            // At most two to find, anywhere.
            for _ in 0..<Int.random(in: 0...2, using: &rng) where count > 0 {
                bytes[Int.random(in: 0..<count, using: &rng)] = Bool.random(using: &rng) ? 0x22 : 0x5C
            }
            let start = Int.random(in: 0...count, using: &rng)
            let end = Int.random(in: start...count, using: &rng)
            let found = bytes.withUnsafeBufferPointer { PlainText.quoteOrBackslash($0, start, end) }
            #expect(found == Self.expected(bytes, start, end),
                    "seed \(seed), round \(round): \(bytes) from \(start) to \(end); replay: LIVE_TEST_SEED=\(seed)")
        }
    }

    @Test("a string's end: a plain name, a value with the escapes the server writes, and one it does not")
    func stringEnds() {
        for padding in 0..<10 {
            let filler = String(repeating: "é", count: padding)
            let name = Array("\"\(filler)name\":1".utf8)
            name.withUnsafeBufferPointer { p in
                #expect(PlainText.stringEnd(p, 0) == p.count - 2)
            }
            let escaped = Array(#""\#(filler)a\"b\\c\n\u001f":1"#.utf8)
            escaped.withUnsafeBufferPointer { p in
                #expect(PlainText.stringEnd(p, 0) == nil)
                #expect(PlainText.valueStringEnd(p, 0) == p.count - 2)
            }
            let unwritten = Array(#""\#(filler)\u0041""#.utf8)
            unwritten.withUnsafeBufferPointer { p in
                #expect(PlainText.valueStringEnd(p, 0) == nil)
            }
            let unterminated = Array("\"\(filler)abc".utf8)
            unterminated.withUnsafeBufferPointer { p in
                #expect(PlainText.stringEnd(p, 0) == nil)
                #expect(PlainText.valueStringEnd(p, 0) == nil)
            }
        }
    }
}
