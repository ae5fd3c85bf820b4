import LiveTestSupport
import Testing
import LiveCollection

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Support (file-private so other test files can define their own)

/// Draws below `bound` (> 0); the modulo bias does not matter here.
private func draw(_ bound: Int, _ rng: inout Rng) -> Int { Int(rng.next() % UInt64(bound)) }

/// Fisher–Yates with `draw` (cheaper than the generic `shuffled` in debug builds).
private func shuffledCopy<T>(_ array: [T], _ rng: inout Rng) -> [T] {
    var result = array
    var index = result.count
    while index > 1 {
        let other = draw(index, &rng)
        index -= 1
        result.swapAt(index, other)
    }
    return result
}

/// A batch described by explicit arrays of distinct ids. Old ids are
/// `0..<old.count` (so an old item's id is its old position); new ids follow.
private struct Scenario: CustomStringConvertible {
    var old: [Int]
    var new: [Int]
    /// Per id, whether its content changed.
    var changed: [Bool]
    /// compute() inputs, in random order.
    var deleted: [Int]
    var inserted: [Int]
    var kept: [BatchDiff.Kept]
    /// The same deleted and inserted positions, ascending.
    var deletedAscending: [Int]
    var insertedAscending: [Int]

    var description: String {
        "old \(old)\nnew \(new)\nchanged ids \(changed.indices.filter { changed[$0] })\n"
            + "deleted \(deleted)\ninserted \(inserted)\nkept \(kept.map { "\($0.old)->\($0.new)\($0.changed ? "*" : "")" })"
    }

    /// Old positions in new order of the items present in both states.
    var commonOldPositionsInNewOrder: [Int] { new.filter { $0 < old.count } }

    /// Derives the compute() inputs (shuffled) from `old`, `new` and the
    /// touched ids.
    init(old: [Int], new: [Int], touched: [Bool], changed: [Bool], using rng: inout Rng) {
        self.old = old
        self.new = new
        self.changed = changed
        var present = [Bool](repeating: false, count: old.count)
        var inserted: [Int] = []
        var kept: [BatchDiff.Kept] = []
        for position in new.indices {
            let id = new[position]
            if id >= old.count {
                inserted.append(position)
            } else {
                present[id] = true
                if touched[id] { kept.append(BatchDiff.Kept(old: id, new: position, changed: changed[id])) }
            }
        }
        deletedAscending = old.indices.filter { !present[$0] }
        insertedAscending = inserted
        self.deleted = shuffledCopy(deletedAscending, &rng)
        self.inserted = shuffledCopy(inserted, &rng)
        self.kept = shuffledCopy(kept, &rng)
    }
}

/// Random scenario: chooses deleted / touched / untouched items, keeps the
/// untouched ones (and touched ones that "stay") in order, and drops the other
/// touched items and the new ones at random places.
private func randomScenario(maxOld: Int, maxInserted: Int, using rng: inout Rng) -> Scenario {
    let oldCount = draw(maxOld + 1, &rng)
    // Per-case rates (percent) so that sparse and dense batches both occur.
    let deleteRate = [0, 5, 20, 50][draw(4, &rng)]
    let touchRate = [0, 5, 20, 50, 90, 100][draw(6, &rng)]
    let stayRate = [0, 30, 70][draw(3, &rng)]
    let changeRate = [0, 50, 100][draw(3, &rng)]
    let insertCount = draw(2, &rng) == 0 ? 0 : draw(maxInserted + 1, &rng)

    var skeleton: [Int] = []      // untouched + staying touched, in old order
    var floating: [Int] = []      // touched kept that get a random place, and new ids
    var touched = [Bool](repeating: false, count: oldCount)
    var changed = [Bool](repeating: false, count: oldCount + insertCount)
    for id in 0..<oldCount {
        if draw(100, &rng) < deleteRate { continue }
        if draw(100, &rng) < touchRate {
            touched[id] = true
            changed[id] = draw(100, &rng) < changeRate
            if draw(100, &rng) < stayRate { skeleton.append(id) } else { floating.append(id) }
        } else {
            skeleton.append(id)
        }
    }
    floating += oldCount..<(oldCount + insertCount)
    floating = shuffledCopy(floating, &rng)
    var new = skeleton
    for id in floating { new.insert(id, at: draw(new.count + 1, &rng)) }
    return Scenario(old: Array(0..<oldCount), new: new, touched: touched, changed: changed, using: &rng)
}

