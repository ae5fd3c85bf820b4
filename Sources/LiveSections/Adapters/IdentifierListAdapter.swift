// IdentifierListAdapter.swift — a list driven by identifiers, with items fetched
// lazily (the manner of ISListViewAdapter).
import LiveCollection

/// What an ``IdentifierListAdapter`` asks of its data source.
@MainActor
public protocol IdentifierDataSource<ID, Item>: AnyObject {
    /// The identifier of a row.
    associatedtype ID: Hashable & Sendable
    /// The identifier of a section.
    associatedtype SectionID: Hashable
    /// A digest of an item, compared to tell whether the item changed.
    associatedtype Summary: Equatable
    /// What a row shows, fetched lazily by identifier.
    associatedtype Item: Sendable
    /// The identifiers to show, in order, each with its section; sections
    /// appear in the order of their first identifier. May wait.
    func entries() async throws -> [(id: ID, section: SectionID)]
    /// A cheap digest of an identifier's item: a different summary means the
    /// item changed (it is reloaded and fetched again).
    func summary(for id: ID) -> Summary
    /// The item of an identifier, fetched when a list view first needs it.
    func item(for id: ID) async throws -> Item
}

/// Shows a data source's identifiers in a list view: ``invalidate()`` re-reads
/// the identifiers and reports the change to observers as staged steps
/// (``SectionedDiff``); items are fetched lazily, once, and cached until their
/// summary changes. When invalidations overlap, the latest one wins.
@MainActor
public final class IdentifierListAdapter<Source: IdentifierDataSource> {
    /// The identifier of a row: the data source's.
    public typealias ID = Source.ID
    /// The data source whose identifiers are shown.
    public let source: Source
    private var sections: [SectionItems<Source.SectionID, ID>] = []
    private var summaries: [ID: Source.Summary] = [:]
    private var cache: [ID: Source.Item] = [:]
    private var fetching: [ID: Task<Source.Item, any Error>] = [:]
    private var shown: [[ID]] = []
    private var generation = 0
    private var observers = ObserverList<([StagedStep]) -> Void>()

    /// An adapter over `source`. It shows no rows until the first
    /// ``invalidate()``.
    public init(source: Source) { self.source = source }

    /// Row counts as a list view is shown, for its data source.
    public var counts: [Int] { shown.map(\.count) }
    /// Number of sections, as a list view is shown.
    public var numberOfSections: Int { shown.count }
    /// Number of rows in section `index`, as a list view is shown.
    /// - Complexity: O(1).
    public func numberOfRows(inSection index: Int) -> Int { shown[index].count }
    /// The identifier at a row, as shown.
    public func identifier(at path: RowPath) -> ID { shown[path.section][path.row] }

    /// The item at a row: from the cache, or fetched once (concurrent callers
    /// share the fetch). - Throws: what the data source's fetch throws.
    public func item(at path: RowPath) async throws -> Source.Item {
        let id = identifier(at: path)
        if let item = cache[id] { return item }
        let task = fetching[id] ?? Task { try await source.item(for: id) }
        fetching[id] = task
        let item = try await task.value
        if fetching[id] == task { // not invalidated meanwhile
            fetching[id] = nil
            cache[id] = item
        }
        return item
    }

    /// Re-reads identifiers and summaries and reports the change. A later
    /// call supersedes an earlier one still waiting for its identifiers.
    /// - Throws: what the data source throws, or ``SectionedDiffError`` for
    ///   duplicate identifiers; nothing changes then.
    public func invalidate() async throws {
        generation += 1
        let mine = generation
        let entries = try await source.entries()
        guard mine == generation else { return } // superseded
        var order: [Source.SectionID] = []
        var rows: [Source.SectionID: [ID]] = [:]
        for (id, section) in entries {
            if rows[section] == nil { order.append(section) }
            rows[section, default: []].append(id)
        }
        let new = order.map { SectionItems(id: $0, items: rows[$0]!) }
        var updated = Set<ID>()
        var newSummaries: [ID: Source.Summary] = [:]
        for (id, _) in entries {
            let summary = source.summary(for: id)
            if let old = summaries[id], old != summary { updated.insert(id) }
            newSummaries[id] = summary
        }
        let stages = try SectionedDiff.stages(from: sections, to: new, isUpdated: { updated.contains($0) })
        // Items of changed or gone identifiers are fetched again.
        for id in updated { cache[id] = nil; fetching.removeValue(forKey: id)?.cancel() }
        for id in cache.keys where newSummaries[id] == nil { cache[id] = nil }
        sections = new
        summaries = newSummaries
        let final = new.map(\.items)
        guard !observers.isEmpty, let states = StagedStep.states(of: stages, from: shown, to: final) else {
            shown = final
            if !observers.isEmpty { for handler in observers { handler([]) } }
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

    /// Calls `handler` with the steps of every change; the handler must run
    /// every step's commit (a ``ListConnector`` does).
    public func observeSteps(_ handler: @escaping ([StagedStep]) -> Void) -> ObservationToken {
        let id = observers.add(handler)
        return ObservationToken { [weak self] in self?.observers.remove(id) }
    }
}
