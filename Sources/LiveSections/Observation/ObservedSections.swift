// ObservedSections.swift — a sectioned collection as Observation state, for
// SwiftUI lists with sections.
import LiveCollection
import Observation

/// A ``SectionedCollection`` as `@Observable` state: its sections in
/// display order (section values are `Sendable`: they identify sections
/// anywhere), each an ``ObservedSection`` with its rows, each row an
/// `ObservedRow` — what a SwiftUI `List` with `Section`s and `ForEach`
/// shows directly (both are `Identifiable`: sections by their value, rows
/// by their key).
///
/// Each change of the sections is applied here as it is told, in the
/// sequential contract, and touches only what it changes:
/// - ``sections`` changes only when a section appears or goes;
/// - a section's ``ObservedSection/rows`` changes only when rows arrive in
///   it, leave it or move in it;
/// - a row that changed in place only sets its `model`.
/// A view reading something a change did not touch is not invalidated, and
/// one that reads it is invalidated once for the whole change (Observation
/// tells a view once, then it reads everything again).
///
/// A row keeps its object while it moves, across sections too. Make it
/// outside the sections' own handlers: one made while a change is being
/// told starts from what is shown, and that change is not told to it.
///
/// Lives on the main actor, like its collection. It holds one small object
/// per row and per section: O(n) memory beside the collection.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@Observable
public final class ObservedSections<Model: LiveModelProtocol, Section: Hashable & Sendable> {
    /// The sections, in display order.
    public private(set) var sections: [ObservedSection<Model, Section>]
    /// The sectioned collection shown.
    @ObservationIgnored public let source: SectionedCollection<Model, Section>
    @ObservationIgnored private var tokens: [ObservationToken] = []
    /// The rows that left during the change being applied, by key: a key
    /// that comes back in the same change (it moved) keeps its row object.
    @ObservationIgnored private var leaving: [Key: ObservedRow<Model>] = [:]

    /// The sections of `source`, kept up to date until this is released.
    /// - Complexity: O(n) to build; then O(r) per change for a section of
    ///   r rows whose rows arrive, leave or move, O(1) for a row updated in place.
    public init(_ source: SectionedCollection<Model, Section>) {
        self.source = source
        sections = source.snapshot().enumerated().map { s, section in
            ObservedSection(id: section.id, title: source.title(ofSection: s), rows: section.items.enumerated().map { r, key in
                ObservedRow(id: key, model: source[RowPath(section: s, row: r)])
            })
        }
        // Registered together: a change's sequential events, then its
        // stages, which end it.
        tokens.append(source.observe { [weak self] change in self?.apply(change) })
        tokens.append(source.observeStages { [weak self] _ in self?.leaving.removeAll() })
    }

    /// Applies one change in the sequential contract.
    private func apply(_ change: SectionedChange<Model, Section>) {
        switch change {
        case .sectionInserted(let section, let at, let models):
            let rows = models.map(row)
            sections.insert(ObservedSection(id: section, title: source.title(of: section), rows: rows), at: at)
        case .sectionRemoved(_, let at):
            for row in sections.remove(at: at).rows { leaving[row.id] = row }
        case .rowInserted(let model, let path):
            sections[path.section].rows.insert(row(model), at: path.row)
        case .rowRemoved(_, let path):
            let row = sections[path.section].rows.remove(at: path.row)
            leaving[row.id] = row
        case .rowUpdated(let model, let path):
            sections[path.section].rows[path.row].model = model
        case .rowMoved(let model, let from, let to):
            let row = sections[from.section].rows.remove(at: from.row)
            row.model = model
            sections[to.section].rows.insert(row, at: to.row)
        }
    }

    /// The row of `model`: the one it had if it left earlier in this change.
    private func row(_ model: Model) -> ObservedRow<Model> {
        guard let row = leaving.removeValue(forKey: model.identifier) else {
            return ObservedRow(id: model.identifier, model: model)
        }
        row.model = model
        return row
    }
}