/// LIS length by O(n²) dynamic programming.
private func lisQuadratic(_ values: [Int]) -> Int {
    var best = [Int](repeating: 1, count: values.count)
    var result = 0
    for i in values.indices {
        for j in 0..<i where values[j] < values[i] && best[j] + 1 > best[i] { best[i] = best[j] + 1 }
        result = max(result, best[i])
    }
    return result
}

/// LIS length by patience sorting, O(n log n).
private func lisPatience(_ values: [Int]) -> Int {
    var tails: [Int] = []
    for value in values {
        var low = 0
        var high = tails.count
        while low < high {
            let mid = (low + high) / 2
            if tails[mid] < value { low = mid + 1 } else { high = mid }
        }
        if low == tails.count { tails.append(value) } else { tails[low] = value }
    }
    return tails.count
}

private func isStrictlyAscending(_ list: [Int], below bound: Int) -> Bool {
    var previous = -1
    for value in list {
        if value <= previous || value >= bound { return false }
        previous = value
    }
    return true
}

/// Checks every property of the batch for a scenario; nil when all hold.
private func failure(of scenario: Scenario, lis: ([Int]) -> Int) -> String? {
    let batch: CollectionBatch
    do {
        batch = try BatchDiff.compute(oldCount: scenario.old.count, newCount: scenario.new.count,
                                      deleted: scenario.deleted, inserted: scenario.inserted, kept: scenario.kept)
    } catch {
        return "compute threw \(error)"
    }
    func fail(_ message: String) -> String { message + "\n\(batch)" }
    guard batch.oldCount == scenario.old.count, batch.newCount == scenario.new.count else { return fail("counts") }
    // (3) sorted and in range.
    guard isStrictlyAscending(batch.deleted, below: batch.oldCount),
          isStrictlyAscending(batch.inserted, below: batch.newCount),
          isStrictlyAscending(batch.moved.map { $0.to }, below: batch.newCount),
          isStrictlyAscending(batch.updated, below: batch.oldCount),
          batch.moved.allSatisfy({ $0.from >= 0 && $0.from < batch.oldCount })
    else { return fail("lists not sorted or out of range") }
    guard batch.deleted == scenario.deletedAscending, batch.inserted == scenario.insertedAscending else {
        return fail("deleted/inserted differ from input")
    }
    // (1) applying reproduces the new array.
    let insertedElements = batch.inserted.map { scenario.new[$0] }
    do {
        let applied = try batch.apply(to: scenario.old, inserting: insertedElements)
        guard applied == scenario.new else { return fail("apply gives \(applied)") }
    } catch {
        return fail("apply threw \(error)")
    }
    // (2) minimal moves.
    let common = scenario.commonOldPositionsInNewOrder
    let expectedMoves = common.count - lis(common)
    guard batch.moved.count == expectedMoves else {
        return fail("\(batch.moved.count) moves, minimum is \(expectedMoves)")
    }
    // (4) each changed item exactly once; unchanged ones never flagged.
    var mentions = [Int](repeating: 0, count: scenario.old.count)  // per old position
    for position in batch.updated { mentions[position] += 1 }
    for move in batch.moved {
        let isChanged = scenario.changed[scenario.old[move.from]]
        guard move.updated == isChanged else { return fail("move \(move) has the wrong updated flag") }
        if move.updated { mentions[move.from] += 1 }
    }
    for position in scenario.old.indices where mentions[position] != (scenario.changed[scenario.old[position]] ? 1 : 0) {
        return fail("old position \(position) mentioned \(mentions[position]) times as updated")
    }
    return nil
}

// MARK: - Tests

@Suite("BatchDiff")
struct BatchDiffTests {
    /// 4 chunks of 25,000 cases, run in parallel.
    @Test("random small batches against a brute-force oracle", arguments: 0..<4)
    func randomSmall(chunk: Int) async {
        // Seconds of computation: on a thread of its own, not the shared pool.
        await offThePool { [self] in self.randomSmallOnItsThread(chunk: chunk) }
    }

