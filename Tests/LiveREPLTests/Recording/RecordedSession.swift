// RecordedSession.swift — a seeded random session of server messages,
// local writes and reconnects, recorded as it runs.

import Foundation
import LiveFirebase
import LiveModel
import LiveSections
import LiveTestSupport
@testable import LiveREPL

/// A session fed by a seeded random sequence of stream messages (puts and
/// patches, deep and whole, injected or as a server sends them), local
/// writes answered in order (confirmed or refused) and reconnects with a
/// resync, recorded by a ``FlightRecorder``.
@MainActor
final class RecordedSession {
    let session: Session
    let recorder: FlightRecorder
    private let answers = ReplayAnswers()
    private var random: SplitMix64
    /// What the server holds, as the messages sent so far say.
    private var server: JSONValue = .null
    /// Every key a step may pick: numeric-looking, negative, Unicode
    /// spellings of one name (NFC and NFD), and plain ones.
    static let keys = ["1", "2", "10", "-1", "007", "a", "b", "caf\u{E9}", "cafe\u{301}", "Z", "zz", "k1"]

    /// Whether steps change the query and sections (each a new part of the recording).
    var queries = false
    /// The query changes made.
    private(set) var queryChanges = 0
    /// The changes whose recorded counts after are not the list's.
    private(set) var miscounted: [String] = []
    /// The writes made and not answered, oldest first.
    private var written: [DatabaseWrite] = []
    /// Whether each write is answered in the step that makes it.
    private let promptOutcomes: Bool
    /// Named by an error a step throws.
    private let seed: TestSeed

    init(seed: TestSeed, sections: Bool, limit: Int = 1 << 20, keepsValues: Bool = false,
         order: String = "score", promptOutcomes: Bool = false) throws {
        self.promptOutcomes = promptOutcomes
        self.seed = seed
        random = seed.generator
        var arguments = ["--order-by", order]
        if sections { arguments += ["--section-by", "team"] }
        let writes = answers
        session = try Session(source: .offline, path: "/items", options: try QueryOptions.parse(arguments), query: nil,
                              mode: .all, opener: .offline, cache: nil,
                              writer: WriteSender { _, _, _ throws(DatabaseError) in
                                  if let error = await writes.next() { throw error }
                              })
        recorder = FlightRecorder(limit: limit, keepsValues: keepsValues)
    }

    var firebase: FirebaseCollection<REPLDataSource> { session.firebase }

    /// Runs `steps` random steps, recording from the first step, or from
    /// after a first load when `recordAfterLoad`.
    func run(steps: Int, recordAfterLoad: Bool, observeFirst: Bool = false) async throws {
        var early: [ObservationToken] = []
        if observeFirst { early = [firebase.observeChildEvents { _ in }, firebase.observeValue { }] }
        _ = early
        if recordAfterLoad {
            try await send(.put(path: .root, data: randomLocation(), isWhole: false, isCached: false))
        }
        session.startRecording(into: recorder)
        recorder.onChange = { [unowned self] change in
            // The counts after are read for the sections the stages touch: every section's must agree.
            let shown = session.shownSections().map(\.rows.count)
            if change.after != shown && !(shown.isEmpty && change.after.allSatisfy { $0 == 0 }) {
                miscounted.append("change \(change.number): recorded \(change.after), shown \(shown)")
            }
        }
        for n in 0..<steps {
            do { try await step() } catch { throw REPLTestError("\(seed): step \(n + 1): \(error)") }
        }
        // Every write answered, so that nothing waits.
        while !firebase.pendingWrites.isEmpty { await answerOldest() }
        recorder.close()
    }

    /// The recording, as a file holds it.
    func recording() throws -> FlightRecording { try FlightRecording(jsonLines: recorder.jsonLines()) }

