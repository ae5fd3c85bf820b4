// FillWork.swift — what an observer of a collection does with a fill, done
// with the fill's preparation away from the main actor.
import LiveModel

/// Work an observer of a ``SortedCollection`` does when the collection takes
/// a ``PreparedFill``, made ready beside the fill on the executor that
/// prepares it, so that the main actor only adopts the result (a sectioned
/// view of a million children is then built while the list stays
/// responsive).
///
/// Registered with the observer (``SortedCollection/addObserver(_:preparingFills:beforeChange:unchanged:)``);
/// whoever prepares a fill for the collection runs the works of the
/// collection's observers on it (``PreparedFill/perform(_:)``). An observer
/// that finds no result for a fill (it was registered after the work was
/// taken, or the fill came another way) does the work itself.
package struct FillWork<Model: LiveModelProtocol>: Sendable {
    /// Whose work it is: the observer reads its result under this slot.
    package let slot: ObjectIdentifier
    /// Makes the result from the fill's models in order. Runs once per
    /// fill, on the fill's executor.
    package let make: @Sendable (PreparedFill<Model>) -> AnyObject

    package init(slot: ObjectIdentifier, make: @escaping @Sendable (PreparedFill<Model>) -> AnyObject) {
        self.slot = slot
        self.make = make
    }
}

extension PreparedFill {
    /// Runs `works` on the fill, keeping each result under its slot for the
    /// observer to adopt when the collection takes the fill.
    /// - Complexity: what the works cost.
    package func perform(_ works: [FillWork<Model>]) {
        for work in works { results[work.slot] = work.make(self) }
    }

    /// Calls `body` with each model and its order post, in order.
    /// - Complexity: O(n), with no lookup by key.
    @inlinable
    package func forEachPosted(_ body: (Model, OrderPost) -> Void) {
        backend.forEachPosted(body)
    }

    /// Calls `body` with each model and its sort value in order, from
    /// `position`, until it returns false: a fill taken a part at a time.
    /// - Complexity: O(log n) to start, then O(1) per model.
    @inlinable
    package func forEachModel(from position: Int, _ body: (Model, SortValue) -> Bool) {
        backend.forEachModel(from: position, body)
    }
}

extension SortedCollection {
    /// Registers an observer, held weakly, as ``addObserver(_:)`` does, with
    /// the work it does on a fill, if any; that work is handed to whoever
    /// prepares a fill (``fillWorks``). `beforeChange` is called with the key of
    /// each single change, and of each key a batch touches, once, before
    /// its first change in the batch (while the key still holds its model
    /// and place; a removal of an absent key is no change); `unchanged`
    /// with the keys of a batch that, in the end, changed nothing, and so
    /// is not told.
    @discardableResult
    package func addObserver<O: SortedCollectionObserver>(_ observer: O, preparingFills work: FillWork<Model>?,
                                                          beforeChange: ((Key) -> Void)? = nil,
                                                          unchanged: (([Key]) -> Void)? = nil)
        -> ObservationToken where O.Model == Model {
        var registration = Self.observer(observer, of: self, fillWork: work)
        registration.willChange = beforeChange
        registration.unchanged = unchanged
        return register(registration)
    }

    /// Replaces the fill work registered under `work`'s slot (an observer
    /// whose work changed), keeping the observer's place in the order.
    /// Fills prepared before it run the old work.
    /// - Complexity: O(h) for h observers.
    package func replaceFillWork(_ work: FillWork<Model>) {
        observers.updateEach { observer in
            if observer.fillWork?.slot == work.slot { observer.fillWork = work }
        }
    }

    /// The fill works of the observers registered now, in registration order.
    package var fillWorks: [FillWork<Model>] {
        handlers.ordered.compactMap(\.fillWork)
    }

    /// The result of the work under `slot` for the fill being taken, if
    /// it was prepared with it; nil outside ``fill(_:)``'s notification.
    package func fillResult(for slot: ObjectIdentifier) -> AnyObject? {
        takingFill?.results[slot]
    }
}
