// FlightRecorder.swift — a bounded recording of what a collection was
// given and what it told, to be replayed where the failure can be seen.
import Foundation
import LiveModel
import LiveSections

/// Keeps a recording of one collection: its query and sections, the stream
/// messages it received, the writes made through it and their outcomes,
/// and what it told observers of each change (stages, child events, row
/// counts before and after). `live-repl --replay FILE` rebuilds the same
/// collection from it and says whether this version tells the same.
///
/// The recording is a ring bounded in bytes: when a new entry would pass
/// ``limit``, the oldest go, folded into the state the recording starts
/// from (the server's value where the kept entries start, and the writes
/// then waiting), so what is kept always replays. Entries are kept as the
/// collection gave them (a message's payload, a change's stages, shared
/// rather than copied), and the state as the collection's own snapshots of
/// its children: both are written as lines, and redacted, only when the
/// recording is. Until then an entry's bytes are an estimate of its line's;
/// writing the recording sets them exactly and keeps the bound exactly.
///
/// By default values are redacted: a recording keeps keys, the members the
/// query orders by and the sections are read from, and replaces other
/// values by their shape (see ``keepsValues``). Tokens and URLs are never
/// recorded.
///
/// Attach it with ``FirebaseCollection/record(into:sectionBy:sections:)``,
/// and wrap the list view in a ``RecordedListTarget``.
@MainActor
public final class FlightRecorder {
    /// The most bytes the kept entries take (their JSON lines with
    /// newlines); one entry larger than it is kept alone. The state the
    /// entries start from is kept beside them. Between two writes of the
    /// recording the bytes of the entries kept since are estimated.
    public let limit: Int
    /// Whether values are kept as they are instead of as their shape.
    public let keepsValues: Bool
    /// Where the recording is written when a ``RecordedListTarget`` finds
    /// a stage its list would refuse: at once, then again once the change
    /// it belongs to is recorded; nil for nowhere.
    public var exportOnRejection: URL?
    /// Why the last write to ``exportOnRejection`` failed; nil once one succeeds.
    public private(set) var exportError: FlightRecordingError?
    /// Whether a refused stage waits for its change to be written out.
    var exportPending = false
    /// The recordings written on the calling thread so far (a save made
    /// meanwhile is older than they are).
    var writes = 0
    /// Awaited by a save off the main actor before it writes (tests hold a save there).
    package var savePause: (@Sendable () async -> Void)?
    /// Called with each change recorded (a replay compares them).
    package var onChange: ((FlightChange) -> Void)?

    /// The header and state the kept entries start from.
    var base: FlightBase?
    /// The kept entries, and what dropping each changes in `base`.
    var ring = FlightRing()
    /// The bytes of the kept entries (their lines, with newlines): exact
    /// once the recording is written, estimated for entries kept since.
    public var byteCount: Int { ring.byteCount }
    /// Entries dropped to stay within ``limit`` since the recording started.
    public private(set) var droppedCount = 0
    var redaction: FlightRedaction?
    /// The change being gathered, and the number of the last one kept.
    var open: FlightChange?
    /// The number of changes recorded (kept or let go since).
    public private(set) var changeCount = 0
    /// The row counts after the last change (or when recording began).
    var lastCounts: [Int] = []
    /// Reads the row counts of the list's sections now.
    var counts = FlightCounts(all: { [] }, sections: { 0 }, rows: { _ in 0 })
    /// Reads the recorded collection's children: one child's server value,
    /// and every child's.
    var source = FlightSource(child: { .absent(key: $0) }, children: { [:] })
    /// The kept puts and patches their collection has not applied yet
    /// (their numbers in `ring`, oldest first): read from it once it has.
    private var unresolved: [Int] = []
    /// Stops observing the collection.
    var detach: [() -> Void] = []

    /// A recorder keeping at most `limit` bytes of entries (1 MiB by
    /// default), with values redacted unless `keepsValues`.
    public init(limit: Int = 1 << 20, keepsValues: Bool = false) {
        self.limit = max(limit, 1024)
        self.keepsValues = keepsValues
    }

    /// Writes to ``exportOnRejection``, noting a failure in ``exportError``.
    func export(to url: URL, includingOpen: Bool) {
        do {
            writes += 1
            try Self.write(lines(includingOpen: includingOpen), to: url)
            exportError = nil
        } catch {
            exportError = error
        }
    }

    /// Keeps a stage the list refused, in the change being told, and writes
    /// the recording out at once (with that change as told so far: the
    /// process may end when this returns), then again once the change is
    /// recorded whole.
    func noteRejected(_ error: BatchUpdateError) {
        append(.rejected(change: changeCount + 1, reason: error.description))
        guard let url = exportOnRejection else { return }
        export(to: url, includingOpen: true)
        exportPending = true
    }

    /// The times ``stop()`` was called: a collection that stopped it for a
    /// while attaches it again only if nobody stopped it meanwhile.
    private(set) var stops = 0

    /// Stops recording; what was recorded stays.
    public func stop() {
        stops += 1
        close()
        for cancel in detach { cancel() }
        detach.removeAll()
    }

    // MARK: Entries

