// DigestMemoTests.swift — a large node's digest, kept and followed through
// writes, equals the digest computed afresh.

import LiveModel
@testable import LiveServer
import Testing

@Suite("Digest memo")
struct DigestMemoTests {
    /// Whether `node` keeps the members of its digest.
    static func isKnown(_ node: DataNode) -> Bool {
        guard case .children(_, let memo) = node.value else { return false }
        return memo?.known != nil
    }

    /// A node of `count` children `k0`, `k1`, … holding `{"n": i}`.
    static func wide(_ count: Int, prefix: String = "k") throws -> DataNode {
        var members = JSONObject()
        for i in 0..<count { members["\(prefix)\(i)"] = .object(["n": .number(Double(i))]) }
        return try DataNode(json: .object(members))
    }

    @Test("a node stays 24 bytes")
    func size() {
        #expect(MemoryLayout<DataNode>.size <= 24)
    }

    @Test("digests followed through random writes equal digests computed afresh")
    func followedThroughWrites() throws {
        let seed = storeTestSeed("DigestMemoTests")
        var rng = SplitMix64(seed: seed)
        var root = try DataNode(json: .object(["big": try Self.wide(1500).json(export: true), "small": 1]))
        root.set(try Self.wide(1100, prefix: "g"), at: "big/k7")
        _ = root.digest  // fills the memos of both large nodes
        #expect(Self.isKnown(root.child("big")) && Self.isKnown(root.child(at: "big/k7")))
        for step in 0..<60 {
            let path: DatabasePath
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: path = try DatabasePath("big/k\(Int.random(in: 0..<1600, using: &rng))")
            case 1: path = try DatabasePath("big/k\(Int.random(in: 0..<1600, using: &rng))/n")
            case 2: path = try DatabasePath("big/k7/g\(Int.random(in: 0..<1200, using: &rng))")
            default: path = try DatabasePath("big/k7/g\(Int.random(in: 0..<1200, using: &rng))/deep/er")
            }
            let node: DataNode
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: node = .empty
            case 1: node = try storeNode("\(Int.random(in: 0..<9, using: &rng))")
            case 2: node = try storeNode(#"{".value": "s", ".priority": \#(Int.random(in: 0..<3, using: &rng))}"#)
            case 3: node = try storeNode(#"{"n": 1, "m": {"x": true}}"#)
            default: node = try storeNode(#""text""#)
            }
            root.set(node, at: path)
            let fresh = try DataNode(json: root.json(export: true))
            #expect(root.digest == fresh.digest, "seed \(seed), step \(step): \(path) = \(node); replay: LIVE_TEST_SEED=\(seed)")
            // Followed, not computed again: still known after the write.
            #expect(Self.isKnown(root.child("big")), "seed \(seed), step \(step)")
        }
        // A write of the large node itself makes a new one, digested when asked.
        root.set(try Self.wide(1200, prefix: "z"), at: "big")
        #expect(!Self.isKnown(root.child("big")))
        #expect(root.digest == (try DataNode(json: root.json(export: true))).digest)
        #expect(Self.isKnown(root.child("big")))
    }

    @Test("a copy taken for a read fills the memo of the node it was copied from")
    func copiesShareTheMemo() throws {
        let node = try Self.wide(DigestMemo.threshold)
        let copy = node
        #expect(!Self.isKnown(node))
        _ = copy.digest
        #expect(Self.isKnown(node))
        #expect(!Self.isKnown(try Self.wide(DigestMemo.threshold - 1)))  // too small for a memo
    }

    @Test("a write whose child would cost more than the budget to digest leaves the members to the next read")
    func expensiveChild() throws {
        var root = try DataNode(json: .object(["big": try Self.wide(300).json(export: true)]))
        root.set(try DataNode(json: .object(["x": try Self.wide(100).json(export: true)])), at: "big/c")
        _ = root.digest
        #expect(Self.isKnown(root.child("big")))
        // A new large node below a small one: its digest is not known, and
        // more than the budget to find.
        root.set(try Self.wide(DigestMemo.followBudget + 10), at: "big/c/x")
        #expect(!Self.isKnown(root.child("big")))
        #expect(root.digest == (try DataNode(json: root.json(export: true))).digest)
        #expect(Self.isKnown(root.child("big")) && Self.isKnown(root.child(at: "big/c/x")))
        // Known below again: followed.
        root.set(try storeNode("1"), at: "big/c/x/k3/n")
        #expect(Self.isKnown(root.child("big")))
        #expect(root.digest == (try DataNode(json: root.json(export: true))).digest)
    }
}
