// SectionedDiff+SectionReloads.swift — stages that also reload whole sections.

extension SectionedDiff {
    /// As ``stages(from:to:isUpdated:)``, and sections present in both
    /// snapshots for which `isSectionUpdated` is true (a changed header or
    /// footer) are reloaded in a final stage of their own, at their new
    /// indexes, where no other operation can collide with them.
    /// - Complexity: as ``stages(from:to:isUpdated:)``, plus O(sections).
    public static func stages<S, I>(
        from old: [SectionItems<S, I>],
        to new: [SectionItems<S, I>],
        isUpdated: (I) -> Bool,
        isSectionUpdated: (S) -> Bool
    ) throws(SectionedDiffError) -> [BatchStage] {
        var result = try stages(from: old, to: new, isUpdated: isUpdated)
        let before = Set(old.map(\.id))
        let reloads = new.indices.filter { before.contains(new[$0].id) && isSectionUpdated(new[$0].id) }
        if !reloads.isEmpty { result.append(BatchStage(reloadedSections: reloads)) }
        return result
    }
}
