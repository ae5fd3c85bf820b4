// SectionedCollection+Group.swift — a grouped change of the collection (a
// batch, a resync, a page load) applied from the keys it touched.
import LiveCollection
import LiveModel

extension SectionedCollection {
    /// Applies a grouped change of the collection and tells observers.
    ///
    /// Only the touched keys are looked at: each leaves its old row and takes
    /// its new one, and the stages and sequential steps come from their paths
    /// (``GroupPlan``). The fill of an empty collection is sectioned in bulk.
    /// - Complexity: O(t (log n + s)) for t touched keys and s sections;
    ///   O(n log n) for a fill.
    func applyGroup(_ update: CollectionUpdate<Model>) {
        // The collection lists the touched keys of every grouped change but
        // the fill of an empty collection.
        let isFill = update.touched.isEmpty && !update.batch.isEmpty
        if rows.isEmpty || isFill {
            // A fill finds rows shown only when a change made while it was
            // being told (from an observer told first) reached these
            // sections first: what they show is then replaced.
            let before = notedModels()
            noted.removeAll()
            return rows.isEmpty ? fill() : replaceAll(before: before)
        }
        applyTouched(update.touched.map { (key: $0.key, before: $0.before, changed: $0.changed) })
    }

    /// Applies a grouped change from the keys it touched, each with its
    /// model as shown before it (nil: not shown) and whether its content
    /// may be new, and tells observers.
    /// - Complexity: O(t (log n + s)) for t touched keys and s sections.
    func applyTouched(_ touched: [(key: Key, before: Model?, changed: Bool)]) {
        var before: [Key: Model] = [:]
        var entries: [GroupEntry<Section>] = []
        entries.reserveCapacity(touched.count)
        for t in touched {
            // Where it was shown (a place whose section does not hold its
            // post is looked for in the others, and is no place if none does).
            var old = shownPlace(of: t.key), oldPath = old.flatMap { path(at: $0) }
            if let place = old, oldPath == nil {
                old = resolve(place)
                oldPath = old.flatMap { path(at: $0) }
            }
            let new = currentPlace(of: t.key)
            if old == nil && new == nil { continue }
            if let old, let new, old.section == new.section, old.post == new.post, !t.changed { continue }
            // The model shown: noted before a change these sections had not
            // applied when the batch began, else as it was then.
            if let model = noted[t.key]?.model ?? t.before { before[t.key] = model }
            entries.append(GroupEntry(key: t.key, old: old, new: new, changed: t.changed, oldPath: oldPath))
        }
        // Applied from here on: the notes of the touched keys are done with.
        for t in touched { noted.removeValue(forKey: t.key) }
        guard !entries.isEmpty else { return }

        var oldCounts: [Section: Int] = [:]
        func noteCount(_ section: Section?) {
            if let section, let box = rows[section] { oldCounts[section] = box.count }
        }
        for entry in entries {
            noteCount(entry.old?.section)
            noteCount(entry.new?.section)
        }
        let oldOrder = order
        shift(entries, forward: true)
        for i in entries.indices { entries[i].newPath = entries[i].new.flatMap { path(at: $0) } }
        let existsAfter = Set(entries.compactMap { $0.old?.section }.filter { rows[$0] != nil })
        let plan = GroupPlan(entries: entries, oldCounts: oldCounts, existsAfter: existsAfter)

        // Everything told is made before any observer runs: one may change
        // the collection, and that change is held until this one is told.
        let stages = plan.stages()
        let events = observers.tellsSequential
            ? self.events(plan.steps { section in rows[section]!.keys }, before: before) : []
        let steps = stages.enumerated().map { i, stage in
            StagedStep(stage: stage, commit: i == 0 ? { [weak self] in self?.redo() } : {})
        }
        tell(events, stages) { observer in
            sendSteps(steps, to: observer, undoing: entries, oldOrder: oldOrder, before: before)
        }
    }

    /// The models of the noted keys (rows a replacement may still show
    /// while its step is handed out).
    func notedModels() -> [Key: Model] {
        var models: [Key: Model] = [:]
        for (key, note) in noted { if let model = note.model { models[key] = model } }
        return models
    }

