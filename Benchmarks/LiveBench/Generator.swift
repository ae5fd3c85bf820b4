// Generator.swift — seeded test data: push-id keys and snapshots of small objects.

import LiveModel

enum Generator {
    static let pushAlphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    /// A 20-character push id: 8 characters of time, 12 random, like Firebase's.
    static func pushID(time: UInt64, random: inout SplitMix64) -> [UInt8] {
        var key = [UInt8](repeating: 0, count: 20)
        var t = time
        for i in stride(from: 7, through: 0, by: -1) {
            key[i] = pushAlphabet[Int(t & 63)]
            t >>= 6
        }
        for i in 8..<20 { key[i] = pushAlphabet[Int(random.next() & 63)] }
        return key
    }

    /// Distinct push-id keys, in time order.
    static func keys(count: Int, seed: UInt64) -> [[UInt8]] {
        var random = SplitMix64(seed: seed)
        let start: UInt64 = 1_700_000_000_000
        return (0..<count).map { pushID(time: start + UInt64($0), random: &random) }
    }

    /// A snapshot `{"<push id>": {"title": ..., "score": int, "group": "g<k>",
    /// "updated": ms, "tags": {...}}, ...}` of `count` children, about 140
    /// bytes each.
    static func snapshot(count: Int, seed: UInt64) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        let words = ["lorem", "ipsum", "dolor", "sit", "amet", "consectetur", "adipiscing", "elit"]
        let tagNames = ["red", "green", "blue", "urgent", "later"]
        var out = [UInt8]()
        out.reserveCapacity(count * 150)
        out.append(UInt8(ascii: "{"))
        for (i, key) in keys(count: count, seed: seed ^ 0x5EED).enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            let title = "Item \(i) \(words[Int(random.next() % 8)]) \(words[Int(random.next() % 8)])"
            let score = random.next() % 1_000_000
            let group = random.next() % 100
            let updated = 1_700_000_000_000 + random.next() % 10_000_000
            // Two different tags: an object does not name a member twice.
            let first = Int(random.next() % 5)
            let tag1 = tagNames[first], tag2 = tagNames[(first + 1 + Int(random.next() % 4)) % 5]
            out.append(UInt8(ascii: "\""))
            out.append(contentsOf: key)
            out.append(contentsOf: Array(
                "\":{\"title\":\"\(title)\",\"score\":\(score),\"group\":\"g\(group)\",\"updated\":\(updated),\"tags\":{\"\(tag1)\":true,\"\(tag2)\":true}}".utf8))
        }
        out.append(UInt8(ascii: "}"))
        return out
    }
}
