// ObservedSections.swift — a sectioned collection as Observation state, for
// SwiftUI lists with sections.
import LiveCollection
import Observation

/// A ``SectionedCollection`` as `@Observable` state: its sections in
/// display order (section values are `Sendable`: they identify sections
/// anywhere), each an ``ObservedSection`` with its rows, each row an
/// ``ObservedRow`` — what a SwiftUI `List` with `Section`s and `ForEach`
/// shows directly (both are `Identifiable`: sections by their value, rows
/// by their key).
///
/// Each change of the sections is applied here as it is told, in the
/// sequential contract, and touches only what it changes:
/// - ``sections`` changes only when a section appears or goes;
/// - a section's ``ObservedSection/rows`` changes only when rows arrive in
///   it, leave it or move in it;
/// - a row that changed in place only sets its ``ObservedRow/model``.
/// A view reading something a change did not touch is not invalidated, and
/// one that reads it is invalidated once for the whole change (Observation
/// tells a view once, then it reads everything again).
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
    @ObservationIgnored private var token: ObservationToken?

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
        token = source.observe { [weak self] change in self?.apply(change) }
    }

    /// Applies one change in the sequential contract.
    private func apply(_ change: SectionedChange<Model, Section>) {
        switch change {
        case .sectionInserted(let section, let at, let models):
            let rows = models.map { ObservedRow(id: $0.identifier, model: $0) }
            sections.insert(ObservedSection(id: section, title: source.title(of: section), rows: rows), at: at)
        case .sectionRemoved(_, let at):
            sections.remove(at: at)
        case .rowInserted(let model, let path):
            sections[path.section].rows.insert(ObservedRow(id: model.identifier, model: model), at: path.row)
        case .rowRemoved(_, let path):
            sections[path.section].rows.remove(at: path.row)
        case .rowUpdated(let model, let path):
            sections[path.section].rows[path.row].model = model
        case .rowMoved(let model, let from, let to):
            let row = sections[from.section].rows.remove(at: from.row)
            row.model = model
            sections[to.section].rows.insert(row, at: to.row)
        }
    }
}
