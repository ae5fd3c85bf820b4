// SectionedCollection+Single.swift — a single change of the collection,
// told in both contracts.
import LiveCollection
import LiveModel

extension SectionedCollection {
    /// Applies a single change of the collection and tells observers: one
    /// sequential event or two (a row that changes section), and one stage
    /// plus, for a moved row, a reload at its new path.
    ///
    /// The key goes from where it was shown (noted before the change) to
    /// where the collection has it now, whatever the kind of change: a
    /// change of the same key made from inside another observer's handler
    /// may have reached these sections first, and the later one then finds
    /// the key already where it belongs.
    /// - Complexity: O(log n + s) for s sections.
    @inlinable
    func apply(_ change: SequentialChange<Model>) {
        let told: Model
        switch change {
        case .inserted(let m, _), .removed(let m, _), .updated(let m, _), .moved(let m, _, _): told = m
        }
        let key = told.identifier
        let entry = collection.entry(for: key)
        let new = entry.map { Place(section: sectionOf($0.model), post: $0.post) }
        let old: Place?
        if let note = noted.removeValue(forKey: key) {
            old = note.place
        } else {
            // Not noted: applied already, from the change made inside a handler.
            old = located(key)
            if old?.section == new?.section && old?.post == new?.post { return }
        }
        let model = entry?.model ?? told
        // The sequential events are made only for observers of them.
        var events = SequentialEvents(told: observers.tellsSequential)
        var stage = BatchStage()
        switch (old, new) {
        case (nil, nil):
            return
        case (nil, let new?):
            let (path, isNew) = place(key, in: new.section, at: new.post)
            if isNew {
                events.add(.sectionInserted(new.section, at: path.section, models: [model]))
                stage.insertedSections = [path.section]
            } else {
                events.add(.rowInserted(model, at: path))
                stage.insertedRows = [path]
            }
        case (let old?, nil):
            guard let (path, gone, shown) = unplace(old) else { return }
            if gone {
                events.add(.sectionRemoved(shown.section, at: path.section))
                stage.deletedSections = [path.section]
            } else {
                events.add(.rowRemoved(told, at: path))
                stage.deletedRows = [path]
            }
        case (let old?, let new?):
            if old.section == new.section, let s = sectionIndex(of: new.section), let box = rows[new.section],
               let fromRow = box.remove(old.post) {
                // The same section: the row leaves its place and takes its
                // new one; the section stays, whatever its size.
                let toRow = box.insert(new.post)
                let from = RowPath(section: s, row: fromRow), to = RowPath(section: s, row: toRow)
                if from == to {
                    events.add(.rowUpdated(model, at: to))
                    stage.reloadedRows = [from]
                } else {
                    events.add(.rowMoved(model, from: from, to: to))
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
            guard let (from, gone, shown) = unplace(old) else { return }
            let (to, isNew) = place(key, in: new.section, at: new.post)
            if gone {
                events.add(.sectionRemoved(shown.section, at: from.section))
                stage.deletedSections = [from.section]
            } else {
                events.add(.rowRemoved(model, at: from))
            }
            if isNew {
                events.add(.sectionInserted(new.section, at: to.section, models: [model]))
                stage.insertedSections = [to.section]
                if !gone { stage.deletedRows = [from] }
            } else {
                events.add(.rowInserted(model, at: to))
                if gone { stage.insertedRows = [to] } else { stage.movedRows = [RowMove(from: from, to: to)] }
            }
            emit(events, [stage] + (gone || isNew ? [] : [BatchStage(reloadedRows: [to])]))
            return
        }
        emit(events, [stage])
    }

    @inlinable
    func emit(_ events: SequentialEvents, _ stages: [BatchStage]) {
        let nonEmpty = stages.filter { !$0.isEmpty }
        // A single change's stages: the first changes the counts, a second
        // only reloads, so the live state is right for both.
        let steps = nonEmpty.isEmpty || !observers.tellsSteps ? [] : nonEmpty.map { StagedStep(stage: $0, commit: {}) }
        tell(events.list, nonEmpty) { observer in if !steps.isEmpty { observer(steps) } }
    }
}


extension SectionedCollection {
    /// The sequential events of a single change, made only when they are told.
    @usableFromInline
    struct SequentialEvents {
        @usableFromInline let told: Bool
        @usableFromInline var list: [SectionedChange<Model, Section>] = []

        @inlinable
        init(told: Bool) { self.told = told }

        @inlinable
        mutating func add(_ event: @autoclosure () -> SectionedChange<Model, Section>) {
            if told { list.append(event()) }
        }
    }
}
