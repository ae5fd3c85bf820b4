// StaticSections.swift — a data source from an array of arrays.
import LiveCollection

/// Sections given as an array of arrays of items (with their section ids).
/// Replacing them reports the change as staged steps (``SectionedDiff``),
/// each of which switches what the data source shows to the state after its
/// stage, for a ``ListConnector``.
@MainActor
public final class StaticSections<SectionID: Hashable, Item: Hashable> {
    /// The latest content.
    public private(set) var sections: [SectionItems<SectionID, Item>]
    /// What a list view is shown: the items of each section, which trail
    /// `sections` while staged steps are being applied.
    public private(set) var shown: [[Item]]
    private var observers = ObserverList<([StagedStep]) -> Void>()

    /// A data source showing `sections` (none by default).
    public init(_ sections: [SectionItems<SectionID, Item>] = []) {
        self.sections = sections
        shown = sections.map(\.items)
    }

    /// Number of sections, as a list view is shown.
    public var numberOfSections: Int { shown.count }
    /// Number of rows in section `index`, as a list view is shown.
    /// - Complexity: O(1).
    public func numberOfRows(inSection index: Int) -> Int { shown[index].count }
    /// The item at a row path, as a list view is shown.
    /// - Complexity: O(1).
    public subscript(path: RowPath) -> Item { shown[path.section][path.row] }
    /// Row counts of every section as shown, as a list view's data source reports them.
    public var counts: [Int] { shown.map(\.count) }

    /// Replaces the content; observers get the staged steps from what is shown
    /// to the new content (`updated` items are reloaded). Without observers,
    /// the new content is shown at once.
    /// - Throws: ``SectionedDiffError`` for duplicate section ids or items;
    ///   nothing changes then.
    /// - Complexity: O(n) per stage.
    public func replace(with new: [SectionItems<SectionID, Item>], updated: Set<Item> = []) throws(SectionedDiffError) {
        let stages = try SectionedDiff.stages(from: sections, to: new, isUpdated: { updated.contains($0) })
        sections = new
        let final = new.map(\.items)
        guard !observers.isEmpty, !stages.isEmpty else {
            shown = final
            return
        }
        guard let states = StagedStep.states(of: stages, from: shown, to: final) else {
            shown = final // cannot happen for SectionedDiff's stages: one reload instead
            return
        }
        let steps = zip(stages, states).map { stage, next in
            StagedStep(stage: stage, commit: { [weak self] in self?.shown = next })
        }
        // Each step observer is shown the old state until it commits.
        let old = shown
        for handler in observers {
            shown = old
            handler(steps)
        }
        shown = final
    }

    /// Calls `handler` with the steps of every replacement; the handler must
    /// run every step's `commit` (a ``ListConnector`` does).
    public func observeSteps(_ handler: @escaping ([StagedStep]) -> Void) -> ObservationToken {
        let id = observers.add(handler)
        return ObservationToken { [weak self] in self?.observers.remove(id) }
    }
}
