// SequentialReplayTests.swift — grouped changes told row by row: replayed on
// a brute-force mirror they reach the new state, through valid indexes and
// without empty sections, and rows that keep their place are not touched.
import Foundation
import LiveModel
import LiveTestSupport
import Testing

@testable import LiveSections

@Suite("Sequential replay of grouped changes")
struct SequentialReplayTests {
    /// Applies `steps` to `state`; nil (with the reason) when a step is invalid.
    static func replay(_ steps: [ReplayStep<Int>], on start: [SectionSnapshot<Int, Key>],
                       updated: (Key) -> Bool) -> Result<[SectionSnapshot<Int, Key>], ReplayFailure> {
        var state = start
        var told = Set<Key>()
        for step in steps {
            switch step {
            case .sectionRemoved(_, let at):
                guard state.indices.contains(at) else { return .failure(.init("section removal out of range")) }
                state.remove(at: at)
            case .rowRemoved(let key, let at):
                guard state.indices.contains(at.section), state[at.section].items.indices.contains(at.row),
                      state[at.section].items[at.row] == key else { return .failure(.init("removal of the wrong row")) }
                state[at.section].items.remove(at: at.row)
                if state[at.section].items.isEmpty { return .failure(.init("a section left empty")) }
            case .sectionInserted(let id, let at, let keys):
                guard at >= 0, at <= state.count, !keys.isEmpty else { return .failure(.init("bad section insertion")) }
                state.insert(SectionSnapshot(id: id, items: keys), at: at)
            case .rowInserted(let key, let at):
                guard state.indices.contains(at.section), at.row >= 0, at.row <= state[at.section].items.count else {
                    return .failure(.init("insertion out of range"))
                }
                state[at.section].items.insert(key, at: at.row)
            case .rowUpdated(let key, let at):
                guard state.indices.contains(at.section), state[at.section].items.indices.contains(at.row),
                      state[at.section].items[at.row] == key, updated(key), told.insert(key).inserted else {
                    return .failure(.init("bad update"))
                }
            }
        }
        return .success(state)
    }

    struct ReplayFailure: Error { let reason: String; init(_ r: String) { reason = r } }

    /// Sections ascending by id, rows with distinct keys.
    static func randomState(_ r: inout Rng, keys: Int) -> [SectionSnapshot<Int, Key>] {
        var groups: [Int: [Key]] = [:]
        for k in 0..<keys where r.below(3) > 0 { groups[r.below(r.below(20) + 1), default: []].append(Key(k)) }
        return groups.keys.sorted().map { id in
            var items = groups[id]!
            for i in items.indices.reversed() { items.swapAt(i, r.below(i + 1)) }
            return SectionSnapshot(id: id, items: items)
        }
    }

    @Test("30,000 random pairs of states: the replay reaches the new state through valid steps")
    func randomPairs() async {
        // Seconds of computation: on a thread of its own, not the shared pool.
        await offThePool { [self] in self.randomPairsOnItsThread() }
    }

    private func randomPairsOnItsThread() {
        let seed = testSeed("randomPairs", default: 20_261_121)
        var r = Rng(seed: seed)
        for round in 0..<TestScale.count(30_000) {
            let keys = r.below(60)
            let old = Self.randomState(&r, keys: keys)
            // Either an unrelated state or a few changes of the old one.
            var new = old
            if r.below(2) == 0 {
                new = Self.randomState(&r, keys: keys)
            } else {
                for _ in 0..<r.below(4) where !new.isEmpty {
                    let s = r.below(new.count)
                    if !new[s].items.isEmpty { new[s].items.remove(at: r.below(new[s].items.count)) }
                }
                new.removeAll { $0.items.isEmpty }
            }
            let updated = Set((0..<keys).filter { _ in r.below(5) == 0 }.map { Key($0) })
            let steps = SequentialReplay.steps(from: old, to: new, isUpdated: { updated.contains($0) })
            switch Self.replay(steps, on: old, updated: { updated.contains($0) }) {
            case .failure(let failure):
                Issue.record("seed \(seed) round \(round): \(failure.reason)"); return
            case .success(let state) where state != new:
                Issue.record("seed \(seed) round \(round): the replay ends elsewhere"); return
            case .success:
                break
            }
            if old == new, steps.contains(where: { if case .rowUpdated = $0 { false } else { true } }) {
                Issue.record("seed \(seed) round \(round): an unchanged state moved rows"); return
            }
        }
    }

    @Test("one row moved and one updated: two steps for the move, one for the update, nothing else")
    func minimal() {
        let old = [SectionSnapshot(id: 0, items: ["a", "b", "c"] as [Key]), SectionSnapshot(id: 1, items: ["d"])]
        let new = [SectionSnapshot(id: 0, items: ["b", "c"] as [Key]), SectionSnapshot(id: 1, items: ["d", "a"])]
        let steps = SequentialReplay.steps(from: old, to: new, isUpdated: { $0 == "c" })
        #expect(steps == [.rowRemoved("a", at: RowPath(section: 0, row: 0)),
                          .rowInserted("a", at: RowPath(section: 1, row: 1)),
                          .rowUpdated("c", at: RowPath(section: 0, row: 1))])
    }
}