    /// Starts a recording, or a new part of it (a new query or sections),
    /// from what the collection holds now (`children` shared, not copied).
    func begin(_ header: FlightHeader, children: [Key: Snapshot], isComplete: Bool, isWhole: Bool,
               pending: [FlightWrite], counts: [Int]) {
        close()
        let redaction = header.isRedacted ? FlightRedaction(query: header.query, sectionBy: header.sectionBy) : nil
        self.redaction = redaction
        let pending = redaction.map { redaction in pending.map { FlightWrite(id: $0.id, write: redaction.redact($0.write)) } } ?? pending
        let part = FlightBase(header: header, redaction: redaction, children: children, isComplete: isComplete,
                              isWhole: isWhole, pending: pending, counts: counts)
        if base == nil {
            base = part
        } else {
            // Its header and state, kept as one entry of two lines.
            ring.append(.part(part), size: part.estimatedSize)
            trim()
        }
    }

    /// Keeps `entry`, dropping the oldest entries past ``limit``.
    func append(_ entry: FlightEntry) {
        switch entry {
        case .change(let change):
            let counts = FlightCounts.Changed.all(before: change.before, after: change.after)
            ring.append(.change(change, counts), size: change.estimatedSize(counts))
        case .rejected(let change, let reason):
            ring.append(.rejected(change: change, reason: reason), size: entry.jsonLine.utf8.count + 1)
        default: ring.append(.input(entry), size: entry.jsonLine.utf8.count + 1)
        }
        trim()
    }

    /// Drops the oldest entries past ``limit``; a put or a patch the
    /// collection has not applied yet stays (with what follows) until it has.
    func trim() {
        guard ring.byteCount > limit else { return }
        while ring.byteCount > limit, ring.count > 1, ring.head != unresolved.first { fold(ring.dropOldest()) }
        // What the dropped input told goes with it: a replay starts at an input.
        while ring.count > 1, ring[ring.head].isOutput { fold(ring.dropOldest()) }
    }

    /// Reads the children the put or patch kept as entry `number` wrote
    /// to from its collection, which has applied it.
    func resolve(_ number: Int) {
        guard let index = unresolved.firstIndex(of: number) else { return }
        unresolved.remove(at: index)
        guard number >= ring.head, case .data(var fold) = ring[number] else { return }
        fold.after = fold.read()
        ring[number] = .data(fold)
        trim()
    }

    /// Folds a dropped entry into the state the recording starts from.
    private func fold(_ kept: FlightRing.Kept) {
        droppedCount += 1
        guard base != nil else { return }
        // Changed in place: the state is not copied for each entry dropped.
        switch kept {
        case .change(_, .rows(let rows)):
            for (section, count) in rows where section < base!.counts.count { base!.counts[section] = count }
        case .change(_, .all(_, let after)): base!.counts = after
        case .rejected: break
        case .data(var fold):
            // Not read yet only when the collection never applied it (it stopped).
            if fold.after == nil { fold.after = fold.read() }
            base!.fold(fold)
        case .part(let part): base = part
        case .input(.write(let write)): base!.pending.append(write)
        case .input(.outcome(let id, _)): base!.pending.removeAll { $0.id == id }
        case .input: break
        }
    }

    // MARK: Changes

    /// Keeps what the collection was given, after the change before it.
    func note(_ input: FlightEntry) {
        close()
        append(input)
    }

    /// Keeps a put or a patch the collection was given; what it wrote is
    /// read from the collection once it has applied it (``resolve(_:)``,
    /// with the number returned). Until then it is not let go.
    func note(data fold: FlightFold) -> Int {
        close()
        let number = ring.nextNumber
        unresolved.append(number)
        ring.append(.data(fold), size: fold.estimatedSize)
        trim()
        return number
    }

    /// Notes stages told to observers, in the change being gathered.
    func note(stages: [BatchStage]) {
        let empty = stages.count(where: \.isEmpty)
        guard empty < stages.count else { return }
        openChange()
        if empty == 0, open!.stages.isEmpty {
            // Shared, not copied.
            open!.stages = stages
        } else {
            open!.stages += stages.filter { !$0.isEmpty }
        }
    }

    /// Notes a child event, in the change being gathered.
    func note(event: ChildEvent) {
        openChange()
        open!.events.append(FlightEvent(event))
    }

    /// Notes the counts a list's data source reported after a stage of
    /// the change being gathered (the last one's are kept).
    func note(listCounts: [Int]) {
        openChange()
        open!.list = listCounts
    }

    /// Closes the change being gathered (Firebase's value event), if it told anything.
    package func close() {
        guard var change = open else { return }
        open = nil
        guard !change.events.isEmpty || !change.stages.isEmpty else { return }
        changeCount += 1
        change.number = changeCount
        // The counts before are copied only for a replay or a list to compare with.
        let compared = onChange != nil || change.list != nil
        if compared { change.before = lastCounts }
        // Updated apart: the counts may be read from `lastCounts` (sections let go).
        var after = lastCounts
        var changed = counts.update(&after, after: change.stages)
        // A list whose data source disagrees: every count is read again,
        // so that what the sections hold is recorded, not what the stages say.
        if let list = change.list, list != after {
            after = counts.all()
            changed = .all(before: change.before, after: after)
        }
        lastCounts = after
        ring.append(.change(change, changed), size: change.estimatedSize(changed))
        trim()
        if compared {
            change.after = lastCounts
            onChange?(change)
        }
        if exportPending, let url = exportOnRejection {
            exportPending = false
            export(to: url, includingOpen: false)
        }
    }

    private func openChange() {
        if open == nil { open = FlightChange(number: 0, before: [], list: nil, stages: [], after: [], events: []) }
    }
}
