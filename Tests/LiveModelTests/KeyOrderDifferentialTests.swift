import Testing
import LiveModel

/// Firebase key order written from DESIGN.md's rules, independently of the
/// C core, to check `Key <` against.
enum ReferenceKeyOrder {
    /// An optional "-" then ASCII digits, whose value fits Int32.
    static func integerValue(_ key: String) -> Int64? {
        let bytes = Array(key.utf8)
        var digits = bytes[...]
        var negative = false
        if digits.first == UInt8(ascii: "-") {
            negative = true
            digits = digits.dropFirst()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        let significant = digits.drop(while: { $0 == 48 })
        guard significant.count <= 10 else { return nil }
        var value: Int64 = 0
        for d in significant { value = value * 10 + Int64(d - 48) }
        if negative { value = -value }
        guard value >= Int64(Int32.min), value <= Int64(Int32.max) else { return nil }
        return value
    }

    static func utf16Compare(_ a: String, _ b: String) -> Int {
        let x = Array(a.utf16), y = Array(b.utf16)
        for (p, q) in zip(x, y) where p != q { return p < q ? -1 : 1 }
        return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
    }

    static func compare(_ a: String, _ b: String) -> Int {
        switch (integerValue(a), integerValue(b)) {
        case let (x?, y?):
            if x != y { return x < y ? -1 : 1 }
            if a.utf8.count != b.utf8.count { return a.utf8.count < b.utf8.count ? -1 : 1 }
            return utf16Compare(a, b)
        case (_?, nil): return -1
        case (nil, _?): return 1
        case (nil, nil): return utf16Compare(a, b)
        }
    }
}

@Suite("Key order, differential")
struct KeyOrderDifferentialTests {
    /// Pieces that make keys near every boundary of the rules.
    static let atoms: [String] = [
        "0", "00", "1", "7", "9", "-", "-0", "-1", "+", " ", "a", "A", "z", "_", "~", "e",
        "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967296", "99999999999",
        "\u{E9}", "e\u{301}", "\u{301}", "😀", "𝄞", "｡", "\u{FFFD}", "\u{E000}", "中", "ß", "\u{7E}", "\u{80}",
    ]

    static func randomKey(using generator: inout SplitMix64) -> String {
        var key = ""
        let pieces = Int.random(in: 1...3, using: &generator)
        for _ in 0..<pieces {
            if Bool.random(using: &generator) {
                key += atoms.randomElement(using: &generator)!
            } else {
                // A run of digits, often with leading zeros or a sign.
                var run = Int.random(in: 0...4, using: &generator) == 0 ? "-" : ""
                run += String(repeating: "0", count: Int.random(in: 0...2, using: &generator))
                run += String(UInt64.random(in: 0...UInt64(5_000_000_000), using: &generator) >> UInt64.random(in: 0...32, using: &generator))
                key += run
            }
        }
        return key
    }

    @Test("Key < agrees with a reference implementation on 20,000 random pairs")
    func randomPairs() throws {
        var generator = SplitMix64(seed: testSeed("Key order differential"))
        var checked = 0
        for _ in 0..<20_000 {
            let a = Self.randomKey(using: &generator)
            let b = Bool.random(using: &generator) ? Self.randomKey(using: &generator) : a
            guard let ka = try? Key(a), let kb = try? Key(b) else { continue }
            let expected = ReferenceKeyOrder.compare(a, b)
            #expect((ka < kb) == (expected < 0), "\(a.debugDescription) vs \(b.debugDescription)")
            #expect((kb < ka) == (expected > 0), "\(b.debugDescription) vs \(a.debugDescription)")
            #expect((ka == kb) == (expected == 0), "\(a.debugDescription) == \(b.debugDescription)")
            checked += 1
        }
        #expect(checked >= 10_000)
    }

    @Test("sorting random keys matches the reference and is a total order")
    func randomSorts() throws {
        var generator = SplitMix64(seed: testSeed("Key sort differential") &+ 1)
        for _ in 0..<50 {
            let strings = (0..<200).map { _ in Self.randomKey(using: &generator) }
            let keys = try strings.map { try Key($0) }
            let sorted = keys.sorted().map(\.string)
            let reference = strings.sorted { ReferenceKeyOrder.compare($0, $1) < 0 }
            #expect(sorted.elementsEqual(reference) { $0.utf8.elementsEqual($1.utf8) })
        }
    }
}
