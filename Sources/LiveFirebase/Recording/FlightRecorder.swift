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
/// then waiting), so what is kept always replays. That state is kept beside
/// the ring, at the size of the collection's (redacted) data.
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
    /// entries start from is kept beside them.
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
    /// Called with each change recorded (a replay compares them).
    package var onChange: ((FlightChange) -> Void)?

    /// The header and state the kept entries start from.
    private var base: (header: FlightHeader, state: FlightState)?
    /// The kept entries' lines, and what dropping each changes in `base`,
    /// oldest first from `head`.
    private var ring: [(kept: Kept, line: [UInt8])] = []
    private var head = 0
    /// The bytes of the kept entries.
    public private(set) var byteCount = 0
    /// Entries dropped to stay within ``limit`` since the recording started.
    public private(set) var droppedCount = 0
    var redaction: FlightRedaction?
    /// The change being gathered, and the number of the last one kept.
    private var open: FlightChange?
    /// The number of changes recorded (kept or let go since).
    public private(set) var changeCount = 0
    /// The row counts after the last change (or when recording began).
    var lastCounts: [Int] = []
    /// Reads the row counts of the list's sections now.
    var counts = FlightCounts(all: { [] }, sections: { 0 }, rows: { _ in 0 })
    /// Stops observing the collection.
    var detach: [() -> Void] = []

    /// A recorder keeping at most `limit` bytes of entries (1 MiB by
    /// default), with values redacted unless `keepsValues`.
    public init(limit: Int = 1 << 20, keepsValues: Bool = false) {
        self.limit = max(limit, 1024)
        self.keepsValues = keepsValues
    }

    /// The recording now: its header and state, then the kept entries.
    /// - Complexity: O(size of the recording).
    public var entries: [FlightEntry] {
        (try? FlightRecording(jsonLines: jsonLines()).entries) ?? []
    }

    /// The recording as JSON lines, one entry per line (see ``FlightRecording``).
    /// - Complexity: O(size of the recording).
    public func jsonLines() -> String { jsonLines(includingOpen: false) }

    /// The recording, with the change being told so far when `includingOpen`.
    func jsonLines(includingOpen: Bool) -> String {
        guard let base else { return "" }
        let text = FlightEntry.header(base.header).jsonLine + "\n"
            + FlightEntry.state(base.state).jsonLine + "\n"
        var bytes: [UInt8] = []
        bytes.reserveCapacity(byteCount)
        for item in ring[head...] {
            bytes += item.line
            bytes.append(UInt8(ascii: "\n"))
        }
        if includingOpen, var change = open {
            change.number = changeCount + 1
            change.after = counts.all()
            bytes += change.line(rows: nil)
            bytes.append(UInt8(ascii: "\n"))
        }
        return text + String(decoding: bytes, as: UTF8.self)
    }

    /// Writes the recording to `url`, replacing it whole (never a torn file).
    /// - Throws: ``FlightRecordingError`` (line 0) when the file cannot be written.
    /// - Complexity: O(size of the recording), on the calling thread.
    public func write(to url: URL) throws(FlightRecordingError) {
        try Self.write(jsonLines(), to: url)
    }

    private static func write(_ text: String, to url: URL) throws(FlightRecordingError) {
        do { try Data(text.utf8).write(to: url, options: .atomic) } catch {
            throw FlightRecordingError(line: 0, "cannot write \(url.path): \(error.localizedDescription)")
        }
    }

    /// Writes to ``exportOnRejection``, noting a failure in ``exportError``.
    func export(to url: URL, includingOpen: Bool) {
        do {
            try Self.write(jsonLines(includingOpen: includingOpen), to: url)
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

    /// Stops recording; what was recorded stays.
    public func stop() {
        close()
        for cancel in detach { cancel() }
        detach.removeAll()
    }

    // MARK: Entries

    /// Starts a recording, or a new part of it (a new query or sections),
    /// from what the collection holds now.
    /// - Parameter state: The state, its value redacted by the redaction given.
    func begin(_ header: FlightHeader, _ state: (FlightRedaction?) -> FlightState) {
        close()
        redaction = header.isRedacted ? FlightRedaction(query: header.query, sectionBy: header.sectionBy) : nil
        var state = state(redaction)
        if let redaction {
            state.pending = state.pending.map { FlightWrite(id: $0.id, write: redaction.redact($0.write)) }
        }
        if base == nil {
            base = (header, state)
        } else {
            append(.header(header))
            append(.state(state))
        }
    }

    /// What dropping an entry changes in the state the recording starts from.
    private enum Kept {
        /// What the collection was given.
        case input(FlightEntry)
        /// A change, and the counts after it.
        case change(after: [Int])
        /// A refused stage.
        case rejected
        /// A put or a patch kept as its line only: its data (the bytes of
        /// the line in `data`) is read back when it is dropped.
        case put(DatabasePath, data: Range<Int>, isWhole: Bool)
        case patch(DatabasePath, data: Range<Int>, isWhole: Bool)

        var isOutput: Bool {
            switch self {
            case .change, .rejected: return true
            case .input, .put, .patch: return false
            }
        }
    }

    /// Keeps `entry`, dropping the oldest entries past ``limit``.
    func append(_ entry: FlightEntry) {
        switch entry {
        case .change(let change): keep(.change(after: change.after), change.line(rows: nil))
        case .rejected: keep(.rejected, Array(entry.jsonLine.utf8))
        default: keep(.input(entry), Array(entry.jsonLine.utf8))
        }
    }

    /// Keeps `line`, dropping the oldest entries past ``limit``.
    private func keep(_ kept: Kept, _ line: [UInt8]) {
        ring.append((kept, line))
        byteCount += line.count + 1
        guard byteCount > limit else { return }
        while byteCount > limit, head < ring.count - 1 { dropOldest() }
        // What the dropped input told goes with it: a replay starts at an input.
        while head < ring.count - 1, ring[head].kept.isOutput { dropOldest() }
        if head > 64, head * 2 > ring.count {
            ring.removeFirst(head)
            head = 0
        }
    }

    /// Folds the oldest kept entry into the state the recording starts from.
    private func dropOldest() {
        let (kept, line) = ring[head]
        ring[head].line = []
        head += 1
        byteCount -= line.count + 1
        droppedCount += 1
        guard base != nil else { return }
        let entry: FlightEntry
        switch kept {
        case .input(let input): entry = input
        case .change(let after):
            base!.state.counts = after
            return
        case .rejected: return
        case .put(let path, let range, let isWhole):
            guard let data = try? JSONValue(parsingUTF8: line[range]) else { return }
            entry = .message(.put(path: path, data: data, isWhole: isWhole, isCached: false))
        case .patch(let path, let range, let isWhole):
            guard let data = try? JSONValue(parsingUTF8: line[range]) else { return }
            entry = .message(.patch(path: path, data: data, isWhole: isWhole))
        }
        // Changed in place: the state is not copied for each entry dropped.
        switch entry {
        case .header(let header): base = (header, FlightState())
        case .state(let state): base!.state = state
        case .message(.put(let path, let data, let isWhole, _)):
            base!.state.value.replace(path.keys[...], with: data)
            base!.state.isWhole = isWhole
            if path.isRoot { base!.state.isComplete = true }
        case .message(.patch(let path, .object(let members), let isWhole)):
            for (name, member) in members {
                guard let relative = try? DatabasePath(name), let full = try? path.appending(relative) else { continue }
                base!.state.value.replace(full.keys[...], with: member)
            }
            base!.state.isWhole = isWhole
        case .write(let write): base!.state.pending.append(write)
        case .outcome(let id, _): base!.state.pending.removeAll { $0.id == id }
        case .message, .change, .rejected, .gap: break
        }
    }

    // MARK: Changes

    /// Keeps what the collection was given, after the change before it.
    func note(_ input: FlightEntry) {
        close()
        append(input)
    }

    /// Keeps a put the collection was given, written as its line, its
    /// data in the bytes `data`.
    func note(put path: DatabasePath, line: [UInt8], data: Range<Int>, isWhole: Bool) {
        close()
        keep(.put(path, data: data, isWhole: isWhole), line)
    }

    /// Keeps a patch the collection was given, as ``note(put:line:data:isWhole:)``.
    func note(patch path: DatabasePath, line: [UInt8], data: Range<Int>, isWhole: Bool) {
        close()
        keep(.patch(path, data: data, isWhole: isWhole), line)
    }

    /// Notes stages told to observers, in the change being gathered.
    func note(stages: [BatchStage]) {
        let nonEmpty = stages.filter { !$0.isEmpty }
        guard !nonEmpty.isEmpty else { return }
        openChange()
        open?.stages += nonEmpty
    }

    /// Notes a child event, in the change being gathered.
    func note(event: ChildEvent) {
        openChange()
        open?.events.append(FlightEvent(kind: event.kind, key: event.key, previousKey: event.previousKey))
    }

    /// Notes the counts a list's data source reported after a stage of
    /// the change being gathered (the last one's are kept).
    func note(listCounts: [Int]) {
        openChange()
        open?.list = listCounts
    }

    /// Closes the change being gathered (Firebase's value event), if it told anything.
    package func close() {
        guard var change = open else { return }
        open = nil
        guard !change.events.isEmpty || !change.stages.isEmpty else { return }
        changeCount += 1
        change.number = changeCount
        var rows = counts.after(change.stages, before: change.before)
        // A list whose data source disagrees: every count is read again,
        // so that what the sections hold is recorded, not what the stages say.
        if let list = change.list, list != rows.after { rows = (counts.all(), nil) }
        change.after = rows.after
        lastCounts = change.after
        keep(.change(after: change.after), change.line(rows: rows.changed))
        onChange?(change)
        if exportPending, let url = exportOnRejection {
            exportPending = false
            export(to: url, includingOpen: false)
        }
    }

    private func openChange() {
        if open == nil { open = FlightChange(number: 0, before: lastCounts, list: nil, stages: [], after: [], events: []) }
    }
}

/// How a recorder reads a list's row counts.
struct FlightCounts {
    /// The row count of every section.
    let all: () -> [Int]
    /// The number of sections.
    let sections: () -> Int
    /// The row count of one section.
    let rows: (Int) -> Int

    /// The counts after `stages`, from `before`: read again only for the
    /// sections the stages put rows in or took rows from, unless a stage
    /// changes the sections themselves (then all are read, and `changed`
    /// is nil); `changed` lists the sections whose count changed.
    /// - Complexity: O(operations in the stages), or O(sections) when they
    ///   change the sections.
    func after(_ stages: [BatchStage], before: [Int]) -> (after: [Int], changed: [(section: Int, count: Int)]?) {
        let sameSections = sections() == before.count && !stages.contains {
            !$0.deletedSections.isEmpty || !$0.insertedSections.isEmpty || !$0.movedSections.isEmpty
                || !$0.reloadedSections.isEmpty
        }
        guard sameSections else { return (all(), nil) }
        var after = before
        var changed: [(section: Int, count: Int)] = []
        func read(_ section: Int) {
            guard section >= 0, section < after.count else { return }
            let count = rows(section)
            guard count != after[section] else { return }
            after[section] = count
            changed.append((section, count))
        }
        for stage in stages {
            for path in stage.deletedRows { read(path.section) }
            for path in stage.insertedRows { read(path.section) }
            for move in stage.movedRows where move.from.section != move.to.section {
                read(move.from.section)
                read(move.to.section)
            }
        }
        return (after, changed)
    }
}
