// SectionedCollection.swift — a sorted collection grouped into sections.
import LiveCollection
import LiveModel

/// The models of a ``SortedCollection`` grouped into sections: a model's
/// section comes from a closure (any `Hashable` value: a string, a number, a
/// date, a related object's id). Sections are ordered ascending or descending
/// (for `Comparable` sections) or by a comparator, and have titles; rows keep
/// the collection's order within a section; a section with no rows does not
/// exist.
///
/// Changes are reported in two contracts:
/// - **sequential** (``observe(_:)``): ``SectionedChange`` values, each
///   relative to the state after the previous one;
/// - **batch** (``observeStages(_:)``): ``BatchStage`` lists that a list view
///   applies one stage per `performBatchUpdates`, each valid under UIKit's
///   rules against the state the previous stage left (check them with
///   ``BatchUpdateChecker``). A list view asks for the rows after applying.
///
/// Single changes of the collection cost O(log n + sections); grouped changes
/// (`performBatch`, loads) are re-sectioned and diffed in O(n).
///
/// Lives on the main actor, like its collection.
@MainActor
public final class SectionedCollection<Model: LiveModelProtocol, Section: Hashable> {
    public let collection: SortedCollection<Model>
    private let sectionOf: (Model) -> Section
    /// The order of sections: a strict total order over distinct sections.
    private let sectionPrecedes: (Section, Section) -> Bool
    private let titleOf: (Section) -> String

    private struct Row: Comparable {
        let post: OrderPost
        static func < (a: Row, b: Row) -> Bool { a.post < b.post }
        static func == (a: Row, b: Row) -> Bool { a.post == b.post }
    }

    /// A section's rows, boxed so that changes happen in place (a tree kept
    /// as a dictionary value would be copied on write).
    private final class Rows {
        var tree: OrderStatisticTree<Row>
        init() { tree = OrderStatisticTree<Row>(areInIncreasingOrder: { $0 < $1 }) }
        /// The rows of `sorted`, built in bulk.
        init(sorted: [Row]) { tree = OrderStatisticTree<Row>(sorted, areInIncreasingOrder: { $0 < $1 }) }
    }

    /// Sections present, in display order.
    private var order: [Section] = []
    private var rows: [Section: Rows] = [:]
    /// Where each model is: its section and order post.
    private var placed: [Key: (section: Section, post: OrderPost)] = [:]
    private var sequential: [Int: (SectionedChange<Model, Section>) -> Void] = [:]
    private var staged: [Int: ([BatchStage]) -> Void] = [:]
    private var stepped: [Int: ([StagedStep]) -> Void] = [:]
    /// While staged steps of a grouped change are being applied: the keys of
    /// each section a list view is shown (nil: the live state).
    private var shownOverride: [[Key]]?
    private var nextID = 0
    private var token: ObservationToken?
    /// Held strongly: the collection holds its observers weakly.
    private var relay: AnyObject?
    /// The sectioned snapshot at the start of a grouped change, and the keys
    /// whose models the group replaced.
    private var before: [SectionSnapshot<Section, Key>]?
    private var changedInGroup = Set<Key>()
    private var beforeModels: [Key: Model] = [:]

    /// Sections of `collection` by `section(model)`, ordered by
    /// `areInIncreasingOrder` (a strict total order over distinct sections,
    /// such as a related object's display order), titled by `title`.
    /// - Complexity: O(n log n) to build.
    public init(_ collection: SortedCollection<Model>,
                sectionsOrderedBy areInIncreasingOrder: @escaping (Section, Section) -> Bool,
                title: @escaping (Section) -> String = { String(describing: $0) },
                sectionedBy section: @escaping (Model) -> Section) {
        self.collection = collection
        self.sectionOf = section
        self.sectionPrecedes = areInIncreasingOrder
        self.titleOf = title
        rebuild()
        let relay = Relay(self)
        self.relay = relay
        token = collection.addObserver(relay)
    }

    // MARK: Reading

    /// Number of sections a list view is shown (see ``observeSteps(_:)``).
    public var numberOfSections: Int { shownOverride?.count ?? order.count }

    /// The title of section `index` (by default the section value's description).
    public func title(ofSection index: Int) -> String { titleOf(order[index]) }

    /// The section value of section `index`.
    public func section(at index: Int) -> Section { order[index] }

    /// Number of rows in section `index`, as a list view is shown.
    public func numberOfRows(inSection index: Int) -> Int {
        shownOverride?[index].count ?? rows[order[index]]!.tree.count
    }

