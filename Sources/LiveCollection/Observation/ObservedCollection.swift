// ObservedCollection.swift — a sorted collection as Observation state, for
// SwiftUI lists.
import LiveModel
import Observation

/// A ``SortedCollection`` as `@Observable` state: its rows, in order, each
/// an ``ObservedRow`` identified by its key — what a SwiftUI `List` or
/// `ForEach` shows directly.
///
/// Every change of the collection (single or grouped) is applied here in
/// one step, right after the collection's own observers added before this
/// one:
/// - ``rows`` is replaced only when rows arrive, leave or move, so a view
///   reading it is invalidated once per change;
/// - a row whose content changed in place only sets that row's
///   ``ObservedRow/model``: views reading other rows, or only the list's
///   order, are not invalidated.
///
/// Lives on the main actor, like its collection. It holds one small object
/// per row: O(n) memory beside the collection.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@Observable
public final class ObservedCollection<Model: LiveModelProtocol> {
    /// The rows, in the collection's order.
    public private(set) var rows: [ObservedRow<Model>]
    /// The collection shown.
    @ObservationIgnored public let collection: SortedCollection<Model>
    @ObservationIgnored private var token: ObservationToken?

    /// The rows of `collection`, kept up to date until this is released.
    /// - Complexity: O(n) to build; each change then costs O(n) for the rows
    ///   array when rows arrive, leave or move, O(t) for t updated rows otherwise.
    public init(_ collection: SortedCollection<Model>) {
        self.collection = collection
        rows = collection.models.map { ObservedRow(id: $0.identifier, model: $0) }
        token = collection.observeUpdates { [weak self] update in self?.apply(update) }
    }

    /// Applies one change in the batch contract.
    private func apply(_ update: CollectionUpdate<Model>) {
        let batch = update.batch
        let old = rows
        // Rows that stay: their objects are kept, with their new models.
        for (i, position) in batch.updated.enumerated() { old[position].model = update.updatedModels[i] }
        guard !batch.inserted.isEmpty || !batch.deleted.isEmpty || !batch.moved.isEmpty else { return }
        for (i, move) in batch.moved.enumerated() { old[move.from].model = update.movedModels[i] }
        let inserted = update.insertedModels.map { ObservedRow(id: $0.identifier, model: $0) }
        do {
            rows = try batch.apply(to: old, inserting: inserted)
        } catch {
            // A batch of the collection always applies; should one not, the
            // rows are read again rather than shown wrong.
            rows = collection.models.map { ObservedRow(id: $0.identifier, model: $0) }
        }
    }
}
