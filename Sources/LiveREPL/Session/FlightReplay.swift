// FlightReplay.swift — a flight recording given again to a collection of
// this version, each change compared with the recorded one.
import Foundation
import LiveFirebase
import LiveModel
import LiveSections

/// What a replay found.
public enum ReplayVerdict: Sendable, Equatable {
    /// Every recorded change was told the same (`changes` of them).
    case identical(changes: Int)
    /// The replay stopped after `changes` changes (`--until`, or the
    /// `replay` command), all the same so far; `replay` goes on.
    case stopped(changes: Int)
    /// After `changes` changes, all the same, the recording goes on with a
    /// new part (another query or sections), which a replay stepped with
    /// the `replay` command does not enter.
    case partEnds(changes: Int)
    /// After `changes` changes, all the same, the app did `what`, which a
    /// recording does not follow (`setQuery`, `goOffline`, …).
    case gap(changes: Int, what: String)
    /// After change `change`, the list's data source reported `reported`
    /// rows while the collection had told `told`: the app changed the
    /// list's data outside a batch.
    case changedOutsideBatch(change: Int, reported: [Int], told: [Int])
    /// Change `change` was told differently: a defect in LiveCollection,
    /// unless `startsWithWrites` (the recording starts with writes waiting,
    /// which a replay sends before its state: where they met older data, it
    /// can differ).
    case differs(change: Int, recorded: FlightChange, replayed: FlightChange?, startsWithWrites: Bool = false)

    /// The verdict in a few lines, as `live-repl --replay` prints it.
    public var lines: [String] {
        switch self {
        case .identical(let n): return ["replayed \(n) changes, identical"]
        case .stopped(let n): return ["replayed \(n) changes, identical so far; stopped (replay N goes on)"]
        case .partEnds(let n):
            return ["replayed \(n) changes, identical; the recording goes on with a new part (another query or sections):",
                    "replay it whole (--replay FILE without --until), or stop after a change of that part (--until N)"]
        case .gap(let n, let what):
            return ["replayed \(n) changes, identical; then the app called \(what), which a recording does not follow:",
                    "record again after it to replay what came next"]
        case .changedOutsideBatch(let n, let reported, let told):
            return ["change \(n): the list's data source reported counts \(reported) after it, but the collection told \(told):",
                    "the app changed the list's data outside a batch, before or during change \(n) (not a defect of LiveCollection)"]
        case .differs(let n, let recorded, let replayed, let startsWithWrites):
            var lines = startsWithWrites
                ? ["change \(n) differs; the recording starts with writes waiting (its bound cut through them, or it began while they waited),",
                   "which the replay sends before the data it starts from: record with a larger bound to tell a defect from that"]
                : ["change \(n) differs: a defect in LiveCollection; file the recording with this output"]
            lines += Self.describe("recorded", recorded)
            if let replayed { lines += Self.describe("replayed", replayed) } else { lines.append("  replayed: nothing was told") }
            return lines
        }
    }

    private static let plain = HumanOutput(colors: false)

    private static func describe(_ label: String, _ c: FlightChange) -> [String] {
        ["  \(label): counts \(c.before) -> \(c.after)"]
            + c.stages.enumerated().map { "    stage \($0.offset + 1): " + plain.operations($0.element).joined(separator: "  ") }
            + c.events.map { "    \($0)".terminalSafe }
    }
}

/// Replays a recording into an offline session: its query and sections,
/// its state, then each message, write and outcome in order, comparing
/// each change told with the recorded one.
@MainActor
public final class FlightReplay {
    let recording: FlightRecording
    /// The session the replay feeds; after ``run(until:withinPart:)``, its state.
    public private(set) var session: Session?
    /// The part being replayed (from a header to the next).
    private var answers = ReplayAnswers()
    private var header: FlightHeader?
    private var writeIDs: [Int: Int] = [:]
    private var recorder = FlightRecorder(limit: .max, keepsValues: true)
    /// The changes this part told, from its state on, and how many were compared.
    private var replayed: [FlightChange] = []
    private var comparedInPart = 0
    /// Whether the part starts with writes waiting.
    private var startsWithWrites = false
    /// Recorded changes compared, in every part.
    public private(set) var compared = 0
    /// The next entry to replay: a replay stopped goes on from there.
    private var position = 0
    /// The number of the last change compared (0 before the first).
    private var lastNumber = 0