    /// Row counts of every section, as a list view is shown.
    public var counts: [Int] { (0..<numberOfSections).map { numberOfRows(inSection: $0) } }

    /// The model at a row path, as a list view is shown. - Complexity: O(log n).
    public subscript(path: RowPath) -> Model {
        let key = shownOverride?[path.section][path.row] ?? rows[order[path.section]]!.tree[path.row].post.key
        return collection.model(for: key)!
    }

    /// Where the model `key` is shown. - Complexity: O(log n + sections).
    public func path(of key: Key) -> RowPath? {
        guard let (section, post) = placed[key], let s = sectionIndex(of: section),
              let row = rows[section]!.tree.position(of: Row(post: post)) else { return nil }
        return RowPath(section: s, row: row)
    }

    /// Sections with their keys, in display order. - Complexity: O(n).
    public func snapshot() -> [SectionSnapshot<Section, Key>] {
        order.map { s in SectionSnapshot(id: s, items: rows[s]!.tree.map { $0.post.key }) }
    }

    // MARK: Observing

    /// Calls `handler` with every change in the sequential contract. A
    /// grouped change of the collection arrives row by row: rows leaving (a
    /// section whose rows all leave, as one section removal), then rows
    /// arriving (a new section with its rows, as one insertion), then
    /// updates; a row that changed place is told as its removal and its
    /// insertion.
    public func observe(_ handler: @escaping (SectionedChange<Model, Section>) -> Void) -> ObservationToken {
        let id = nextID
        nextID += 1
        sequential[id] = handler
        return ObservationToken { [weak self] in self?.sequential[id] = nil }
    }

    /// Calls `handler` with every change as staged steps for a list view
    /// (``ListConnector``): each step's commit, run inside its batch, makes
    /// ``numberOfSections``, ``numberOfRows(inSection:)`` and the subscript
    /// show the state after that stage, as UIKit requires between stages.
    /// The handler must run every commit.
    public func observeSteps(_ handler: @escaping ([StagedStep]) -> Void) -> ObservationToken {
        let id = nextID
        nextID += 1
        stepped[id] = handler
        return ObservationToken { [weak self] in self?.stepped[id] = nil }
    }

    /// Calls `handler` with the stages of every change, in the batch contract.
    public func observeStages(_ handler: @escaping ([BatchStage]) -> Void) -> ObservationToken {
        let id = nextID
        nextID += 1
        staged[id] = handler
        return ObservationToken { [weak self] in self?.staged[id] = nil }
    }

    // MARK: Placement

    private func precedes(_ a: Section, _ b: Section) -> Bool { sectionPrecedes(a, b) }

