// SessionView.swift — the collection as a list view sees it: one section,
// or sections by the value of one child.

import LiveCollection
import LiveFirebase
import LiveModel
import LiveSections

/// The rows shown: without `--section-by`, exactly one section (section 0,
/// present even when empty, so there are no section operations); with it,
/// a ``SectionedCollection`` whose sections are the distinct values of that
/// child, ascending in Firebase value order.
@MainActor
final class SessionView {
    let collection: SortedCollection<REPLChild>
    private(set) var sectionPath: DatabasePath?
    let sectioned: SectionedCollection<REPLChild, JSONValue>?

    init(_ collection: SortedCollection<REPLChild>, sectionBy path: DatabasePath?) {
        self.collection = collection
        sectionPath = path
        sectioned = path.map { path in
            SectionedCollection(collection, sectionsOrderedBy: sectionPrecedes, title: { $0.jsonText() },
                                sectionedBy: { sectionValue(of: $0, at: path) })
        }
    }

    /// Sections by the child at `path` from now on, as one grouped change
    /// of the sections (``SectionedCollection/setSections(by:)``); only
    /// between two section paths.
    func setSectionPath(_ path: DatabasePath) {
        guard let sectioned, path != sectionPath else { return }
        sectionPath = path
        sectioned.setSections { sectionValue(of: $0, at: path) }
    }

    /// Sections and their keys, in display order.
    /// - Complexity: O(n).
    func snapshot() -> [SectionItems<JSONValue, Key>] {
        if let sectioned { return sectioned.snapshot() }
        return [SectionItems(id: .null, items: collection.models.map(\.identifier))]
    }

    /// Row counts of every section.
    var counts: [Int] { sectioned?.counts ?? [collection.count] }

    /// Number of sections.
    var numberOfSections: Int { sectioned?.numberOfSections ?? 1 }

    /// What `show` prints.
    /// - Complexity: O(n).
    func shown() -> [ShownSection] {
        snapshot().map { section in
            ShownSection(value: section.id, rows: section.items.compactMap(row(for:)))
        }
    }

    /// The row of the child `key`, as `show` prints it; nil when the
    /// collection does not hold it.
    /// - Complexity: O(log n).
    func row(for key: Key) -> ShownRow? {
        guard let child = collection.model(for: key) else { return nil }
        // The sort value the collection orders it by, under its current order.
        let sortValue = collection.sortValue(for: key) ?? .null
        return ShownRow(key: key, sortValue: sortValue.description, summary: child.summary())
    }
}

/// Gathers what the collection reports — stages with counts, and child
/// events — until a command takes them.
@MainActor
final class ChangeRecorder {
    private var report = ChangeReport()
    /// The number, in ``report``, of the change whose events come now.
    private var change = 0
    /// Cancels each observation (the closures keep the tokens alive).
    private var cancels: [() -> Void] = []
    /// Child events seen since the session started.
    private(set) var eventCount = 0
    /// Called after each event or stage gathered.
    var onRecord: (@MainActor () -> Void)?
    /// Whether each stage is recorded with its ``StageContents``.
    var recordsContents = false

    func attach(to firebase: FirebaseCollection<REPLDataSource>, view: SessionView) {
        detach()
        let events = firebase.observeChildEvents { [unowned self] event in
            report.events.append(ReportedEvent(event, change: change))
            eventCount += 1
            onRecord?()
        }
        cancels.append { events.cancel() }
        // Told once a change's events are all told: the next are another change's.
        let values = firebase.observeValue { [unowned self] in
            if report.changeCount > change { change += 1 }
        }
        cancels.append { values.cancel() }
        let writes = firebase.observeWrites { [unowned self] id, state in
            report.writes.append(ReportedWrite(id: id, state: state))
            onRecord?()
        }
        cancels.append { writes.cancel() }
        if let sectioned = view.sectioned {
            let steps = sectioned.observeSteps { [unowned self] steps in
                for step in steps {
                    let reloaded = recordsContents ? step.stage.reloadedSections.map { sectioned.section(at: $0) } : []
                    step.commit()
                    var stage = ReportedStage(stage: step.stage, counts: sectioned.counts)
                    if recordsContents {
                        stage.contents = Self.contents(of: step.stage, in: sectioned, reloadedValues: reloaded)
                    }
                    report.stages.append(stage)
                }
                onRecord?()
            }
            cancels.append { steps.cancel() }
        } else {
            let updates = view.collection.observeUpdates { [unowned self] update in
                report.stages += SingleSectionStages.stages(of: update.batch, keys: recordsContents ? view.collection : nil)
                onRecord?()
            }
            cancels.append { updates.cancel() }
        }
    }

    /// Counts `events` child events that were not gathered (an initial load's).
    func countUnrecorded(_ events: Int) { eventCount += events }

    func detach() {
        for cancel in cancels { cancel() }
        cancels.removeAll()
    }

    /// Whether nothing was gathered since the last call to ``take()``.
    var isEmpty: Bool { report.isEmpty }

    /// What was gathered since the last call.
    func take() -> ChangeReport {
        defer {
            report = ChangeReport()
            change = 0
        }
        return report
    }

    /// Replaces what was gathered (a replaced collection reports a diff).
    func set(_ new: ChangeReport) {
        report = new
        change = new.changeCount
    }
}