    /// A replay of `recording`.
    public init(_ recording: FlightRecording) { self.recording = recording }

    /// Replays the recording, from where the last run stopped, until the
    /// change numbered `until` (0: only the state the recording starts
    /// from), or to its end.
    /// - Parameters:
    ///   - until: The number of the change to stop after (as the recording
    ///     numbers it: a recording whose older changes were let go starts
    ///     past 1); nil for no stop.
    ///   - withinPart: Stop before a new part, keeping the session (a
    ///     replay stepped in one session).
    /// - Returns: the verdict at the first change that differs, or after
    ///   the last (or change `until`, or where the app did what a recording
    ///   does not follow).
    /// - Throws: ``REPLError/recording(_:)`` naming the line of an entry
    ///   that cannot be replayed (data that does not parse under its query,
    ///   a write answered out of order).
    public func run(until: Int? = nil, withinPart: Bool = false) async throws(REPLError) -> ReplayVerdict {
        while position < recording.entries.count {
            let entry = recording.entries[position], line = recording.lines[position]
            // What comes after change `until` waits for the next run; a
            // part's state is part of its header.
            switch entry {
            case .state: break
            case .header where session == nil: break
            default:
                if let until, lastNumber >= until { return .stopped(changes: compared) }
                if withinPart, case .header = entry { return .partEnds(changes: compared) }
            }
            position += 1
            do throws(REPLError) {
                switch entry {
                case .header(let header): try await start(header)
                case .state(let state): try await restore(state)
                case .message(let message):
                    do { try await session?.firebase.replay(message) } catch { throw .database(error) }
                case .write(let write): try makeWrite(write)
                case .outcome(let id, let error): try await answer(id, error)
                case .change(let change):
                    if let verdict = compare(change) { return verdict }
                case .rejected: continue
                case .gap(let what):
                    // Where the replay stays: what follows is not for this session.
                    position -= 1
                    return .gap(changes: compared, what: what)
                }
            } catch {
                throw .recording(FlightRecordingError(line: line, "cannot be replayed: \(error.description)"))
            }
        }
        return .identical(changes: compared)
    }

    /// Refuses the writes still waiting for an answer the recording does
    /// not give (a replay stopped early, or a recording that ends with
    /// writes waiting), so that nothing waits once the replay is done; each
    /// is reverted as a refused write is.
    public func finish() async {
        await answers.refuseWaiting()
        guard let firebase = session?.firebase else { return }
        for id in firebase.pendingWrites { _ = await firebase.outcome(of: id) }
    }

    /// The number of the `n`th change still to replay in this part (nil
    /// when the part has fewer).
    func number(ofChange n: Int) -> Int? {
        var seen = 0
        for entry in recording.entries[position...] {
            switch entry {
            case .header: return nil
            case .change(let change):
                seen += 1
                if seen == n { return change.number }
            default: continue
            }
        }
        return nil
    }

    /// A new session for `header`'s query, sections and load mode.
    private func start(_ header: FlightHeader) async throws(REPLError) {
        recorder.stop()
        session?.stop()
        // Writes of the part before that were never answered go unanswered.
        await answers.refuseWaiting()
        // The options say what `query` prints; the collection takes the
        // recorded query itself (bounds with keys have no option).
        var arguments = ["--order-by", header.query.order.description]
        if case .first(let n)? = header.query.limit { arguments += ["--limit-first", String(n)] }
        if case .last(let n)? = header.query.limit { arguments += ["--limit-last", String(n)] }
        if let sectionBy = header.sectionBy { arguments += ["--section-by", sectionBy.description] }
        let options: QueryOptions
        do { options = try QueryOptions.parse(arguments) } catch {
            throw .invalidQuery(QueryOptions.message(for: error))
        }
        let writes = ReplayAnswers()
        answers = writes
        // A paged part is its window: the recorded query is the one the
        // stream asked for (its limit that of the pages loaded), replayed
        // as it is rather than as its first page.
        let mode: LoadMode = switch header.mode {
        case .paged, .pagedFromEnd: .all
        case .live, .all: header.mode
        }
        let next = try Session(source: .offline, path: header.path.description, options: options, query: header.query,
                               mode: mode, opener: .offline, cache: nil,
                               writer: WriteSender { _, _, _ throws(DatabaseError) in
                                   if let error = await writes.next() { throw error }
                               })
        session = next
        next.replaying = self
        self.header = header
        writeIDs = [:]
        replayed = []
        comparedInPart = 0
        recorder = FlightRecorder(limit: .max, keepsValues: true)
        recorder.onChange = { [weak self] in self?.replayed.append($0) }
        next.attach(recorder)
    }