    /// Sections a collection filled from empty, and tells observers: every
    /// section arrives with its rows.
    /// - Complexity: O(n log n).
    private func fill() {
        // Built beside the fill where it was prepared, or here.
        if let made = collection.fillResult(for: ObjectIdentifier(self)) as? Sectioning, made.rule == rule {
            adopt(made)
        } else {
            rebuild()
        }
        guard !order.isEmpty else { return }
        let stages = [BatchStage(insertedSections: Array(order.indices))]
        let events = !observers.tellsSequential ? []
            : self.events(order.enumerated().map { .sectionInserted($1, at: $0, keys: rows[$1]!.keys) }, before: [:])
        let steps = [StagedStep(stage: stages[0], commit: { [weak self] in self?.showsEmpty = false })]
        tell(events, stages) { observer in
            showsEmpty = true
            observer(steps)
            showsEmpty = false
        }
    }

    /// Shows every model of the collection in place of what is shown, and
    /// tells observers: every section shown goes, every section now comes.
    /// - Complexity: O(n log n).
    func replaceAll(before: [Key: Model] = [:]) {
        let oldOrder = order, oldRows = rows
        let made = sectioningAll(collection)
        adopt(made)
        let stage = BatchStage(deletedSections: Array(oldOrder.indices), insertedSections: Array(order.indices))
        let removals = oldOrder.indices.reversed().map { ReplayStep<Section>.sectionRemoved(oldOrder[$0], at: $0) }
        let events = !observers.tellsSequential ? []
            : self.events(removals + order.enumerated().map { .sectionInserted($1, at: $0, keys: rows[$1]!.keys) },
                          before: [:])
        let steps = [StagedStep(stage: stage, commit: { [weak self] in self?.redo() })]
        tell(events, [stage]) { observer in
            // Shown as it was until the step commits (or the collection
            // changes again), with the models of rows gone as they were.
            order = oldOrder
            rows = oldRows
            undoneSectioning = made
            undoneModels = before
            observer(steps)
            redo()
        }
    }

    /// Hands `steps` to a step observer with the change undone, so that the
    /// list is shown the old state until the first step commits; the first
    /// commit redoes it (later stages only reload rows).
    private func sendSteps(_ steps: [StagedStep], to observer: ([StagedStep]) -> Void,
                           undoing entries: [GroupEntry<Section>], oldOrder: [Section], before: [Key: Model]) {
        shift(entries, forward: false)
        assert(order == oldOrder, "SectionedCollection: undoing a grouped change")
        undone = entries
        undonePlaces = Dictionary(entries.map { ($0.key, $0.old) }, uniquingKeysWith: { first, _ in first })
        undoneModels = before
        observer(steps)
        redo() // whether or not the observer committed
    }

    /// Applies the undone grouped change again, if any.
    @usableFromInline
    func redo() {
        if let made = undoneSectioning {
            undoneSectioning = nil
            undoneModels = [:]
            adopt(made)
        }
        guard let entries = undone else { return }
        undone = nil
        undonePlaces = [:]
        undoneModels = [:]
        shift(entries, forward: true)
    }

    /// The sequential events of a grouped change's steps, with the models as
    /// they were (`before`) for rows that leave.
    private func events(_ steps: [ReplayStep<Section>], before: [Key: Model]) -> [SectionedChange<Model, Section>] {
        func model(_ key: Key) -> Model { collection.model(for: key) ?? before[key]! }
        return steps.map { step in
            switch step {
            case .sectionRemoved(let section, let at): .sectionRemoved(section, at: at)
            case .rowRemoved(let key, let at): .rowRemoved(before[key] ?? model(key), at: at)
            case .sectionInserted(let section, let at, let keys): .sectionInserted(section, at: at, models: keys.map(model))
            case .rowInserted(let key, let at): .rowInserted(model(key), at: at)
            case .rowUpdated(let key, let at): .rowUpdated(model(key), at: at)
            }
        }
    }

}
