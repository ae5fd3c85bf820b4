// ObservedRow.swift — one row of an observed collection: its own observable
// state, so that a change of one row invalidates only the views reading it.
import LiveModel
import Observation

/// One model of an ``ObservedCollection`` (or of a section of an observed
/// sectioned collection), identified by its key.
///
/// Each row is observable on its own: when a model changes content and
/// keeps its place, only readers of that row's ``model`` are invalidated,
/// not the list around it. A row keeps its identity (the same object)
/// while its model moves, within a change.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@Observable
public final class ObservedRow<Model>: Identifiable {
    /// The model's key.
    public let id: Key
    /// The model as the collection has it now.
    public package(set) var model: Model

    package init(id: Key, model: Model) {
        self.id = id
        self.model = model
    }
}
