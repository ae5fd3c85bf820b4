// ListPhase.swift — whether a list shows its rows, or what it shows
// before it has any.

/// What a list shows: a placeholder while its first rows load, a failure
/// when they cannot come, or its rows (which may be none). `SectionedList`
/// shows one of its contents for each; `ObservedFirebaseState.listPhase`
/// (LiveFirebase) tells it for a Firebase collection.
public enum ListPhase: Sendable, Hashable {
    /// The first rows are on their way.
    case loading
    /// The rows are shown (an empty list shows the list's empty content).
    case ready
    /// No rows could be loaded; the message says why, for the user.
    case failed(String)
}
