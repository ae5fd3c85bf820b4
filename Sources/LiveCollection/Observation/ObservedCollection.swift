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
    /// - Complexity: O(n) to build; each change then costs O(t log n) for
    ///   t rows told (plus moving the array's rows after each position), and
    ///   O(n) when the rows shown are not those the change starts from.
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
        if !applyIncrementally(update) {
            reorder(setting: Set(update.updatedModels.map(\.identifier)).union(update.movedModels.map(\.identifier)))
        }
    }

    /// Applies a change whose rows arrive, leave or move by its positions:
    /// rows updated set at their old positions, rows deleted and moved
    /// taken out from the last, rows inserted and moved put in from the
    /// first. False, changing the array of rows not at all, when the rows
    /// shown are not those the change starts from, or the collection has
    /// moved on since (its positions do not hold the keys it names, or the
    /// counts differ): then the collection's order is taken whole.
    /// - Complexity: O(t log n) for t rows told, plus moving the rows
    ///   after each position in the array.
    private func applyIncrementally(_ update: CollectionUpdate<Model>) -> Bool {
        let batch = update.batch
        guard rows.count == batch.oldCount, collection.count == batch.newCount,
              update.insertedModels.count == batch.inserted.count, update.movedModels.count == batch.moved.count,
              update.updatedModels.count == batch.updated.count else { return false }
        // Checked before anything changes.
        for (position, model) in zip(batch.updated, update.updatedModels)
            where position >= rows.count || rows[position].id != model.identifier { return false }
        for (move, model) in zip(batch.moved, update.movedModels)
            where move.from >= rows.count || rows[move.from].id != model.identifier { return false }
        for position in batch.deleted
            where position >= rows.count || collection.model(for: rows[position].id) != nil { return false }
        // Models as the collection has them now (a change told later may
        // have replaced them already).
        func now(_ model: Model) -> Model { collection.model(for: model.identifier) ?? model }
        var next = rows
        for (position, model) in zip(batch.updated, update.updatedModels) { next[position].model = now(model) }
        var moving: [Key: ObservedRow<Model>] = [:]
        for position in (batch.deleted + batch.moved.map(\.from)).sorted(by: >) {
            let row = next.remove(at: position)
            moving[row.id] = row
        }
        let arrivals = zip(batch.inserted, update.insertedModels).map { ($0, $1) }
            + zip(batch.moved.map(\.to), update.movedModels).map { ($0, $1) }
        for (position, model) in arrivals.sorted(by: { $0.0 < $1.0 }) {
            // Where the collection has that key now: otherwise a change
            // made inside another observer's handler came between.
            guard position <= next.count, position < collection.count,
                  collection.key(at: position) == model.identifier else { return false }
            let row = moving.removeValue(forKey: model.identifier) ?? ObservedRow(id: model.identifier, model: model)
            row.model = now(model)
            next.insert(row, at: position)
        }
        guard next.count == collection.count else { return false }
        rows = next
        return true
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
