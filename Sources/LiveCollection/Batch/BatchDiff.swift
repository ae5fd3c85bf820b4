// BatchDiff.swift — compose a sorted collection's batch with minimal moves.

/// Why ``BatchDiff/compute(oldCount:newCount:deleted:inserted:kept:)``
/// refused its inputs. Every case means the caller's bookkeeping is wrong.
package enum BatchDiffError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `oldCount` or `newCount` is negative.
    case negativeCount(oldCount: Int, newCount: Int)
    /// A deleted position or a kept item's old position is outside `0..<oldCount`.
    case oldPositionOutOfRange(Int)
    /// An inserted position or a kept item's new position is outside `0..<newCount`.
    case newPositionOutOfRange(Int)
    /// An old position is listed twice among `deleted` and the kept items' old positions.
    case duplicateOldPosition(Int)
    /// A new position is listed twice among `inserted` and the kept items' new positions.
    case duplicateNewPosition(Int)
    /// The untouched items do not add up: `oldCount - deleted.count - kept.count`
    /// differs from `newCount - inserted.count - kept.count`.
    case countMismatch(untouchedOld: Int, untouchedNew: Int)

    package var description: String {
        switch self {
        case .negativeCount(let old, let new): "negative count (old \(old), new \(new))"
        case .oldPositionOutOfRange(let position): "old position \(position) out of range"
        case .newPositionOutOfRange(let position): "new position \(position) out of range"
        case .duplicateOldPosition(let position): "old position \(position) listed twice"
        case .duplicateNewPosition(let position): "new position \(position) listed twice"
        case .countMismatch(let old, let new): "\(old) untouched items before the batch but \(new) after"
        }
    }
}