    private func step() async throws {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<30:
            let key = pick()
            try await send(.put(path: try DatabasePath(key), data: randomChild(), isWhole: bool(), isCached: false))
        case 30..<45:
            let key = pick()
            try await send(.put(path: try DatabasePath(key + "/score"), data: randomScore(), isWhole: bool(), isCached: false))
        case 45..<55:
            try await send(.put(path: try DatabasePath(pick()), data: .null, isWhole: bool(), isCached: false))
        case 55..<65:
            // Members on distinct children: a server never sends a patch
            // of which one path holds another.
            var members = JSONObject()
            var touched = Set<[UInt8]>()
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let key = pick()
                guard touched.insert(Array(key.utf8)).inserted else { continue }
                members[bool() ? key : key + "/team"] = bool() ? randomChild() : randomTeam()
            }
            try await send(.patch(path: .root, data: .object(members), isWhole: bool()))
        case 65..<80:
            let path = try DatabasePath(pick())
            let write: DatabaseWrite = switch Int.random(in: 0..<3, using: &random) {
            case 0: .set(path, randomChild())
            case 1: .update(.root, [try path.child("score"): randomScore()])
            default: .remove(path)
            }
            _ = try firebase.write(write)
            written.append(write)
            if promptOutcomes { await answerOldest() }
        case 80..<92:
            if !firebase.pendingWrites.isEmpty { await answerOldest() }
        case 97..<100 where queries:
            // A new query or sections: a new part of the recording. The
            // writes waiting are answered first.
            while !firebase.pendingWrites.isEmpty { await answerOldest() }
            var arguments = ["--order-by", ["score", "team", "$key", "$value"][Int.random(in: 0..<4, using: &random)]]
            if bool() { arguments += ["--section-by", "team"] }
            if Int.random(in: 0..<3, using: &random) == 0 {
                // Pages from the end take no limitToFirst (refused, as it should be).
                let fromEnd = if case .pagedFromEnd = session.mode { true } else { false }
                arguments += [bool() && !fromEnd ? "--limit-first" : "--limit-last", "4"]
            }
            // The new collection loads what the server holds now.
            session.offlineValue = server
            switch Int.random(in: 0..<7, using: &random) {
            case 0:
                _ = try await session.run(.load(.live))
                queryChanges += 1
            case 1:
                _ = try await session.run(.load(.all))
                queryChanges += 1
            case 2:
                _ = try await session.run(.load(.page(4)))
                queryChanges += 1
            case 3:
                let paged = if case .paged = session.mode { true } else { false }
                try await turnPage(.next, inMode: paged, otherwise: .page(4))
            case 4:
                let fromEnd = if case .pagedFromEnd = session.mode { true } else { false }
                try await turnPage(.older, inMode: fromEnd, otherwise: .last(4))
            default:
                _ = try await session.run(.query(try QueryOptions.parse(arguments)))
                queryChanges += 1
            }
        default:
            // A reconnect: the server's whole value again, changed meanwhile.
            try await firebase.replay(.disconnected(reason: "connection reset"))
            try await firebase.replay(.connected)
            var value = server
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                value = value.replacing([try Key(pick())][...], with: bool() ? randomChild() : .null)
            }
            try await send(.put(path: .root, data: value, isWhole: false, isCached: false))
        }
    }

    /// The page after those loaded (`turn`) when the session is in that
    /// mode, otherwise its first page (`start`): a new part of the
    /// recording, unless every page was in already (then the next is nothing).
    private func turnPage(_ turn: Command.LoadRequest, inMode: Bool, otherwise start: Command.LoadRequest) async throws {
        if inMode {
            let more = firebase.hasMorePages
            _ = try await session.run(.load(turn))
            if more { queryChanges += 1 }
            return
        }
        do {
            _ = try await session.run(.load(start))
        } catch {
            // Pages from the end are refused, as they should be, under a
            // limitToFirst query (the recording starts a new part all the same).
            let message: String = error.description
            guard message.contains("pages from the end need a query without limitToFirst") else { throw error }
        }
        queryChanges += 1
    }

    /// Answers the oldest write waiting: refused, or taken, its echo sent
    /// on the stream first, as a server does.
    private func answerOldest() async {
        guard let id = firebase.pendingWrites.first, !written.isEmpty else { return }
        let write = written.removeFirst()
        if Int.random(in: 0..<4, using: &random) == 0 {
            await answers.answer(.permissionDenied("refused by a rule"))
        } else {
            switch write {
            case .set(let path, let value, _): try? await send(.put(path: path, data: value, isWhole: false, isCached: false))
            case .remove(let path, _): try? await send(.put(path: path, data: .null, isWhole: false, isCached: false))
            case .update(let path, let values):
                let members = JSONObject(uniqueKeysWithValues: values.map { ($0.key.relativeText, $0.value) })
                try? await send(.patch(path: path, data: .object(members), isWhole: false))
            }
            await answers.answer(nil)
        }
        _ = await firebase.outcome(of: id)
    }

    private func send(_ message: FlightMessage) async throws {
        switch message {
        case .put(let path, let data, _, _): server = server.replacing(path.keys[...], with: data)
        case .patch(let path, .object(let members), _):
            for (name, member) in members {
                server = server.replacing(try path.appending(try DatabasePath(name)).keys[...], with: member)
            }
        default: break
        }
        try await firebase.replay(message)
    }

    private func pick() -> String { Self.keys[Int.random(in: 0..<Self.keys.count, using: &random)] }
    private func bool() -> Bool { Bool.random(using: &random) }

    private func randomScore() -> JSONValue {
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return .null
        case 1: return .bool(bool())
        case 2: return .string(["a", "B", "10", "-3"][Int.random(in: 0..<4, using: &random)])
        default: return .number(Double(Int.random(in: -3...6, using: &random)) / (bool() ? 1 : 2))
        }
    }

    private func randomTeam() -> JSONValue {
        [.string("red"), .string("blue"), .null, .number(2)][Int.random(in: 0..<4, using: &random)]
    }

    private func randomChild() -> JSONValue {
        var members = JSONObject()
        let score = randomScore(), team = randomTeam()
        if !score.isNull { members["score"] = score }
        if !team.isNull { members["team"] = team }
        members["name"] = .string("player \(Int.random(in: 0..<5, using: &random))")
        return .object(members)
    }

    private func randomLocation() -> JSONValue {
        var members = JSONObject()
        for key in Self.keys where bool() { members[key] = randomChild() }
        return members.isEmpty ? .null : .object(members)
    }
}
