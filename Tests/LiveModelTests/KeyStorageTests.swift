import Testing
@testable import LiveModel

/// A key of up to 20 bytes is held inline, a longer one as a string: both
/// forms must behave as one type, whatever the length and however the key
/// was made.
@Suite("Key storage")
struct KeyStorageTests {
    /// Pieces of 1 to 4 bytes of UTF-8, so that random keys straddle the
    /// inline capacity at every byte offset.
    static let pieces: [String] = [
        "a", "Z", "-", "_", "0", "7", "\u{E9}", "e\u{301}", "中", "😀", "｡", "~", "ß", "x",
    ]

    static func randomKey(using generator: inout SplitMix64) -> String {
        var key = ""
        let target = Int.random(in: 1...40, using: &generator)
        while key.utf8.count < target { key += pieces.randomElement(using: &generator)! }
        return key
    }

    /// The key as the C core hands it over: borrowed UTF-8 bytes.
    static func fromBytes(_ text: String) -> Key {
        Array(text.utf8).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { Key(uncheckedUTF8: $0.baseAddress, count: $0.count) }
        }
    }

    @Test("keys on each side of the inline capacity keep their text, length and identity",
          arguments: [19, 20, 21, 40])
    func boundary(length: Int) throws {
        let ascii = String(repeating: "k", count: length)
        // A two-byte character across the boundary: 19 + 2 bytes is 21.
        let straddling = String(repeating: "k", count: length - 1) + "\u{E9}"
        for text in [ascii, straddling] {
            let key = try Key(text)
            #expect(key.string.utf8.elementsEqual(text.utf8))
            #expect(key.utf8Count == text.utf8.count)
            #expect(key == Self.fromBytes(text))
            #expect(key == Key(unchecked: text))
            #expect(key.hashValue == Self.fromBytes(text).hashValue)
            #expect(key.withUTF8 { Array($0) } == Array(text.utf8))
        }
        #expect(try Key(ascii) != Key(straddling))
    }

    @Test("canonically equivalent keys stay distinct, inline and as strings")
    func unicodeEquivalence() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(try Key(composed) != Key(decomposed))
        let long = String(repeating: "x", count: 20)
        #expect(try Key(long + composed) != Key(long + decomposed))
        let set: Set<Key> = try [Key(composed), Key(decomposed), Key(long + composed), Key(long + decomposed)]
        #expect(set.count == 4)
    }

    @Test("integer keys and their values, including the longest integers")
    func integers() throws {
        #expect(Key(Int(Int64.min)).string == "-9223372036854775808")
        #expect(Key(Int(Int64.min)).integerValue == nil)
        #expect(Key("-2147483648").integerValue == Int32.min)
        #expect(Key("00000000000000000000007").integerValue == 7)  // 23 bytes: a string
        #expect(Key("0000000000000000007").integerValue == 7)  // 19 bytes: inline
    }

    @Test("random keys: equality, hashing, order, text and JSON agree across both forms")
    func random() throws {
        let seed = testSeed("Key storage random")
        var generator = SplitMix64(seed: seed)
        for _ in 0..<5_000 {
            let a = Self.randomKey(using: &generator)
            let b = Bool.random(using: &generator) ? Self.randomKey(using: &generator) : a
            let ka = try Key(a), kb = Self.fromBytes(b)
            let same = a.utf8.elementsEqual(b.utf8)
            #expect((ka == kb) == same, "seed \(seed): \(a.debugDescription) == \(b.debugDescription)")
            if same { #expect(ka.hashValue == kb.hashValue, "seed \(seed): \(a.debugDescription)") }
            let expected = ReferenceKeyOrder.compare(a, b)
            #expect((ka < kb) == (expected < 0), "seed \(seed): \(a.debugDescription) < \(b.debugDescription)")
            #expect(ka.string.utf8.elementsEqual(a.utf8), "seed \(seed): \(a.debugDescription)")
            var viaKey: [UInt8] = [], viaString: [UInt8] = []
            JSONValue.writeKey(ka, to: &viaKey)
            JSONValue.writeString(a, to: &viaString)
            #expect(viaKey == viaString, "seed \(seed): \(a.debugDescription)")
        }
    }
}