/// Builds a ``CollectionBatch`` with minimal moves from what a sorted
/// collection knows about a batch: the positions of the items it touched.
///
/// Cost: O(T log T) plus the size of the output, where T is the number of
/// touched items (deleted + inserted + kept) — independent of the collection
/// size. Untouched items are never enumerated unless some of them must move.
///
/// How: the untouched items are implicit — the i-th old position held by no
/// deleted or kept item goes with the i-th such new position. They are cut
/// into runs contiguous in both index spaces (cut wherever a deleted, inserted
/// or kept position intervenes in either space), so no item present in both
/// states lies between two items of a run in either order. Some longest
/// increasing subsequence then takes each run whole or not at all, and a
/// weighted LIS over runs (weight = length) and kept items (weight 1), with a
/// Fenwick tree of maxima over old ranks, picks the items that stay.
package enum BatchDiff {
    /// A touched item present before and after the batch.
    package struct Kept: Hashable, Sendable {
        /// Position before the batch.
        package var old: Int
        /// Position after the batch.
        package var new: Int
        /// Whether the item's content changed.
        package var changed: Bool

        package init(old: Int, new: Int, changed: Bool) {
            self.old = old
            self.new = new
            self.changed = changed
        }
    }

    /// Composes the batch.
    ///
    /// - Parameters:
    ///   - oldCount: number of items before the batch.
    ///   - newCount: number of items after the batch.
    ///   - deleted: old positions of items that are gone (any order, distinct).
    ///   - inserted: new positions of items that are new (any order, distinct).
    ///   - kept: touched items present in both states, with their old and new
    ///     positions and whether their content changed (any order).
    ///
    /// Every other item is untouched: it did not change, and untouched items
    /// keep their relative order (the i-th untouched item in old order is the
    /// i-th untouched item in new order).
    ///
    /// The result lists `deleted` and `inserted` ascending; `moved` ascending
    /// by `to`, with `updated` set for changed items that move; `updated` the
    /// old positions of changed items that stay, ascending. The items that do
    /// not move (touched or not) form a longest increasing subsequence of old
    /// positions taken in new order, so the moves are minimal; untouched items
    /// may have to move too.
    ///
    /// - Throws: ``BatchDiffError`` when a position is out of range or listed
    ///   twice in its index space, or the untouched counts do not match.
    package static func compute(
        oldCount: Int, newCount: Int, deleted: [Int], inserted: [Int], kept: [Kept]
    ) throws(BatchDiffError) -> CollectionBatch {
        guard oldCount >= 0, newCount >= 0 else {
            throw .negativeCount(oldCount: oldCount, newCount: newCount)
        }
        let deletedSorted = deleted.sorted()
        let insertedSorted = inserted.sorted()
        let keptOlds = kept.map { $0.old }.sorted()
        let keptByNew = kept.sorted { $0.new < $1.new }

        // Positions not held by untouched items, ascending, checked.
        let oldTaken = try takenPositions(deletedSorted, keptOlds, count: oldCount, isOld: true)
        let newTaken = try takenPositions(insertedSorted, keptByNew.map { $0.new }, count: newCount, isOld: false)
        let untouchedOld = oldCount - oldTaken.count
        let untouchedNew = newCount - newTaken.count
        guard untouchedOld == untouchedNew else {
            throw .countMismatch(untouchedOld: untouchedOld, untouchedNew: untouchedNew)
        }

        var batch = CollectionBatch(deleted: deletedSorted, inserted: insertedSorted,
                                    oldCount: oldCount, newCount: newCount)
        if kept.isEmpty { return batch }

        // Runs of untouched items contiguous in both index spaces, in order.
        let runs = untouchedRuns(
            oldGaps: gaps(of: oldTaken, count: oldCount),
            newGaps: gaps(of: newTaken, count: newCount),
            untouched: untouchedOld)

        // Elements in new order: runs and kept items, merged by new position.
        // A run has no kept item inside it in either space, so an optimal LIS
        // takes it whole or not at all (anything ordered consistently with one
        // of its items is so with all of them): its weight is its length.
        var elements: [Element] = []
        elements.reserveCapacity(runs.count + keptByNew.count)
        var runIndex = 0
        var keptIndex = 0
        while runIndex < runs.count || keptIndex < keptByNew.count {
            if keptIndex == keptByNew.count
                || (runIndex < runs.count && runs[runIndex].new < keptByNew[keptIndex].new) {
                let run = runs[runIndex]
                elements.append(Element(old: run.old, weight: run.length, isRun: true, source: runIndex))
                runIndex += 1
            } else {
                elements.append(Element(old: keptByNew[keptIndex].old, weight: 1, isRun: false, source: keptIndex))
                keptIndex += 1
            }
        }

        // Old positions of all elements, ascending: runs are in old order
        // already, kept items were sorted. An element's rank is its index here.
        let oldOrder = mergeAscending(runs.map { $0.old }, keptOlds)
        let ranks = elements.map { rank(of: $0.old, in: oldOrder) }
        let stays = WeightedLIS.select(ranks: ranks, rankCount: oldOrder.count, weights: elements.map { $0.weight })

        // Moves come out ascending by `to`: elements are in new order and a
        // run's new positions are contiguous.
        for index in elements.indices {
            let element = elements[index]
            if element.isRun {
                if stays[index] { continue }
                let run = runs[element.source]
                for offset in 0..<run.length {
                    batch.moved.append(BatchMove(from: run.old + offset, to: run.new + offset))
                }
            } else {
                let item = keptByNew[element.source]
                if !stays[index] {
                    batch.moved.append(BatchMove(from: item.old, to: item.new, updated: item.changed))
                } else if item.changed {
                    batch.updated.append(item.old)
                }
            }
        }
        batch.updated.sort()
        return batch
    }

    // MARK: - Helpers

    /// A run of `length` untouched items at old positions `old..<old+length`
    /// and new positions `new..<new+length`.
    private struct Run {
        var old: Int
        var new: Int
        var length: Int
    }

    /// A run or a kept item, in new order, for the weighted LIS.
    private struct Element {
        var old: Int
        var weight: Int
        var isRun: Bool
        /// Index into the runs or into the kept items sorted by new position.
        var source: Int
    }

    /// A maximal range of untouched positions in one index space: positions
    /// `position..<position+length`, holding untouched items of rank
    /// `rank..<rank+length` (rank = index among untouched items).
    private struct Gap {
        var rank: Int
        var position: Int
        var length: Int
    }

    /// Merges two ascending lists of positions, checking range and duplicates.
    private static func takenPositions(
        _ first: [Int], _ second: [Int], count: Int, isOld: Bool
    ) throws(BatchDiffError) -> [Int] {
        var merged: [Int] = []
        merged.reserveCapacity(first.count + second.count)
        var i = 0
        var j = 0
        while i < first.count || j < second.count {
            let position: Int
            if j == second.count || (i < first.count && first[i] <= second[j]) {
                position = first[i]
                i += 1
            } else {
                position = second[j]
                j += 1
            }
            guard position >= 0, position < count else {
                throw isOld ? .oldPositionOutOfRange(position) : .newPositionOutOfRange(position)
            }
            if let last = merged.last, last == position {
                throw isOld ? .duplicateOldPosition(position) : .duplicateNewPosition(position)
            }
            merged.append(position)
        }
        return merged
    }

    /// Merges two ascending lists of distinct values with no value in common.
    private static func mergeAscending(_ first: [Int], _ second: [Int]) -> [Int] {
        var merged: [Int] = []
        merged.reserveCapacity(first.count + second.count)
        var i = 0
        var j = 0
        while i < first.count || j < second.count {
            if j == second.count || (i < first.count && first[i] < second[j]) {
                merged.append(first[i])
                i += 1
            } else {
                merged.append(second[j])
                j += 1
            }
        }
        return merged
    }

    /// The index of `value` in the ascending list `sorted`, which holds it.
    private static func rank(of value: Int, in sorted: [Int]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The ranges of positions in `0..<count` not in `taken` (ascending, distinct).
    private static func gaps(of taken: [Int], count: Int) -> [Gap] {
        var result: [Gap] = []
        result.reserveCapacity(taken.count + 1)
        var start = 0
        var rank = 0
        for index in 0...taken.count {
            let position = index < taken.count ? taken[index] : count
            if position > start {
                result.append(Gap(rank: rank, position: start, length: position - start))
                rank += position - start
            }
            start = position + 1
        }
        return result
    }

    /// Cuts the untouched items (ranks `0..<untouched`) wherever a gap starts
    /// in either index space, so each run is contiguous in both.
    private static func untouchedRuns(oldGaps: [Gap], newGaps: [Gap], untouched: Int) -> [Run] {
        var runs: [Run] = []
        runs.reserveCapacity(oldGaps.count + newGaps.count)
        var oldIndex = 0
        var newIndex = 0
        var rank = 0
        while rank < untouched {
            // Both gap lists cover ranks 0..<untouched without holes.
            while oldGaps[oldIndex].rank + oldGaps[oldIndex].length <= rank { oldIndex += 1 }
            while newGaps[newIndex].rank + newGaps[newIndex].length <= rank { newIndex += 1 }
            let oldGap = oldGaps[oldIndex]
            let newGap = newGaps[newIndex]
            let end = min(oldGap.rank + oldGap.length, newGap.rank + newGap.length)
            runs.append(Run(old: oldGap.position + (rank - oldGap.rank),
                            new: newGap.position + (rank - newGap.rank),
                            length: end - rank))
            rank = end
        }
        return runs
    }
}
