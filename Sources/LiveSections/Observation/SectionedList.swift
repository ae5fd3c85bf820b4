// SectionedList.swift — a SwiftUI list of observed sections (Apple
// platforms; type-checked elsewhere against SwiftUI's signatures by
// Tools/check-uikit).
#if canImport(SwiftUI)
import LiveCollection
import SwiftUI

/// A SwiftUI `List` of an ``ObservedSections``: one `Section` per section,
/// headed by its title, and one row view per model.
///
/// ```swift
/// struct MessagesView: View {
///     let sections: ObservedSections<Message, Int>
///     var body: some View {
///         SectionedList(sections) { message in Text(message.text) }
///     }
/// }
/// ```
///
/// Each row is a view of its own that reads only its row's model, so a
/// change of one model redraws that row alone; rows arriving, leaving or
/// moving redraw their section's `ForEach`, which SwiftUI animates by the
/// rows' keys.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public struct SectionedList<Model: LiveModelProtocol, Section: Hashable & Sendable, RowContent: View>: View {
    let sections: ObservedSections<Model, Section>
    let content: (Model) -> RowContent

    /// A list of `sections`, showing each model with `content`.
    public init(_ sections: ObservedSections<Model, Section>, @ViewBuilder content: @escaping (Model) -> RowContent) {
        self.sections = sections
        self.content = content
    }

    /// A `List` with a `Section` per section, headed by its title, and a
    /// row view per row, identified by the row's key.
    public var body: some View {
        List {
            ForEach(sections.sections) { section in
                SwiftUI.Section(header: Text(section.title)) {
                    ForEach(section.rows) { row in ObservedRowView(row: row, content: content) }
                }
            }
        }
    }
}

/// One row of a ``SectionedList``: the only view that reads its model.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
struct ObservedRowView<Model, RowContent: View>: View {
    let row: ObservedRow<Model>
    let content: (Model) -> RowContent

    var body: some View { content(row.model) }
}
#endif
