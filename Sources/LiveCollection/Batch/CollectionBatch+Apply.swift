// CollectionBatch+Apply.swift — replay a batch on an array.

/// Why ``CollectionBatch/apply(to:inserting:)`` refused a batch.
package enum BatchApplyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A list of the batch.
    package enum Field: String, Hashable, Sendable {
        case deleted, inserted, movedFrom, movedTo, updated
    }

    /// `oldCount` or `newCount` is negative.
    case negativeCount(oldCount: Int, newCount: Int)
    /// The array has `actual` elements but the batch's `oldCount` is `expected`.
    case oldCountMismatch(expected: Int, actual: Int)
    /// `inserting` has `actual` elements but the batch inserts `expected`.
    case insertedElementCountMismatch(expected: Int, actual: Int)
    /// A position outside its index space (`0..<oldCount` for deleted, move
    /// sources and updated; `0..<newCount` for inserted and move destinations).
    case positionOutOfRange(Field, Int)
    /// A list not strictly ascending (moves by `to`); `position` is the first
    /// value not greater than the one before it.
    case notAscending(Field, Int)
    /// A position used twice in its index space: deleted and moved from,
    /// inserted and moved to, moved from twice, or updated and deleted/moved.
    case conflict(Field, Int)
    /// The items left in place do not add up: `oldCount - deleted - moved`
    /// differs from `newCount - inserted - moved`.
    case countMismatch(remainingOld: Int, remainingNew: Int)

    package var description: String {
        switch self {
        case .negativeCount(let old, let new): "negative count (old \(old), new \(new))"
        case .oldCountMismatch(let expected, let actual): "batch expects \(expected) old items, array has \(actual)"
        case .insertedElementCountMismatch(let expected, let actual):
            "batch inserts \(expected) items but \(actual) were given"
        case .positionOutOfRange(let field, let position): "\(field.rawValue) position \(position) out of range"
        case .notAscending(let field, let position): "\(field.rawValue) not ascending at \(position)"
        case .conflict(let field, let position): "\(field.rawValue) position \(position) used twice"
        case .countMismatch(let old, let new): "\(old) items stay before the batch but \(new) after"
        }
    }
}

extension CollectionBatch {
    /// Applies the batch to `old` (an array in the old order): removes deleted
    /// items and move sources, then places `insertedElements` (in ascending
    /// new position order) and move destinations, keeping every other element
    /// in order. `updated` does not change the elements.
    ///
    /// The batch must follow its contract exactly: every list strictly
    /// ascending (moves by `to`), positions in range, no position used twice
    /// in one index space (an updated item is neither deleted nor moved), and
    /// the counts consistent with `old.count` and `insertedElements.count`.
    ///
    /// Cost: O(oldCount + newCount + size of the batch · log).
    ///
    /// - Throws: ``BatchApplyError`` when the batch breaks its contract or
    ///   does not fit `old`.
    package func apply<T>(to old: [T], inserting insertedElements: [T]) throws(BatchApplyError) -> [T] {
        guard oldCount >= 0, newCount >= 0 else { throw .negativeCount(oldCount: oldCount, newCount: newCount) }
        guard old.count == oldCount else { throw .oldCountMismatch(expected: oldCount, actual: old.count) }
        guard insertedElements.count == inserted.count else {
            throw .insertedElementCountMismatch(expected: inserted.count, actual: insertedElements.count)
        }
        try Self.checkAscending(deleted, .deleted, count: oldCount)
        try Self.checkAscending(inserted, .inserted, count: newCount)
        try Self.checkAscending(moved.map { $0.to }, .movedTo, count: newCount)
        try Self.checkAscending(updated, .updated, count: oldCount)
        let sources = moved.map { $0.from }.sorted()
        for source in sources where source < 0 || source >= oldCount {
            throw .positionOutOfRange(.movedFrom, source)
        }

        // Old positions that leave their place, ascending and distinct.
        let removed = try Self.merge(deleted, sources, secondField: .movedFrom)
        // New positions filled from elsewhere, ascending and distinct.
        let placed = try Self.merge(inserted, moved.map { $0.to }, secondField: .movedTo)
        // An updated item stays in place.
        var cursor = 0
        for position in updated {
            while cursor < removed.count && removed[cursor] < position { cursor += 1 }
            if cursor < removed.count && removed[cursor] == position { throw .conflict(.updated, position) }
        }
        guard oldCount - removed.count == newCount - placed.count else {
            throw .countMismatch(remainingOld: oldCount - removed.count, remainingNew: newCount - placed.count)
        }

        var result: [T] = []
        result.reserveCapacity(newCount)
        var insertIndex = 0
        var moveIndex = 0
        var oldIndex = 0
        var removedIndex = 0
        for position in 0..<newCount {
            if insertIndex < inserted.count && inserted[insertIndex] == position {
                result.append(insertedElements[insertIndex])
                insertIndex += 1
            } else if moveIndex < moved.count && moved[moveIndex].to == position {
                result.append(old[moved[moveIndex].from])
                moveIndex += 1
            } else {
                while removedIndex < removed.count && removed[removedIndex] == oldIndex {
                    removedIndex += 1
                    oldIndex += 1
                }
                result.append(old[oldIndex])
                oldIndex += 1
            }
        }
        return result
    }

    /// Checks that `list` is strictly ascending and inside `0..<count`.
    private static func checkAscending(_ list: [Int], _ field: BatchApplyError.Field, count: Int)
        throws(BatchApplyError)
    {
        var previous = -1
        for position in list {
            guard position > previous else {
                throw position < 0 ? .positionOutOfRange(field, position) : .notAscending(field, position)
            }
            guard position < count else { throw .positionOutOfRange(field, position) }
            previous = position
        }
    }

    /// Merges two ascending lists, throwing on a position present twice.
    private static func merge(_ first: [Int], _ second: [Int], secondField: BatchApplyError.Field)
        throws(BatchApplyError) -> [Int]
    {
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
            if let last = merged.last, last == position { throw .conflict(secondField, position) }
            merged.append(position)
        }
        return merged
    }
}