    private func sectionIndex(of section: Section) -> Int? {
        var lo = 0, hi = order.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if precedes(order[mid], section) { lo = mid + 1 } else { hi = mid }
        }
        return lo < order.count && order[lo] == section ? lo : nil
    }

    private func insertionIndex(of section: Section) -> Int {
        var lo = 0, hi = order.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if precedes(order[mid], section) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    private func rebuild() {
        order.removeAll()
        rows.removeAll()
        placed.removeAll()
        placed.reserveCapacity(collection.count)
        // The collection iterates in order, so each section's rows come
        // sorted: each tree is built in bulk rather than row by row.
        var grouped: [Section: [Row]] = [:]
        for model in collection {
            let key = model.identifier
            let section = sectionOf(model)
            let post = collection.orderPost(for: key)!
            grouped[section, default: []].append(Row(post: post))
            placed[key] = (section, post)
        }
        for (section, sorted) in grouped {
            rows[section] = Rows(sorted: sorted)
            order.insert(section, at: insertionIndex(of: section))
        }
    }

    /// Takes `key` out; returns its former path and whether its section went away.
    private func unplace(_ key: Key) -> (path: RowPath, sectionGone: Bool)? {
        guard let (section, post) = placed.removeValue(forKey: key), let s = sectionIndex(of: section),
              let box = rows[section], let (row, _) = box.tree.remove(Row(post: post)) else { return nil }
        if box.tree.isEmpty {
            rows[section] = nil
            order.remove(at: s)
            return (RowPath(section: s, row: row), true)
        }
        return (RowPath(section: s, row: row), false)
    }

    /// Puts `model` in; returns its path and whether its section is new.
    private func place(_ model: Model) -> (path: RowPath, sectionNew: Bool) {
        let key = model.identifier
        let section = sectionOf(model)
        let post = collection.orderPost(for: key)!
        placed[key] = (section, post)
        if rows[section] == nil {
            let s = insertionIndex(of: section)
            order.insert(section, at: s)
            let box = Rows()
            box.tree.insert(Row(post: post))
            rows[section] = box
            return (RowPath(section: s, row: 0), true)
        }
        let row = rows[section]!.tree.insert(Row(post: post))
        return (RowPath(section: sectionIndex(of: section)!, row: row), false)
    }

    // MARK: Changes of the collection

    fileprivate func apply(_ change: SequentialChange<Model>) {
        var events: [SectionedChange<Model, Section>] = []
        var stage = BatchStage()
        switch change {
        case .inserted(let model, _):
            let (path, isNew) = place(model)
            if isNew {
                events.append(.sectionInserted(sectionOf(model), at: path.section, models: [model]))
                stage.insertedSections = [path.section]
            } else {
                events.append(.rowInserted(model, at: path))
                stage.insertedRows = [path]
            }
        case .removed(let model, _):
            guard let (path, gone) = unplace(model.identifier) else { return }
            if gone {
                events.append(.sectionRemoved(sectionOf(model), at: path.section))
                stage.deletedSections = [path.section]
            } else {
                events.append(.rowRemoved(model, at: path))
                stage.deletedRows = [path]
            }
        case .updated(let model, _), .moved(let model, _, _):
            let oldSection = placed[model.identifier]?.section
            if oldSection == sectionOf(model), let from = path(of: model.identifier) {
                _ = unplace(model.identifier)
                let (to, _) = place(model)
                if from == to {
                    events.append(.rowUpdated(model, at: to))
                    stage.reloadedRows = [from]
                } else {
                    events.append(.rowMoved(model, from: from, to: to))
                    stage.movedRows = [RowMove(from: from, to: to)]
                }
                emit(events, [stage] + (from == to ? [] : [BatchStage(reloadedRows: [to])]))
                return
            }
            // The section changed: out of the old one, into the new one. In the
            // sequential contract that is two steps (each may remove or add a
            // section); in the batch contract one stage: a cross-section move,
            // or a section's removal or arrival with the row's insertion or
            // deletion. A reload of the moved row follows in its own stage.
            guard let (from, gone) = unplace(model.identifier) else { return }
            let (to, isNew) = place(model)
            if gone {
                events.append(.sectionRemoved(oldSection!, at: from.section))
                stage.deletedSections = [from.section]
            } else {
                events.append(.rowRemoved(model, at: from))
            }
            if isNew {
                events.append(.sectionInserted(sectionOf(model), at: to.section, models: [model]))
                stage.insertedSections = [to.section]
                if !gone { stage.deletedRows = [from] }
            } else {
                events.append(.rowInserted(model, at: to))
                if gone { stage.insertedRows = [to] } else { stage.movedRows = [RowMove(from: from, to: to)] }
            }
            emit(events, [stage] + (gone || isNew ? [] : [BatchStage(reloadedRows: [to])]))
            return
        }
        emit(events, [stage])
    }

    fileprivate func beginGroup() {
        captureBefore()
        changedInGroup.removeAll()
    }

    /// Keeps the state a grouped change starts from (and, for sequential
    /// observers, its models, which removals report).
    private func captureBefore() {
        before = snapshot()
        beforeModels.removeAll()
        guard !sequential.isEmpty else { return }
        for model in collection { beforeModels[model.identifier] = model }
    }

    fileprivate func noteGroup(_ update: CollectionUpdate<Model>) {
        for m in update.updatedModels { changedInGroup.insert(m.identifier) }
        for (i, m) in update.movedModels.enumerated() where update.batch.moved[i].updated { changedInGroup.insert(m.identifier) }
    }

    fileprivate func endGroup() {
        guard let old = before else { return }
        before = nil
        defer { beforeModels.removeAll() }
        rebuild()
        let new = snapshot()
        let changed = changedInGroup
        changedInGroup.removeAll()
        guard let stages = try? SectionedDiff.stages(from: old, to: new, isUpdated: { changed.contains($0) }),
              !stages.isEmpty else { return }
        for handler in staged.values { handler(stages) }
        if !stepped.isEmpty { sendSteps(stages, from: old.map(\.items), to: new.map(\.items)) }
        if !sequential.isEmpty { replay(from: old, to: new, updated: changed) }
    }

    /// Tells sequential observers a grouped change row by row (see
    /// ``SequentialReplay``).
    private func replay(from old: [SectionSnapshot<Section, Key>], to new: [SectionSnapshot<Section, Key>],
                        updated: Set<Key>) {
        var steps = SequentialReplay.steps(from: old, to: new, isUpdated: { updated.contains($0) })
        let removedUnknown = steps.contains {
            if case .rowRemoved(let key, _) = $0 { return beforeModels[key] == nil && collection.model(for: key) == nil }
            return false
        }
        if removedUnknown {
            // An observer that arrived during the group: its models were not
            // kept, so the sections are told as removed and inserted again.
            steps = old.indices.reversed().map { .sectionRemoved(old[$0].id, at: $0) }
                + new.enumerated().map { .sectionInserted($1.id, at: $0, keys: $1.items) }
        }
        func model(_ key: Key) -> Model { collection.model(for: key) ?? beforeModels[key]! }
        for step in steps {
            let event: SectionedChange<Model, Section>
            switch step {
            case .sectionRemoved(let section, let at): event = .sectionRemoved(section, at: at)
            case .rowRemoved(let key, let at): event = .rowRemoved(beforeModels[key] ?? model(key), at: at)
            case .sectionInserted(let section, let at, let keys): event = .sectionInserted(section, at: at, models: keys.map(model))
            case .rowInserted(let key, let at): event = .rowInserted(model(key), at: at)
            case .rowUpdated(let key, let at): event = .rowUpdated(model(key), at: at)
            }
            for handler in sequential.values { handler(event) }
        }
    }

    /// Steps whose commits show each intermediate state, the last one the live state.
    private func sendSteps(_ stages: [BatchStage], from old: [[Key]], to final: [[Key]]) {
        // Each commit shows the state after its stage; the last one, the live state.
        guard let states = StagedStep.states(of: stages, from: old, to: final) else { return }
        let steps = zip(stages, states).enumerated().map { i, pair in
            let next: [[Key]]? = i == stages.count - 1 ? nil : pair.1
            return StagedStep(stage: pair.0, commit: { [weak self] in self?.shownOverride = next })
        }
        shownOverride = old // until the first step commits, the list shows the old state
        for handler in stepped.values { handler(steps) }
        shownOverride = nil
    }

    private func emit(_ events: [SectionedChange<Model, Section>], _ stages: [BatchStage]) {
        for e in events { for handler in sequential.values { handler(e) } }
        let nonEmpty = stages.filter { !$0.isEmpty }
        if !nonEmpty.isEmpty { for handler in staged.values { handler(nonEmpty) } }
        // A single change's stages: the first changes the counts, a second
        // only reloads, so the live state is right for both.
        if !nonEmpty.isEmpty && !stepped.isEmpty {
            let steps = nonEmpty.map { StagedStep(stage: $0, commit: {}) }
            for handler in stepped.values { handler(steps) }
        }
        // A single change inside a load (a feed's event while it waits) was
        // told now: the group's diff starts after it.
        if before != nil { captureBefore() }
    }
}

