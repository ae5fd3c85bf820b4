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
    /// The replay stopped after change `changes` (`--until`), all the same so far.
    case stopped(changes: Int)
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
        case .stopped(let n): return ["replayed \(n) changes, identical so far; stopped (--until \(n))"]
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
    /// The session the replay feeds; after ``run(until:)``, its state.
    public private(set) var session: Session?
    private let answers = ReplayAnswers()
    /// Recorded write numbers, and the replay's.
    private var writeIDs: [Int: Int] = [:]
    private var recorder = FlightRecorder(limit: .max, keepsValues: true)
    /// Recorded changes compared, and replayed changes before the part being replayed.
    private var compared = 0
    private var skipped = 0
    /// Whether the part being replayed starts with writes waiting.
    private var startsWithWrites = false

    /// A replay of `recording`.
    public init(_ recording: FlightRecording) { self.recording = recording }

    /// Replays the recording, up to change `until` if given.
    /// - Returns: the verdict at the first change that differs, or after
    ///   the last (or change `until`).
    /// - Throws: ``REPLError`` when the recording cannot be replayed (data
    ///   that does not parse under its query).
    public func run(until: Int? = nil) async throws(REPLError) -> ReplayVerdict {
        for entry in recording.entries {
            switch entry {
            case .header(let header): try start(header)
            case .state(let state): try await restore(state)
            case .message(let message):
                do { try await session?.firebase.replay(message) } catch { throw .database(error) }
            case .write(let write): try makeWrite(write)
            case .outcome(let id, let error):
                guard let firebase = session?.firebase else { continue }
                // Writes are answered in the order they were made.
                guard let replayID = writeIDs[id], firebase.pendingWrites.first == replayID else {
                    throw .recording(FlightRecordingError(line: 0, "write \(id) is answered before it was made, twice, or before an older write"))
                }
                await answers.answer(error.map { DatabaseError.permissionDenied($0) })
                _ = await firebase.outcome(of: replayID)
            case .change(let change):
                if let verdict = compare(change) { return verdict }
                if let until, compared >= until { return .stopped(changes: compared) }
            case .rejected: continue
            }
        }
        return .identical(changes: compared)
    }

    /// A new session for `header`'s query and sections.
    private func start(_ header: FlightHeader) throws(REPLError) {
        recorder.close()
        session?.stop()
        // The options say what `query` prints; the collection takes the
        // recorded query itself (bounds with keys have no option).
        var arguments: [String] = ["--order-by"]
        switch header.query.order {
        case .key: arguments.append("$key")
        case .value: arguments.append("$value")
        case .priority: arguments.append("$priority")
        case .child(let path): arguments.append(path.description)
        }
        if case .first(let n)? = header.query.limit { arguments += ["--limit-first", String(n)] }
        if case .last(let n)? = header.query.limit { arguments += ["--limit-last", String(n)] }
        if let sectionBy = header.sectionBy { arguments += ["--section-by", sectionBy.description] }
        let options: QueryOptions
        do { options = try QueryOptions.parse(arguments) } catch {
            throw .recording(FlightRecordingError(line: 0, "the recording's query: \(QueryOptions.message(for: error))"))
        }
        let writes = answers
        let next = try Session(source: .offline, path: header.path.description, options: options, query: header.query,
                               mode: .all, opener: .offline, cache: nil,
                               writer: WriteSender { _, _, _ throws(DatabaseError) in
                                   if let error = await writes.next() { throw error }
                               })
        session = next
        writeIDs = [:]
        recorder = FlightRecorder(limit: .max, keepsValues: true)
        next.attach(recorder)
    }

    /// The state a part starts from: its changes are not compared.
    private func restore(_ state: FlightState) async throws(REPLError) {
        guard let session else { return }
        // The whole value as a first load; only some children as a patch of
        // them, which leaves the view incomplete, as it was.
        let message: FlightMessage? = if state.isComplete {
            .put(path: .root, data: state.value, isWhole: false, isCached: false)
        } else if case .object = state.value {
            .patch(path: .root, data: state.value, isWhole: false)
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
        skipped = replayedChanges.count
    }

    private func makeWrite(_ write: FlightWrite) throws(REPLError) {
        guard let firebase = session?.firebase else { return }
        do { writeIDs[write.id] = try firebase.write(write.write) } catch { throw .database(error) }
    }

    private var replayedChanges: [FlightChange] {
        recorder.entries.compactMap { if case .change(let c) = $0 { return c } else { return nil } }
    }

    /// Compares the next replayed change with `recorded`; nil when they agree.
    private func compare(_ recorded: FlightChange) -> ReplayVerdict? {
        recorder.close()
        compared += 1
        if let list = recorded.list, list != recorded.after {
            return .changedOutsideBatch(change: recorded.number, reported: list, told: recorded.after)
        }
        let replayed = replayedChanges.dropFirst(skipped)
        let index = replayed.startIndex + (compared - 1)
        let mine = index < replayed.endIndex ? replayed[index] : nil
        if let mine, mine.tellsSame(as: recorded) { return nil }
        return .differs(change: recorded.number, recorded: recorded, replayed: mine, startsWithWrites: startsWithWrites)
    }
}

/// The recorded outcomes of writes, given to the replay's writer in order.
actor ReplayAnswers {
    private var waiting: [CheckedContinuation<DatabaseError?, Never>] = []
    private var answers: [DatabaseError?] = []

    /// The next write's outcome (nil: confirmed), once the replay reaches it.
    func next() async -> DatabaseError? {
        if !answers.isEmpty { return answers.removeFirst() }
        return await withCheckedContinuation { waiting.append($0) }
    }

    /// The next outcome.
    func answer(_ error: DatabaseError?) {
        if waiting.isEmpty { answers.append(error) } else { waiting.removeFirst().resume(returning: error) }
    }
}
