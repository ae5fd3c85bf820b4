// TestSupport.swift — models, seeds and mirrors shared by the collection tests.
import Foundation
import LiveCollection
import LiveModel
import LiveTestSupport

/// A model with a Firebase-orderable score and a nested field for Swift orders.
struct Card: LiveModelProtocol, Codable, Equatable, Sendable {
    var identifier: Key
    var score: Double?
    var info: Info?
    struct Info: Codable, Equatable, Sendable { var rank: Int }
}

/// The seeded generator of the collection tests, with the draws they use.
typealias Rng = SplitMix64

extension SplitMix64 {
    init(_ seed: UInt64) { self.init(seed: seed) }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(n, 1))) }
    mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}

/// The seed of a randomised test, salted: LIVE_TEST_SEED (or a fixed
/// default) xor `salt`. The unsalted seed is printed, with how to replay it.
func testSeed(_ salt: UInt64 = 0, _ name: String = #function) -> UInt64 {
    TestSeed.current(name, default: 20_261_121).value ^ salt
}

/// LIVE_TEST_SEED if set, else `fallback`; printed so a run can be replayed.
func printedSeed(_ name: String, default fallback: UInt64 = 20_261_121) -> UInt64 {
    TestSeed.current(name, default: fallback).value
}

/// Keys mixing integer keys (which order numerically) and strings.
let keyPool: [Key] = (0..<24).map { Key($0) } + ["007", "-3", "a", "b", "Z", "é", "e\u{301}", "-Nabc", "😀", "｡"]
    .map { try! Key($0) } + (0..<30).map { try! Key("k\($0)") }

/// A mirror kept by applying the sequential contract.
struct SequentialMirror {
    var items: [Card] = []
    mutating func apply(_ change: SequentialChange<Card>) {
        switch change {
        case .inserted(let m, let at): items.insert(m, at: at)
        case .removed(_, let at): items.remove(at: at)
        case .updated(let m, let at): items[at] = m
        case .moved(let m, let from, let to):
            items.remove(at: from)
            items.insert(m, at: to)
        }
    }
}

/// Applies an update in the batch contract, from its definition: deletions,
/// updates and move sources by old position; insertions and move
/// destinations by new position; everything else keeps its relative order.
func applyBatch(_ update: CollectionUpdate<Card>, to old: [Card]) -> [Card]? {
    let b = update.batch
    guard b.oldCount == old.count else { return nil }
    var current = old
    for (i, at) in b.updated.enumerated() { current[at] = update.updatedModels[i] }
    var leaving = Set(b.deleted)
    for m in b.moved { leaving.insert(m.from) }
    let staying = current.enumerated().filter { !leaving.contains($0.offset) }.map(\.element)
    var placed = [Card?](repeating: nil, count: b.newCount)
    for (i, at) in b.inserted.enumerated() {
        guard at < b.newCount, placed[at] == nil else { return nil }
        placed[at] = update.insertedModels[i]
    }
    for (i, m) in b.moved.enumerated() {
        guard m.to < b.newCount, placed[m.to] == nil else { return nil }
        placed[m.to] = update.movedModels[i]
    }
    var rest = staying.makeIterator()
    for i in 0..<b.newCount where placed[i] == nil { placed[i] = rest.next() }
    guard rest.next() == nil, !placed.contains(where: { $0 == nil }) else { return nil }
    return placed.map { $0! }
}
