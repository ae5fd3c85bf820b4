// ChangeReport.swift — what one command did to the collection: the stages
// a list view applies, one after another, and Firebase's child events.

import LiveCollection
import LiveFirebase
import LiveModel
import LiveSections

/// One stage of a change and the row count of every section once it is
/// applied (what a data source reports to the list view after it).
public struct ReportedStage: Sendable, Equatable {
    /// The section and row operations of the stage.
    public let stage: BatchStage
    /// The number of rows in each section once the stage is applied.
    public let counts: [Int]
    /// The keys the stage fills in, when the session records them
    /// (``Session/recordsStageContents``); nil otherwise.
    public var contents: StageContents?

    init(stage: BatchStage, counts: [Int], contents: StageContents? = nil) {
        self.stage = stage
        self.counts = counts
        self.contents = contents
    }
}

/// One Firebase child event, as the REPL reports it: the event as a
/// recording keeps it, and the change of the report it belongs to.
public struct ReportedEvent: Sendable, Equatable {
    /// The event: its kind, the child's key and the key before it.
    public let event: FlightEvent
    /// Which of the report's changes the event belongs to, counted from 0:
    /// a report may hold several changes (messages the server sent close
    /// together), and ``previousKey`` is relative to the order after the
    /// event's own change.
    public let change: Int

    /// `child_added`, `child_removed`, `child_moved` or `child_changed`.
    public var type: String { event.kind.rawValue }
    /// The child's key.
    public var key: Key { event.key }
    /// The key of the child before it in the query's order once its
    /// change is made (`prevKey`); nil for the first child and for a
    /// removal.
    public var previousKey: Key? { event.previousKey }

    init(_ event: ChildEvent, change: Int) {
        self.event = FlightEvent(event)
        self.change = change
    }

    private init(event: FlightEvent, change: Int) {
        self.event = event
        self.change = change
    }

    /// The same event, in a later change.
    func inChange(_ change: Int) -> ReportedEvent { ReportedEvent(event: event, change: change) }
}

/// A write made through the REPL, and where it stands.
public struct ReportedWrite: Sendable, Equatable {
    /// The write's number, counted from 1 in the session.
    public let id: Int
    /// `pending`, `confirmed` or `reverted`.
    public let state: String
    /// Why the server refused it (`reverted` only).
    public let error: String?

    init(id: Int, state: WriteState) {
        self.id = id
        switch state {
        case .pending: self.state = "pending"; error = nil
        case .confirmed: self.state = "confirmed"; error = nil
        case .reverted(let failure): self.state = "reverted"; error = failure.description
        }
    }
}

/// The stages and events of one command, in order.
public struct ChangeReport: Sendable, Equatable {
    /// The stages a list view applies, one after another.
    public var stages: [ReportedStage] = []
    /// Firebase's child events, in the order they were told.
    public var events: [ReportedEvent] = []
    /// The writes that started, were confirmed or were reverted.
    public var writes: [ReportedWrite] = []
    /// After `load older`: the rows the page added before the row that was
    /// first (rows `0..<n` of the query's order).
    public var prepended: Int?

    /// Whether the command changed nothing: no stage, no event, no write.
    public var isEmpty: Bool { stages.isEmpty && events.isEmpty && writes.isEmpty }

    /// The number of changes the events belong to.
    var changeCount: Int { events.last.map { $0.change + 1 } ?? 0 }

    /// This report, then `later`'s stages, events (in changes after this
    /// report's) and writes.
    func followed(by later: ChangeReport) -> ChangeReport {
        let offset = changeCount
        return ChangeReport(stages: stages + later.stages, events: events + later.events.map { $0.inChange($0.change + offset) },
                            writes: writes + later.writes, prepended: later.prepended ?? prepended)
    }
}

enum SingleSectionStages {
    /// The stages of a sorted collection's batch shown as the rows of one
    /// section (``BatchStage/singleSection(of:)``), with the count after each.
    /// With `keys` (the collection after the batch), each stage carries
    /// its ``StageContents``.
    @MainActor
    static func stages(of batch: CollectionBatch, keys: SortedCollection<REPLChild>? = nil) -> [ReportedStage] {
        let counts = [batch.newCount]
        return BatchStage.singleSection(of: batch).map { stage in
            // Only the first stage inserts rows; the second reloads moved rows.
            let contents = keys.map { keys in StageContents(insertedRows: stage.insertedRows.map { keys.key(at: $0.row) }) }
            return ReportedStage(stage: stage, counts: counts, contents: contents)
        }
    }
}

enum SnapshotStages {
    /// The stages turning what was shown into what is shown now (when the
    /// collection is replaced: a new query, sections or load mode), with the
    /// counts after each.
    /// With `contents`, each stage carries its ``StageContents``.
    static func stages(from old: [SectionItems<JSONValue, Key>], to new: [SectionItems<JSONValue, Key>],
                       contents: Bool = false, isUpdated: (Key) -> Bool) throws(REPLError) -> [ReportedStage] {
        let stages: [BatchStage]
        do { stages = try SectionedDiff.stages(from: old, to: new, isUpdated: isUpdated) } catch {
            throw .internalState("diff of the shown sections failed: \(error)")
        }
        let final = new.map(\.items)
        var state = old.map(\.items)
        var out: [ReportedStage] = []
        for stage in stages {
            do {
                state = try BatchUpdateChecker.apply(stage, to: state, inserting: { final[$0.section][$0.row] },
                                                     insertingSection: { final[$0] })
            } catch {
                throw .internalState("a stage of the diff breaks a batch rule: \(error)")
            }
            // These stages reload no section.
            let filled = contents ? StageContents(
                insertedRows: stage.insertedRows.map { final[$0.section][$0.row] },
                insertedSections: stage.insertedSections.map { SectionKeys(value: new[$0].id, keys: final[$0]) }) : nil
            out.append(ReportedStage(stage: stage, counts: state.map(\.count), contents: filled))
        }
        return out
    }
}
