// SectionedCollection+Regroup.swift — a new section rule while live: every
// row regrouped as one grouped change.
import LiveCollection

extension SectionedCollection {
    /// Groups the rows by `section` from now on, and tells the change as one
    /// grouped change: a row whose section stays keeps its place, the others
    /// move to their new sections (rows keep the collection's order), sections
    /// left empty go and new ones come, in the sections' order. Observers get
    /// it as any grouped change: minimal stages, steps, and sequential events
    /// row by row.
    ///
    /// `section` must be a pure function of the model, as the first one.
    /// A call made inside the collection's `performBatch` or from one of
    /// these sections' handlers takes effect once that is done, on the main
    /// actor's next turn.
    /// - Complexity: O(n (log n + s)) for n rows and s sections.
    public func setSections(by section: @escaping @Sendable (Model) -> Section) {
        guard !isTelling, !collection.isRecording else {
            Task { @MainActor [weak self] in self?.setSections(by: section) }
            return
        }
        if isUndone { redo() }
        // Where each row is shown, noted under the old rule.
        var keys: [Key] = []
        keys.reserveCapacity(collection.count)
        collection.forEachPosted { model, _ in keys.append(model.identifier) }
        for key in keys { note(key) }
        let precedes = sectionPrecedes
        sectionOf = section
        sectioningAll = { Self.sectioning($0.count, $0.forEachPosted, sectionOf: section, sectionPrecedes: precedes) }
        fillWorkIsStale = true
        applyTouched(keys.map { key in (key: key, before: noted[key]?.model, changed: false) })
    }
}