    private func randomSmallOnItsThread(chunk: Int) {
        let seed = printedSeed("BatchDiff random small, chunk \(chunk)", default: 20_260_407)
        var rng = Rng(seed: seed &+ UInt64(chunk) &* 0x1_0000_0001)
        for index in 0..<TestScale.count(25_000) {
            let scenario = randomScenario(maxOld: 60, maxInserted: 20, using: &rng)
            if let message = failure(of: scenario, lis: lisQuadratic) {
                Issue.record("seed \(seed), chunk \(chunk), case \(index): \(message)\n\(scenario)")
                return
            }
        }
    }

    @Test("random larger collections, dense and sparse (long untouched runs)")
    func randomLarger() async {
        // Seconds of computation: on a thread of its own, not the shared pool.
        await offThePool { [self] in self.randomLargerOnItsThread() }
    }

    private func randomLargerOnItsThread() {
        let seed = printedSeed("BatchDiff random larger", default: 20_260_407)
        var rng = Rng(seed: seed &+ 0xB17)
        for index in 0..<TestScale.count(4_000) {
            // Alternate dense batches in larger collections and sparse ones
            // (a handful of touched items among up to 2,000).
            let scenario = index.isMultiple(of: 2)
                ? randomScenario(maxOld: 300, maxInserted: 30, using: &rng)
                : sparseScenario(count: draw(2_001, &rng), using: &rng)
            if let message = failure(of: scenario, lis: lisPatience) {
                Issue.record("seed \(seed), larger case \(index): \(message)\n\(scenario)")
                return
            }
        }
    }

    @Test("empty batches")
    func empty() throws {
        let none = try BatchDiff.compute(oldCount: 0, newCount: 0, deleted: [], inserted: [], kept: [])
        #expect(none == CollectionBatch(oldCount: 0, newCount: 0))
        #expect(none.isEmpty)
        let idle = try BatchDiff.compute(oldCount: 5, newCount: 5, deleted: [], inserted: [], kept: [])
        #expect(idle == CollectionBatch(oldCount: 5, newCount: 5))
        // Touched but neither moved nor changed: nothing to report.
        let still = try BatchDiff.compute(oldCount: 3, newCount: 3, deleted: [], inserted: [],
                                          kept: [.init(old: 1, new: 1, changed: false)])
        #expect(still.isEmpty)
    }

    @Test("everything deleted, everything inserted")
    func allDeletedAllInserted() throws {
        let gone = try BatchDiff.compute(oldCount: 4, newCount: 0, deleted: [3, 0, 2, 1], inserted: [], kept: [])
        #expect(gone == CollectionBatch(deleted: [0, 1, 2, 3], oldCount: 4, newCount: 0))
        #expect(try gone.apply(to: ["a", "b", "c", "d"], inserting: []) == [])
        let fresh = try BatchDiff.compute(oldCount: 0, newCount: 3, deleted: [], inserted: [2, 0, 1], kept: [])
        #expect(fresh == CollectionBatch(inserted: [0, 1, 2], oldCount: 0, newCount: 3))
        #expect(try fresh.apply(to: [], inserting: ["x", "y", "z"]) == ["x", "y", "z"])
    }

