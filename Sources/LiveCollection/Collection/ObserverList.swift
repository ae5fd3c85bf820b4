// ObserverList.swift — the one registry of observers every layer keeps:
// handlers told in the order they were added, each ended by its token.

/// Handlers in the order they were added, each under the number its
/// ``ObservationToken`` removes it by.
///
/// Every layer keeps its observers in one of these (a sorted collection,
/// its sections, a Firebase collection), so that observers of any layer are
/// told in the order they were added, every time: a dictionary of handlers
/// would tell them in hash order, which changes from run to run.
///
/// Iterating it gives the handlers in the order they were added. Telling
/// iterates a copy: a handler added or removed while the others are told
/// takes effect from the next change.
@usableFromInline
package struct ObserverList<Handler> {
    @usableFromInline var entries: [(id: Int, handler: Handler)] = []
    private var nextID = 0

    @inlinable
    package init() {}

    /// - Complexity: O(1).
    @inlinable
    package var isEmpty: Bool { entries.isEmpty }

    /// - Complexity: O(1).
    @inlinable
    package var count: Int { entries.count }

    /// Adds `handler` after the others and returns its number.
    /// - Complexity: amortized O(1).
    package mutating func add(_ handler: Handler) -> Int {
        let id = nextID
        nextID += 1
        entries.append((id, handler))
        return id
    }

    /// Changes every handler in place with `change`, keeping the order.
    /// - Complexity: O(h) for h handlers.
    package mutating func updateEach(_ change: (inout Handler) -> Void) {
        for i in entries.indices { change(&entries[i].handler) }
    }

    /// Removes the handler numbered `id`, if it is still here, and returns it.
    /// - Complexity: O(h) for h handlers (numbers grow, so it is found by
    ///   binary search, but the ones after it shift).
    @discardableResult
    package mutating func remove(_ id: Int) -> Handler? {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].id < id { lo = mid + 1 } else { hi = mid }
        }
        guard lo < entries.count, entries[lo].id == id else { return nil }
        return entries.remove(at: lo).handler
    }
}

extension ObserverList: Sequence {
    /// The handlers in the order they were added.
    @usableFromInline
    package struct Iterator: IteratorProtocol {
        @usableFromInline var base: IndexingIterator<[(id: Int, handler: Handler)]>

        @inlinable
        init(base: IndexingIterator<[(id: Int, handler: Handler)]>) { self.base = base }

        @inlinable
        package mutating func next() -> Handler? { base.next()?.handler }
    }

    /// - Complexity: O(1).
    @inlinable
    package func makeIterator() -> Iterator { Iterator(base: entries.makeIterator()) }

    /// - Complexity: O(1).
    @inlinable
    package var underestimatedCount: Int { entries.count }
}

extension ObserverList: Sendable where Handler: Sendable {}
