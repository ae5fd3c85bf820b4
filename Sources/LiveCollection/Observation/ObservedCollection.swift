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
    /// - Complexity: O(n) to build; each change then costs O(n) when rows
    ///   arrive, leave or move, O(t) for t rows updated in place otherwise.
    public init(_ collection: SortedCollection<Model>) {
        self.collection = collection
        rows = collection.models.map { ObservedRow(id: $0.identifier, model: $0) }
        token = collection.observeUpdates { [weak self] update in self?.apply(update) }
    }

    /// Applies one change in the batch contract, from the collection as it
    /// is now: a change made from inside another observer's handler reaches
    /// observers added after it before the change being told, so positions
    /// are only trusted where they hold the keys told, and models are read
    /// from the collection.
    private func apply(_ update: CollectionUpdate<Model>) {
        let batch = update.batch
        if batch.inserted.isEmpty && batch.deleted.isEmpty && batch.moved.isEmpty {
            // In place: only the rows told, found at their positions.
            let current = rows
            let inPlace = zip(batch.updated, update.updatedModels).allSatisfy { position, model in
                position < current.count && current[position].id == model.identifier
            }
            if inPlace && current.count == collection.count {
                for position in batch.updated {
                    if let model = collection.model(for: current[position].id) { current[position].model = model }
                }
                return
            }
        }
        reorder(setting: Set(update.updatedModels.map(\.identifier)).union(update.movedModels.map(\.identifier)))
    }

    /// Takes the collection's order, keeping each key's row object and
    /// setting the models of `keys`.
    /// - Complexity: O(n).
    private func reorder(setting keys: Set<Key>) {
        var byKey: [Key: ObservedRow<Model>] = [:]
        byKey.reserveCapacity(rows.count)
        for row in rows { byKey[row.id] = row }
        var next: [ObservedRow<Model>] = []
        next.reserveCapacity(collection.count)
        for model in collection.models {
            if let row = byKey[model.identifier] {
                if keys.contains(model.identifier) { row.model = model }
                next.append(row)
            } else {
                next.append(ObservedRow(id: model.identifier, model: model))
            }
        }
        rows = next
    }
}