/// Forwards a sorted collection's changes to a sectioned collection.
@MainActor
private final class Relay<Model: LiveModelProtocol, Section: Hashable>: SortedCollectionObserver {
    weak var owner: SectionedCollection<Model, Section>?
    init(_ owner: SectionedCollection<Model, Section>) { self.owner = owner }
    func collection(_ c: SortedCollection<Model>, didChange change: SequentialChange<Model>) { owner?.apply(change) }
    func collection(_ c: SortedCollection<Model>, didApply update: CollectionUpdate<Model>) { owner?.noteGroup(update) }
    func collectionDidStartLoad(_ c: SortedCollection<Model>) { owner?.beginGroup() }
    func collectionDidEndLoad(_ c: SortedCollection<Model>) { owner?.endGroup() }
}

extension SectionedCollection where Section: Comparable {
    /// Sections of `collection` by `section(model)`, ascending (or descending)
    /// by the section value, titled by `title`.
    /// - Complexity: O(n log n) to build.
    public convenience init(_ collection: SortedCollection<Model>, descending: Bool = false,
                            title: @escaping (Section) -> String = { String(describing: $0) },
                            sectionedBy section: @escaping (Model) -> Section) {
        self.init(collection, sectionsOrderedBy: descending ? { $0 > $1 } : { $0 < $1 }, title: title,
                  sectionedBy: section)
    }
}
