// SectionedCollection+Regroup.swift — a new section rule while live: every
// row regrouped as one grouped change.
import LiveCollection

extension SectionedCollection {
    /// Groups the rows by `section` from now on, and tells the change as one
    /// grouped change: a row whose section stays keeps its place, the others
    /// move to their new sections (rows keep the collection's order), sections
    /// left empty go and new ones come, in the sections' order. Observers get
    /// it as any grouped change: minimal stages, steps, and sequential events
    /// row by row. A change of the collection these sections have not applied
    /// yet is part of it.
    ///
    /// `section` must be a pure function of the model, as the first one:
    /// later first fills are sectioned by it beside the fill, away from the
    /// main actor. A call made inside the collection's `performBatch` or
    /// from one of these sections' handlers takes effect once that is done,
    /// on the main actor's next turn, unless another call comes before.
    /// - Complexity: O(n (log n + s)) for n rows and s sections.
    public func setSections(by section: @escaping @Sendable (Model) -> Section) {
        ruleRequests += 1
        let request = ruleRequests
        guard !isTelling, !collection.isRecording else {
            Task { @MainActor [weak self] in
                guard let self, self.ruleRequests == request else { return }
                self.regroup(by: section)
            }
            return
        }
        regroup(by: section)
    }

    /// Applies a new rule now (see ``setSections(by:)``).
    private func regroup(by section: @escaping @Sendable (Model) -> Section) {
        if isUndone { redo() }
        // Keys with a change these sections have not applied yet (told to
        // another observer first): applied here, their content may be new.
        let pending = Set(noted.keys)
        // Where each row is shown, noted under the old rule.
        var keys: [Key] = []
        keys.reserveCapacity(collection.count)
        collection.forEachPosted { model, _ in keys.append(model.identifier) }
        for key in keys { note(key) }
        rule += 1
        let precedes = sectionPrecedes, made = rule
        sectionOf = section
        sectioningAll = { Self.sectioning($0.count, $0.forEachPosted, sectionOf: section, sectionPrecedes: precedes, rule: made) }
        collection.replaceFillWork(FillWork(slot: ObjectIdentifier(self)) { fill in
            Self.sectioning(fill.count, fill.forEachPosted, sectionOf: section, sectionPrecedes: precedes, rule: made)
        })
        applyTouched(keys.map { key in (key: key, before: noted[key]?.model, changed: pending.contains(key)) })
    }
}
