// SectionedList.swift — a SwiftUI list of observed sections (Apple
// platforms; type-checked elsewhere against SwiftUI's signatures by
// Tools/check-uikit).
#if canImport(SwiftUI)
import LiveCollection
import SwiftUI

/// A SwiftUI `List` of an ``ObservedSections``: one `Section` per section,
/// with a header view, and one row view per model; or, instead of the list,
/// what to show while the first rows load, when they cannot, or when there
/// are none.
///
/// ```swift
/// SectionedList(teams, phase: state.listPhase) { player in
///     Text(player.name)
/// } header: { team in
///     Text(team.title)
/// } empty: {
///     Text("No players yet")
/// } loading: {
///     ProgressView()
/// } failed: { message in
///     Text(message)
/// }
/// ```
///
/// Each row is a view of its own that reads only its row's model, so a
/// change of one model redraws that row alone; rows arriving, leaving or
/// moving redraw their section's `ForEach`, which SwiftUI animates by the
/// rows' keys.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
public struct SectionedList<Model: LiveModelProtocol, Section: Hashable & Sendable, RowContent: View, Header: View,
                            Empty: View, Loading: View, Failed: View>: View {
    let sections: ObservedSections<Model, Section>
    let phase: ListPhase
    let content: (Model) -> RowContent
    let header: (ObservedSection<Model, Section>) -> Header
    let empty: () -> Empty
    let loading: () -> Loading
    let failed: (String) -> Failed

    /// A list of `sections` in `phase`: each model shown with `content`,
    /// each section headed by `header`; `empty` when ready with no rows,
    /// `loading` while loading, `failed` with the message of a failure.
    public init(_ sections: ObservedSections<Model, Section>, phase: ListPhase = .ready,
                @ViewBuilder content: @escaping (Model) -> RowContent,
                @ViewBuilder header: @escaping (ObservedSection<Model, Section>) -> Header,
                @ViewBuilder empty: @escaping () -> Empty,
                @ViewBuilder loading: @escaping () -> Loading,
                @ViewBuilder failed: @escaping (String) -> Failed) {
        self.sections = sections
        self.phase = phase
        self.content = content
        self.header = header
        self.empty = empty
        self.loading = loading
        self.failed = failed
    }

    /// The list, or what the phase shows instead.
    public var body: some View {
        switch phase {
        case .loading:
            loading()
        case .failed(let message):
            failed(message)
        case .ready:
            if sections.sections.isEmpty {
                empty()
            } else {
                List {
                    ForEach(sections.sections) { section in
                        SwiftUI.Section(header: header(section)) {
                            ForEach(section.rows) { row in ObservedRowView(row: row, content: content) }
                        }
                    }
                }
            }
        }
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension SectionedList where Header == Text, Empty == EmptyView, Loading == EmptyView, Failed == EmptyView {
    /// A list of `sections`, showing each model with `content`, each
    /// section headed by its title.
    public init(_ sections: ObservedSections<Model, Section>, @ViewBuilder content: @escaping (Model) -> RowContent) {
        self.init(sections, phase: .ready, content: content, header: { Text($0.title) },
                  empty: { EmptyView() }, loading: { EmptyView() }, failed: { _ in EmptyView() })
    }
}

@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
extension SectionedList where Header == Text {
    /// A list of `sections` in `phase`, each section headed by its title;
    /// see ``init(_:phase:content:header:empty:loading:failed:)``.
    public init(_ sections: ObservedSections<Model, Section>, phase: ListPhase,
                @ViewBuilder content: @escaping (Model) -> RowContent,
                @ViewBuilder empty: @escaping () -> Empty,
                @ViewBuilder loading: @escaping () -> Loading,
                @ViewBuilder failed: @escaping (String) -> Failed) {
        self.init(sections, phase: phase, content: content, header: { Text($0.title) },
                  empty: empty, loading: loading, failed: failed)
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
