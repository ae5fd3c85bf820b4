// WatchedSections.swift — sections over a Firebase collection as a list
// view is told of them: every step checked under UIKit's rules, every
// change's stages kept.
import LiveFirebase
import LiveSections

@MainActor
final class WatchedSections {
    let sections: SectionedCollection<RawChild, Double>
    let list: CheckingListTarget
    private let connector: ListConnector
    /// The stages of each change, in order.
    var stages: [[BatchStage]] = []
    private var tokens: [ObservationToken] = []

    /// Sections of `collection` by the number `section` reads from each
    /// child (member `g` by default; -1 without one).
    init(_ collection: SortedCollection<RawChild>,
         by section: @escaping @Sendable (RawChild) -> Double = { $0.dictionary["g"]?.numberValue ?? -1 }) {
        sections = SectionedCollection(collection, sectionedBy: section)
        let sections = self.sections
        list = CheckingListTarget { sections.counts }
        connector = ListConnector(target: list)
        connector.isReady = true
        tokens = [sections.observeSteps { [connector] in connector.apply($0) },
                  sections.observeStages { [weak self] in self?.stages.append($0) }]
    }

    /// Every stage told since the last call, as one list.
    func takeStages() -> [[BatchStage]] {
        defer { stages = [] }
        return stages
    }

    /// Why the list view would not show the sections as they are: a batch
    /// it refused, or counts that differ; nil when it shows them.
    var problem: String? {
        if !list.rejected.isEmpty { return "refused: \(list.rejected)" }
        if list.shown != sections.counts { return "shows \(list.shown), the sections hold \(sections.counts)" }
        return nil
    }
}
