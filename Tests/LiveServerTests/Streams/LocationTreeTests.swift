// LocationTreeTests.swift — the streams a write concerns, found by the tree,
// against a scan of every stream.

import Foundation
import LiveModel
@testable import LiveServer
import Testing

@Suite("Location tree")
struct LocationTreeTests {
    @Test("a write concerns exactly the streams at, above and below it, as streams come and go")
    func concernedMatchesAScan() throws {
        let seed = UInt64(ProcessInfo.processInfo.environment["LIVE_TEST_SEED"] ?? "") ?? 20261129
        var rng = SplitMix64(seed: seed)
        let names = ["a", "b", "c"]
        func path() -> DatabasePath {
            let depth = Int.random(in: 0...3, using: &rng)
            return DatabasePath(uncheckedKeys: (0..<depth).map { _ in Key(stringLiteral: names.randomElement(using: &rng)!) })
        }
        let tree = LocationTree()
        var open: [Int: DatabasePath] = [:]
        var nextID = 1
        for step in 0..<2_000 {
            if open.isEmpty || Int.random(in: 0..<3, using: &rng) > 0 {
                let at = path()
                tree.insert(nextID, at: at)
                open[nextID] = at
                nextID += 1
            } else {
                let id = open.keys.sorted()[Int.random(in: 0..<open.count, using: &rng)]
                tree.remove(id, at: open.removeValue(forKey: id)!)
            }
            let write = path()
            var found: [Int] = []
            tree.concerned(by: write, into: &found)
            let expected = open.filter { $0.value.starts(with: write) || write.starts(with: $0.value) }.keys.sorted()
            #expect(found.sorted() == expected, "seed \(seed), step \(step): write at \(write); replay: LIVE_TEST_SEED=\(seed)")
            #expect(Set(found).count == found.count, "seed \(seed), step \(step): a stream found twice")
        }
        for (id, at) in open { tree.remove(id, at: at) }
        #expect(tree.isEmpty, "seed \(seed): locations kept after every stream left")
    }
}
