// ObservedSection.swift — one section of an observed sectioned collection.
import LiveCollection
import Observation

/// One section of an ``ObservedSections``: its value (its identity), its
/// title and its rows, in order.
///
/// Observable on its own: rows arriving, leaving or moving in this section
/// invalidate readers of its ``rows``, not readers of other sections.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@Observable
public final class ObservedSection<Model, Section: Hashable & Sendable>: Identifiable {
    /// The section value.
    public let id: Section
    /// The section's title, as the sectioned collection gives it.
    public let title: String
    /// The rows, in the collection's order.
    public package(set) var rows: [ObservedRow<Model>]

    init(id: Section, title: String, rows: [ObservedRow<Model>]) {
        self.id = id
        self.title = title
        self.rows = rows
    }
}