    @Test("one move in a collection of 1,000,000 costs O(1) touched items")
    func millionItems() throws {
        // Sizes are checked with #require first so that a wrong answer cannot
        // make #expect render a diff of a million elements.
        let n = 1_000_000
        let forward = try BatchDiff.compute(oldCount: n, newCount: n, deleted: [], inserted: [],
                                            kept: [.init(old: 0, new: n - 1, changed: false)])
        try #require(forward.moved.count == 1)
        #expect(forward == CollectionBatch(moved: [BatchMove(from: 0, to: n - 1)], oldCount: n, newCount: n))
        let backward = try BatchDiff.compute(oldCount: n, newCount: n, deleted: [], inserted: [],
                                             kept: [.init(old: n - 1, new: 0, changed: true)])
        try #require(backward.moved.count == 1)
        #expect(backward == CollectionBatch(moved: [BatchMove(from: n - 1, to: 0, updated: true)],
                                            oldCount: n, newCount: n))
        let inPlace = try BatchDiff.compute(oldCount: n, newCount: n, deleted: [], inserted: [],
                                            kept: [.init(old: 500_000, new: 500_000, changed: true)])
        try #require(inPlace.moved.isEmpty)
        #expect(inPlace == CollectionBatch(updated: [500_000], oldCount: n, newCount: n))
        let mixed = try BatchDiff.compute(oldCount: n, newCount: n, deleted: [10], inserted: [n - 1],
                                          kept: [.init(old: 20, new: 5, changed: false)])
        try #require(mixed.moved.count == 1)
        #expect(mixed == CollectionBatch(deleted: [10], inserted: [n - 1], moved: [BatchMove(from: 20, to: 5)],
                                         oldCount: n, newCount: n))
        // And the move really is the whole story.
        var expected = Array(1..<n)
        expected.append(0)
        let applied = try forward.apply(to: Array(0..<n), inserting: [])
        let same = applied == expected
        #expect(same)
    }

    @Test("an untouched item is forced to move when that is cheaper")
    func untouchedMoves() throws {
        // old t1 t2 t3 u, new u t1 t2 t3: moving u alone is minimal.
        let kept: [BatchDiff.Kept] = [.init(old: 0, new: 1, changed: false),
                                      .init(old: 1, new: 2, changed: true),
                                      .init(old: 2, new: 3, changed: false)]
        let batch = try BatchDiff.compute(oldCount: 4, newCount: 4, deleted: [], inserted: [], kept: kept)
        #expect(batch == CollectionBatch(moved: [BatchMove(from: 3, to: 0)], updated: [1], oldCount: 4, newCount: 4))
        #expect(try batch.apply(to: ["t1", "t2", "t3", "u"], inserting: []) == ["u", "t1", "t2", "t3"])

        // old t1 t2 u1 u2 u3, new u1 u2 u3 t1 t2: the touched items move.
        let small = try BatchDiff.compute(oldCount: 5, newCount: 5, deleted: [], inserted: [],
                                          kept: [.init(old: 0, new: 3, changed: false),
                                                 .init(old: 1, new: 4, changed: false)])
        #expect(small.moved == [BatchMove(from: 0, to: 3), BatchMove(from: 1, to: 4)])
    }

    @Test("inconsistent inputs throw typed errors")
    func invalidInputs() {
        func error(_ oldCount: Int, _ newCount: Int, deleted: [Int] = [], inserted: [Int] = [],
                   kept: [BatchDiff.Kept] = []) -> BatchDiffError? {
            do {
                _ = try BatchDiff.compute(oldCount: oldCount, newCount: newCount,
                                          deleted: deleted, inserted: inserted, kept: kept)
                return nil
            } catch {
                return error
            }
        }
        #expect(error(-1, 0) == .negativeCount(oldCount: -1, newCount: 0))
        #expect(error(3, 3, deleted: [3], inserted: [0]) == .oldPositionOutOfRange(3))
        #expect(error(3, 3, deleted: [-1], inserted: [0]) == .oldPositionOutOfRange(-1))
        #expect(error(3, 3, deleted: [0], inserted: [5]) == .newPositionOutOfRange(5))
        #expect(error(3, 1, deleted: [1, 1]) == .duplicateOldPosition(1))
        #expect(error(3, 3, deleted: [1], inserted: [0], kept: [.init(old: 1, new: 2, changed: false)])
                == .duplicateOldPosition(1))
        #expect(error(3, 3, deleted: [1], inserted: [2], kept: [.init(old: 0, new: 2, changed: false)])
                == .duplicateNewPosition(2))
        #expect(error(3, 3, kept: [.init(old: 0, new: 1, changed: false), .init(old: 1, new: 1, changed: false)])
                == .duplicateNewPosition(1))
        #expect(error(3, 3, deleted: [0]) == .countMismatch(untouchedOld: 2, untouchedNew: 3))
        #expect(error(2, 4, inserted: [0]) == .countMismatch(untouchedOld: 2, untouchedNew: 3))
        #expect(error(2, 2, kept: [.init(old: 0, new: 2, changed: false)]) == .newPositionOutOfRange(2))
    }

    @Test("apply rejects batches that break the contract")
    func applyErrors() {
        func error(_ batch: CollectionBatch, _ old: [Int], _ inserting: [Int] = []) -> BatchApplyError? {
            do {
                _ = try batch.apply(to: old, inserting: inserting)
                return nil
            } catch {
                return error
            }
        }
        let old = [10, 11, 12]
        #expect(error(CollectionBatch(oldCount: 2, newCount: 2), old) == .oldCountMismatch(expected: 2, actual: 3))
        #expect(error(CollectionBatch(inserted: [0], oldCount: 3, newCount: 4), old)
                == .insertedElementCountMismatch(expected: 1, actual: 0))
        #expect(error(CollectionBatch(deleted: [2, 1], oldCount: 3, newCount: 1), old) == .notAscending(.deleted, 1))
        #expect(error(CollectionBatch(deleted: [3], oldCount: 3, newCount: 2), old)
                == .positionOutOfRange(.deleted, 3))
        #expect(error(CollectionBatch(deleted: [1], moved: [BatchMove(from: 1, to: 0)], oldCount: 3, newCount: 2), old)
                == .conflict(.movedFrom, 1))
        #expect(error(CollectionBatch(inserted: [0], moved: [BatchMove(from: 1, to: 0)], oldCount: 3, newCount: 4),
                      old, [9]) == .conflict(.movedTo, 0))
        #expect(error(CollectionBatch(moved: [BatchMove(from: 1, to: 0)], updated: [1], oldCount: 3, newCount: 3), old)
                == .conflict(.updated, 1))
        #expect(error(CollectionBatch(deleted: [0], oldCount: 3, newCount: 3), old)
                == .countMismatch(remainingOld: 2, remainingNew: 3))
        #expect(error(CollectionBatch(moved: [BatchMove(from: 5, to: 0)], oldCount: 3, newCount: 3), old)
                == .positionOutOfRange(.movedFrom, 5))
        #expect(error(CollectionBatch(moved: [BatchMove(from: 0, to: 2), BatchMove(from: 2, to: 0)],
                                      oldCount: 3, newCount: 3), old) == .notAscending(.movedTo, 0))
    }

    @Test("weighted LIS prefers heavy runs")
    func weightedLIS() {
        #expect(WeightedLIS.select(keys: [], weights: []) == [])
        #expect(WeightedLIS.select(keys: [3, 0, 1, 2], weights: [5, 1, 1, 1]) == [true, false, false, false])
        #expect(WeightedLIS.select(keys: [3, 0, 1, 2], weights: [1, 1, 1, 1]) == [false, true, true, true])
        #expect(WeightedLIS.select(keys: [1, 1, 2], weights: [1, 1, 1]).filter { $0 }.count == 2)
    }
}

