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
    /// Before change `change`, the list's data source reported `reported`
    /// rows while the collection had told `told`: the app changed the
    /// list's data outside a batch.
    case changedOutsideBatch(change: Int, reported: [Int], told: [Int])
    /// Change `change` was told differently: a defect in LiveCollection.
    case differs(change: Int, recorded: FlightChange, replayed: FlightChange?)

    /// The verdict in a few lines, as `live-repl --replay` prints it.
    public var lines: [String] {
        switch self {
        case .identical(let n): return ["replayed \(n) changes, identical"]
        case .stopped(let n): return ["replayed \(n) changes, identical so far; stopped (--until \(n))"]
        case .changedOutsideBatch(let n, let reported, let told):
            return ["change \(n): the list's data source reported counts \(reported) before it, but the collection had told \(told):",
                    "the app changed the list's data outside a batch before change \(n) (not a defect of LiveCollection)"]
        case .differs(let n, let recorded, let replayed):
            var lines = ["change \(n) differs: a defect in LiveCollection; file the recording with this output"]
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
            case .state(let value, let pending): try await restore(value, pending)
            case .message(let message):
                do { try await session?.firebase.replay(message) } catch { throw .database(error) }
            case .write(let write): try makeWrite(write)
            case .outcome(let id, let error):
                guard let replayID = writeIDs[id], let firebase = session?.firebase else { continue }
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
    private func restore(_ value: JSONValue?, _ pending: [FlightWrite]) async throws(REPLError) {
        guard let session else { return }
        if let value {
            do { try await session.firebase.replay(.put(path: .root, data: value, isWhole: false, isCached: false)) } catch {
                throw .database(error)
            }
        }
        for write in pending { try makeWrite(write) }
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
        if let list = recorded.list, list != recorded.before {
            return .changedOutsideBatch(change: recorded.number, reported: list, told: recorded.before)
        }
        let replayed = replayedChanges.dropFirst(skipped)
        let index = replayed.startIndex + (compared - 1)
        guard index < replayed.endIndex else { return .differs(change: recorded.number, recorded: recorded, replayed: nil) }
        let mine = replayed[index]
        return mine.tellsSame(as: recorded) ? nil : .differs(change: recorded.number, recorded: recorded, replayed: mine)
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
