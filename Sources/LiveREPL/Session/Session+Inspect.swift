// Session+Inspect.swift — what a front end that draws the rows itself (the
// inspector page) reads: the keys of every section, and rows by key.

import LiveModel

extension Session {
    /// Whether each stage a change reports carries the keys it fills in
    /// (``ReportedStage/contents``), so that a front end holding the keys
    /// shown can follow every stage without reading all the rows again.
    /// Off by default: it costs a lookup per inserted row.
    public var recordsStageContents: Bool {
        get { recorder.recordsContents }
        set { recorder.recordsContents = newValue }
    }

    /// Whether the collection changed since the last change was taken (a
    /// command's, or ``takeUnsolicited()``): the sections shown already
    /// hold a change not yet reported.
    public var hasUntakenChanges: Bool { !recorder.isEmpty }

    /// The sections shown and the keys of their rows, in display order.
    /// - Complexity: O(n).
    public func sectionKeys() -> [SectionKeys] {
        view.snapshot().map { SectionKeys(value: $0.id, keys: $0.items) }
    }

    /// The number of rows of each section shown.
    /// - Complexity: O(s) for s sections.
    public var shownCounts: [Int] { view.counts }

    /// The row of each key, as `show` prints it; nil for a key the
    /// collection does not hold.
    /// - Complexity: O(k log n) for k keys.
    public func rows(for keys: [Key]) -> [ShownRow?] { keys.map(view.row(for:)) }
}
