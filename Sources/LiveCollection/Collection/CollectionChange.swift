// CollectionChange.swift — what observers of a sorted collection are told.
import LiveModel

/// One change in the **sequential contract**: each position is relative to
/// the state after the previous change, so applying the changes one by one
/// to a mirror array keeps it equal to the collection.
public enum SequentialChange<Model> {
    /// `model` was inserted at `at`.
    case inserted(Model, at: Int)
    /// The model at `at` was removed.
    case removed(Model, at: Int)
    /// The model at `at` changed content and kept its place.
    case updated(Model, at: Int)
    /// The model at `from` moved to `to` (and is `model` now, content changed
    /// or not).
    case moved(Model, from: Int, to: Int)
}

extension SequentialChange: Sendable where Model: Sendable {}

/// A change in the **batch contract** (see ``CollectionBatch``), with the
/// models a list view needs to show it: the models now at the inserted
/// positions, at the move destinations, and of the updated items.
public struct CollectionUpdate<Model> {
    /// The positions that changed, in the batch contract.
    public let batch: CollectionBatch
    /// The models at `batch.inserted`, in the same order.
    public let insertedModels: [Model]
    /// The models moved by `batch.moved`, in the same order.
    public let movedModels: [Model]
    /// The models of `batch.updated`, in the same order.
    public let updatedModels: [Model]
    /// Every key a grouped change touched, with its model before the change;
    /// empty for single changes and for the fill of an empty collection.
    /// Layers above apply a grouped change from it in O(t log n).
    package var touched: [TouchedKey<Model>] = []
}

extension CollectionUpdate: Sendable where Model: Sendable {}

/// A key that a grouped change touched.
package struct TouchedKey<Model> {
    package let key: Key
    /// The model before the change; nil if the key was absent.
    package let before: Model?
    /// Whether the model was added or replaced during the change (its
    /// content may be new); false if it was only removed.
    package let changed: Bool
}

extension TouchedKey: Sendable where Model: Sendable {}

/// Observes a ``SortedCollection``. Every method has an empty default.
///
/// - Single changes arrive through ``collection(_:didChange:)`` in the
///   sequential contract.
/// - Changes grouped with ``SortedCollection/performBatch(_:)`` (an initial
///   load, a resync) arrive as one ``collection(_:didApply:)`` in the batch
///   contract, between ``collectionDidStartLoad(_:)`` and
///   ``collectionDidEndLoad(_:)``.
@MainActor
public protocol SortedCollectionObserver<Model>: AnyObject {
    /// The models of the observed collection.
    associatedtype Model: LiveModelProtocol
    /// A single change, in the sequential contract.
    func collection(_ collection: SortedCollection<Model>, didChange change: SequentialChange<Model>)
    /// A group of changes, in the batch contract.
    func collection(_ collection: SortedCollection<Model>, didApply update: CollectionUpdate<Model>)
    /// A group of changes begins (``SortedCollection/performBatch(_:)``, or
    /// a load through a ``CollectionFeed``).
    func collectionDidStartLoad(_ collection: SortedCollection<Model>)
    /// The group of changes begun with ``collectionDidStartLoad(_:)`` is
    /// over; its ``collection(_:didApply:)``, if anything changed, came
    /// before.
    func collectionDidEndLoad(_ collection: SortedCollection<Model>)
    /// A data source could not turn the child `key` into a model; the
    /// collection kept what it had for that key.
    func collection(_ collection: SortedCollection<Model>, didFailToPrepare key: Key, error: any Error)
}

extension SortedCollectionObserver {
    /// Does nothing.
    public func collection(_ collection: SortedCollection<Model>, didChange change: SequentialChange<Model>) {}
    /// Does nothing.
    public func collection(_ collection: SortedCollection<Model>, didApply update: CollectionUpdate<Model>) {}
    /// Does nothing.
    public func collectionDidStartLoad(_ collection: SortedCollection<Model>) {}
    /// Does nothing.
    public func collectionDidEndLoad(_ collection: SortedCollection<Model>) {}
    /// Does nothing.
    public func collection(_ collection: SortedCollection<Model>, didFailToPrepare key: Key, error: any Error) {}
}