/// A scenario in a larger collection with at most a handful of touched items.
private func sparseScenario(count: Int, using rng: inout Rng) -> Scenario {
    var fate = [UInt8](repeating: 0, count: count)  // 0 untouched, 1 deleted, 2 touched
    var touchedIDs: [Int] = []
    var changed = [Bool](repeating: false, count: count + 3)
    if count > 0 {
        for _ in 0..<draw(4, &rng) { fate[draw(count, &rng)] = 1 }
        for _ in 0..<draw(6, &rng) {
            let id = draw(count, &rng)
            guard fate[id] == 0 else { continue }
            fate[id] = 2
            touchedIDs.append(id)
            changed[id] = draw(2, &rng) == 0
        }
    }
    let insertCount = draw(4, &rng)
    var new = (0..<count).filter { fate[$0] == 0 }
    for id in shuffledCopy(touchedIDs + Array(count..<(count + insertCount)), &rng) {
        // Often near the old place, sometimes anywhere.
        let place = draw(2, &rng) == 0 ? min(new.count, max(0, id + draw(7, &rng) - 3)) : draw(new.count + 1, &rng)
        new.insert(id, at: place)
    }
    return Scenario(old: Array(0..<count), new: new, touched: fate.map { $0 == 2 },
                    changed: Array(changed.prefix(count + insertCount)), using: &rng)
}