    /// The state a part starts from: its changes are not compared.
    private func restore(_ state: FlightState) async throws(REPLError) {
        guard let session else { return }
        // The whole value as a first load; only some children as a patch of
        // them, which leaves the view incomplete, as it was.
        let message: FlightMessage? = if state.isComplete {
            .put(path: .root, data: state.value, isWhole: state.isWhole, isCached: false)
        } else if case .object = state.value {
            .patch(path: .root, data: state.value, isWhole: state.isWhole)
        } else {
            nil
        }
        // Writes still waiting were sent before the data that follows the
        // state (and maybe before some of the data folded into it).
        startsWithWrites = !state.pending.isEmpty
        for write in state.pending { try makeWrite(write) }
        if let message {
            do { try await session.firebase.replay(message) } catch { throw .database(error) }
        }
        recorder.close()
        replayed = []
    }

    private func makeWrite(_ write: FlightWrite) throws(REPLError) {
        guard let firebase = session?.firebase else { return }
        do { writeIDs[write.id] = try firebase.write(write.write) } catch { throw .database(error) }
    }

    /// Gives write `id` its recorded outcome, and waits until it is applied.
    private func answer(_ id: Int, _ error: String?) async throws(REPLError) {
        guard let firebase = session?.firebase else { return }
        // Writes are answered in the order they were made.
        guard let replayID = writeIDs[id], firebase.pendingWrites.first == replayID else {
            throw .internalState("write \(id) is answered before it was made, twice, or before an older write")
        }
        await answers.answer(error.map { DatabaseError.permissionDenied($0) })
        _ = await firebase.outcome(of: replayID)
    }

    /// Compares the next replayed change with `recorded`; nil when they agree.
    private func compare(_ recorded: FlightChange) -> ReplayVerdict? {
        recorder.close()
        lastNumber = recorded.number
        compared += 1
        comparedInPart += 1
        if let list = recorded.list, list != recorded.after {
            return .changedOutsideBatch(change: recorded.number, reported: list, told: recorded.after)
        }
        let mine = comparedInPart <= replayed.count ? replayed[comparedInPart - 1] : nil
        if let mine {
            // Sections made by a rule the recording cannot say: their events and rows.
            let same = header?.hasOtherSections == true
                ? mine.events == recorded.events && mine.after.reduce(0, +) == recorded.after.reduce(0, +)
                : mine.tellsSame(as: recorded)
            if same { return nil }
        }
        return .differs(change: recorded.number, recorded: recorded, replayed: mine, startsWithWrites: startsWithWrites)
    }
}

extension Session {
    /// Replays the next `count` recorded changes (nil: the rest) into this
    /// session, within its part of the recording.
    /// - Returns: the verdict's lines.
    func replayNext(_ count: Int?) async throws(REPLError) -> [String] {
        guard let replaying else {
            throw .usage(command: "replay", problem: "this session replays no recording: start live-repl with --replay FILE",
                         usage: usage(of: "replay"))
        }
        return try await replaying.run(until: count.flatMap(replaying.number(ofChange:)), withinPart: true).lines
    }
}

/// The recorded outcomes of writes, given to the replay's writer in order.
actor ReplayAnswers {
    private var waiting: [CheckedContinuation<DatabaseError?, Never>] = []
    private var answers: [DatabaseError?] = []

    /// Whether no more answers come: every write is then refused.
    private var closed = false

    /// The next write's outcome (nil: confirmed), once the replay reaches it.
    func next() async -> DatabaseError? {
        if !answers.isEmpty { return answers.removeFirst() }
        if closed { return .stopped }
        return await withCheckedContinuation { waiting.append($0) }
    }

    /// The next outcome.
    func answer(_ error: DatabaseError?) {
        if waiting.isEmpty { answers.append(error) } else { waiting.removeFirst().resume(returning: error) }
    }

    /// Refuses every write waiting, and every later one (no more answers come).
    func refuseWaiting() {
        closed = true
        for waiter in waiting { waiter.resume(returning: .stopped) }
        waiting.removeAll()
    }
}
