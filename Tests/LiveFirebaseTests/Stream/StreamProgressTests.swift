// StreamProgressTests.swift — the first put's progress: children counted
// from raw bytes however they are cut, and the receiving messages of a
// large first put through the real transport.

import Foundation
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

@Suite struct StreamProgressTests {
    /// A put's bytes as a server frames them.
    static func event(_ data: String) -> [UInt8] {
        Array(("event: put\ndata: {\"path\":\"/\",\"data\":" + data + "}\n\n").utf8)
    }

    @Test("children are counted from the raw bytes, strings and nesting ignored", arguments: [
        ("null", 0), ("{}", 0), ("{\"a\":1}", 1), ("[1,2,3]", 3), ("\"x,y\"", 0),
        (#"{"a":{"b":[1,2],"c":"}, \"d\":"},"e":true,"f":null}"#, 3),
    ])
    func counts(data: String, children: Int) {
        var tally = ChildTally()
        tally.feed(Self.event(data))
        #expect(tally.children == children)
        #expect(tally.bytes == Self.event(data).count)
    }

    @Test("the count does not depend on where chunks are cut")
    func chunks() {
        let seed = testSeed()
        var random = SplitMix64(seed: seed)
        let members = (0..<200).map { #""k\#($0)":{"t":"a,\"b{","n":[\#($0),{"x":1}]}"# }
        let bytes = Self.event("{" + members.joined(separator: ",") + "}")
        var tally = ChildTally()
        var i = 0
        while i < bytes.count {
            let n = Int(random.next() % 40) + 1
            tally.feed(Array(bytes[i..<min(bytes.count, i + n)]))
            i += n
        }
        #expect(tally.children == 200, "seed \(seed)")
    }

    /// A first put over a megabyte: receiving messages with growing counts,
    /// then one complete message with every child just before the put.
    @Test("a large first put is announced while it arrives, then whole", .timeLimit(.minutes(10)))
    func largePut() async throws {
        let count = 30_000
        try await withServer { server in
            let members = (0..<count).map { #""k\#($0)": {"name": "item \#($0) with some text", "n": \#($0)}"# }
            try await streamWrite(server, "PUT", "/big", "{" + members.joined(separator: ",") + "}")
            let stream = DatabaseStream(reference: try streamReference(server, "/big"), clock: TestClock(),
                                        logger: streamQuietLogger)
            var progress: [LoadProgress] = []
            var followed = false
            for await message in await stream.start() {
                if case .receiving(let p) = message { progress.append(p) }
                if case .put = message {
                    followed = progress.last?.isComplete == true
                    break
                }
            }
            await stream.stop()
            #expect(followed)
            #expect(progress.count >= 2)
            #expect(progress.dropLast().allSatisfy { !$0.isComplete })
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.bytes <= $1.bytes && $0.children <= $1.children })
            #expect(progress.last?.children == count)
            #expect((progress.last?.bytes ?? 0) > 1 << 20)
        }
    }
}
