// ReadIndexes.swift — the order indexes a server keeps for REST queries
// that no stream keeps a window of.

import LiveModel

/// The ``OrderIndex``es kept for reads: one per (location, order) a `GET`
/// with a limit or bounds asked for, so that the next such read in that
/// order at that location, whatever its bounds and limit, costs
/// O(log² n + k) instead of a read of every child.
///
/// The first read of a (location, order) reads every child, as a read
/// without an index does; then its index is built in the background, off
/// the lock, from the value it read (O(n log n), about twice that read:
/// building it first would make the read wait for it). Writes made
/// meanwhile are remembered and caught up when the index is kept (one at
/// or above the location, or more than ``catchUpLimit`` children written
/// below it, drops the build). A kept index takes in every write below its location
/// in O(t log n); a write at or above it drops it (the next read builds it
/// again), so that replacing a large location costs no rebuild under the
/// lock. At most `capacity` are kept, the least recently read going first.
///
/// Not thread-safe: guarded by the server's lock.
struct ReadIndexes {
    private struct Slot: Hashable {
        let path: DatabasePath
        let order: QueryOrder
    }

    /// What was written at a location while its index was built.
    private enum Meanwhile {
        /// The children written below it.
        case touched(Set<Key>)
        /// A write at or above it, or too many below it: the build is dropped.
        case replaced
    }

    private struct Kept {
        let index: OrderIndex
        var lastRead: UInt64
    }

    /// The most children written below a location while its index is built
    /// that are caught up when it is kept.
    static let catchUpLimit = 10_000
    /// The most children an answer from an index takes (under the lock);
    /// a larger one is read from the value, off the lock.
    static let answerLimit = 10_000
    /// The fewest children a location needs for an index, by default:
    /// reading fewer costs less than a millisecond.
    static let smallestIndexedByDefault = 1_000
    /// The most indexes built at once.
    static let buildsAtOnce = 2

    /// The most indexes kept; 0 keeps none.
    let capacity: Int
    private var kept: [Slot: Kept] = [:]
    private var building: [Slot: Meanwhile] = [:]
    private var clock: UInt64 = 0

    /// The fewest children a location needs for an index.
    let smallestIndexed: Int

    init(capacity: Int, smallestIndexed: Int = Self.smallestIndexedByDefault) {
        self.capacity = max(0, capacity)
        self.smallestIndexed = smallestIndexed
    }

    /// How many indexes are kept, and how many are being built.
    var count: (kept: Int, building: Int) { (kept.count, building.count) }

    /// What a read of a query can do.
    enum Lookup {
        /// Its answer, from a kept index.
        case answered([(key: Key, node: DataNode)])
        /// Answer from the value read, and build the index of its order from
        /// that value, then hand it to ``keep(_:at:in:)``.
        case build
        /// Answer from the value read (no index is kept, or one is being
        /// built by another read).
        case scan
    }

    /// How to answer `query` at `path`, whose value is `parent`: from a kept
    /// index in its order, by building one, or by reading every child.
    /// Only a query with a limit or bounds uses an index; an answer of more
    /// than ``answerLimit`` children is read from the value; a location
    /// known to hold fewer than ``smallestIndexed`` children gets no index,
    /// and no more than ``buildsAtOnce`` are built at once.
    /// - Complexity: O(1) on average; from a kept index, O(log² n + k) for
    ///   the k children answered.
    mutating func lookup(_ query: DatabaseQuery, at path: DatabasePath, in parent: DataNode) -> Lookup {
        guard capacity > 0, query.filters else { return .scan }
        let slot = Slot(path: path, order: query.order)
        if let found = kept[slot] {
            clock += 1
            kept[slot]!.lastRead = clock
            let positions = found.index.positions(of: query)
            guard positions.count <= Self.answerLimit else { return .scan }
            return .answered(found.index.window(at: positions, in: parent))
        }
        guard building[slot] == nil, building.count < Self.buildsAtOnce else { return .scan }
        if parent.hasChildren, parent.childCount < smallestIndexed { return .scan }
        building[slot] = .touched([])
        return .build
    }

    /// Keeps `index`, built from the value at `path` when ``lookup(_:at:in:)``
    /// said to build it, after catching up the writes made meanwhile from
    /// `parent`, the value there now; unless the build was dropped.
    /// Evicts the least recently read index beyond the capacity.
    /// - Complexity: O(t log n) for t children written meanwhile, plus
    ///   O(capacity) to evict.
    mutating func keep(_ index: OrderIndex, at path: DatabasePath, in parent: DataNode) {
        let slot = Slot(path: path, order: index.order)
        guard case .touched(let touched)? = building.removeValue(forKey: slot) else { return }
        index.update(touched, in: parent)
        clock += 1
        kept[slot] = Kept(index: index, lastRead: clock)
        while kept.count > capacity, let oldest = kept.min(by: { $0.value.lastRead < $1.value.lastRead }) {
            kept[oldest.key] = nil
        }
    }

    /// Takes in an applied `mutation`, whose result is in `store`: kept
    /// indexes of locations it writes below update, those of locations at
    /// or below one of its writes go, and builds under way remember what it
    /// wrote.
    /// - Complexity: O((kept + building) · w) for w writes, plus
    ///   O(t log n) for each index with t children written below it.
    mutating func takeIn(_ mutation: Mutation, store: Store) {
        for slot in Array(building.keys) {
            guard case .touched = building[slot] else { continue }
            switch StreamPlanner.touchedChildren(mutation, below: slot.path) {
            case nil:
                building[slot] = .replaced
            case let keys? where !keys.isEmpty:
                // Taken out before it grows, so that the set is not copied.
                guard case .touched(var touched)? = building.updateValue(.replaced, forKey: slot) else { continue }
                touched.formUnion(keys)
                if touched.count <= Self.catchUpLimit { building[slot] = .touched(touched) }
            default:
                break
            }
        }
        for (slot, found) in kept {
            switch StreamPlanner.touchedChildren(mutation, below: slot.path) {
            case nil: kept[slot] = nil
            case let keys? where !keys.isEmpty: found.index.update(keys, in: store.get(slot.path))
            default: break
            }
        }
    }
}
