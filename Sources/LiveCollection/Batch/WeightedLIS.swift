// WeightedLIS.swift — maximum-weight strictly increasing subsequence.

/// Maximum-weight strictly increasing subsequence, in O(m log m).
///
/// Used by ``BatchDiff`` to choose the items that stay in place: each element
/// is a run of items that an optimal answer keeps or moves as a whole, its
/// weight the number of items in the run.
package enum WeightedLIS {
    /// Chooses a subsequence of `keys` (taken in array order) whose keys
    /// strictly increase and whose total weight is maximal.
    ///
    /// - Parameters:
    ///   - keys: one key per element, in sequence order (any integers; equal
    ///     keys are never both chosen).
    ///   - weights: one positive weight per element; `weights.count` must
    ///     equal `keys.count`.
    /// - Returns: one flag per element, `true` for the chosen ones.
    package static func select(keys: [Int], weights: [Int]) -> [Bool] {
        // Rank of each key among the distinct keys.
        let byKey = keys.indices.sorted { keys[$0] < keys[$1] }
        var ranks = [Int](repeating: 0, count: keys.count)
        var distinct = 0
        for (offset, index) in byKey.enumerated() {
            if offset > 0 && keys[index] != keys[byKey[offset - 1]] { distinct += 1 }
            ranks[index] = distinct
        }
        return select(ranks: ranks, rankCount: keys.isEmpty ? 0 : distinct + 1, weights: weights)
    }

    /// The same, with keys already compressed to ranks in `0..<rankCount`.
    package static func select(ranks: [Int], rankCount: Int, weights: [Int]) -> [Bool] {
        precondition(ranks.count == weights.count, "WeightedLIS: one weight per element")
        let count = ranks.count
        var chosen = [Bool](repeating: false, count: count)
        if count == 0 { return chosen }

        // Fenwick indices are 1-based: rank r lives at r + 1.
        var tree = MaxFenwick(size: rankCount)
        var predecessor = [Int](repeating: -1, count: count)
        var bestTotal = -1
        var bestLast = -1
        for index in 0..<count {
            precondition(ranks[index] >= 0 && ranks[index] < rankCount, "WeightedLIS: rank out of range")
            // Best chain ending on a strictly smaller rank, then this element.
            let (before, beforeIndex) = tree.prefixMax(ranks[index])
            let total = before + weights[index]
            predecessor[index] = beforeIndex
            tree.raise(ranks[index] + 1, to: total, index: index)
            if total > bestTotal {
                bestTotal = total
                bestLast = index
            }
        }

        var cursor = bestLast
        while cursor >= 0 {
            chosen[cursor] = true
            cursor = predecessor[cursor]
        }
        return chosen
    }
}

/// A Fenwick tree of prefix maxima over ranks `1...size`; each slot keeps
/// the best total and the element that reaches it. Totals only grow.
private struct MaxFenwick {
    private var total: [Int]
    private var element: [Int]

    init(size: Int) {
        total = [Int](repeating: 0, count: size + 1)
        element = [Int](repeating: -1, count: size + 1)
    }

    /// The largest total at ranks `1...rank` and its element; `(0, -1)` when
    /// none (or `rank` is 0).
    func prefixMax(_ rank: Int) -> (total: Int, element: Int) {
        var best = 0
        var bestElement = -1
        var position = rank
        while position > 0 {
            if element[position] >= 0 && total[position] > best {
                best = total[position]
                bestElement = element[position]
            }
            position &= position - 1
        }
        return (best, bestElement)
    }

    /// Records that `index` reaches `value` at `rank`.
    mutating func raise(_ rank: Int, to value: Int, index: Int) {
        var position = rank
        while position < total.count {
            if element[position] < 0 || value > total[position] {
                total[position] = value
                element[position] = index
            }
            position += position & -position
        }
    }
}
