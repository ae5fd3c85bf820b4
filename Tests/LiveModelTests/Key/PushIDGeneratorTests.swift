import Testing
@testable import LiveModel

@Suite("Push ids")
struct PushIDGeneratorTests {
    static let alphabet = Set("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    static func check(_ ids: [Key]) {
        for id in ids {
            #expect(id.utf8Count == 20, "\(id)")
            #expect(id.string.utf8.allSatisfy { alphabet.contains($0) }, "\(id)")
        }
        for (a, b) in zip(ids, ids.dropFirst()) {
            #expect(a.string.utf8.lexicographicallyPrecedes(b.string.utf8), "\(a) then \(b)")
            #expect(a < b, "\(a) then \(b)")
        }
    }

    @Test func increasingWithinOneMillisecond() {
        var generator = PushIDGenerator()
        let ids = (0..<10_000).map { _ in generator.next(now: 1_700_000_000_000) }
        Self.check(ids)
        #expect(Set(ids.map { $0.string.prefix(8) }).count == 1)
    }

    @Test func increasingWhenTheClockGoesBack() {
        var generator = PushIDGenerator()
        var time: Int64 = 1_700_000_000_000
        var ids: [Key] = []
        for step in 0..<10_000 {
            ids.append(generator.next(now: time))
            time += step % 3 == 0 ? -7 : 1
        }
        Self.check(ids)
    }

    @Test func increasingAcrossMilliseconds() {
        var generator = PushIDGenerator()
        let ids = (0..<1_000).map { generator.next(now: 1_700_000_000_000 + Int64($0)) }
        Self.check(ids)
    }

    @Test func timePartIsBigEndianBase64() {
        var generator = PushIDGenerator()
        #expect(generator.next(now: 0).string.prefix(8) == "--------")
        // 66 = 1 * 64 + 2: digits 1 and 2 are "0" and "1".
        #expect(generator.next(now: 66).string.prefix(8) == "------01")
        // 2^48 - 1 is the largest time 8 digits hold.
        #expect(generator.next(now: (1 << 48) - 1).string.prefix(8) == "zzzzzzzz")
    }

    @Test func randomPartOverflowMovesTimeOn() {
        var generator = PushIDGenerator(lastTime: 64, lastRandom: Array(repeating: 63, count: 12))
        let id = generator.next(now: 64)
        // 64 is "------0-"; the id after "------0-zzzzzzzzzzzz" is at 65.
        #expect(id.string.prefix(8) == "------00")
        #expect(id > Key(unchecked: "------0-" + String(repeating: "z", count: 12)))
        let after = generator.next(now: 64)
        #expect(after.string.prefix(8) == "------00")
        #expect(id < after)
    }

    @Test func sameMillisecondAddsOne() {
        var generator = PushIDGenerator(lastTime: 0, lastRandom: Array(repeating: 0, count: 11) + [63])
        #expect(generator.next(now: 0).string == "--------" + String(repeating: "-", count: 10) + "0-")
        #expect(generator.next(now: 0).string == "--------" + String(repeating: "-", count: 10) + "00")
    }
}
