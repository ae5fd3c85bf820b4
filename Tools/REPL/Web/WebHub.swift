// WebHub.swift — the inspector's side of the session: the pages connected,
// what they are told, and the commands they send.

import LiveModel
import LiveREPL

/// Tells every connected page what the session does, on the main actor:
/// - `hello`: the sections and their keys now, when a page connects;
/// - `change`: a change line (`--json`), with the keys each stage fills in
///   (`contents`, one per stage), the counts after it, a digest of every
///   key shown after it (`digest`, up to ``digestLimit`` rows; null past
///   it), whether the query or sections changed (`fresh`: every row's sort
///   value may have changed), the rows of the keys inserted (`rows`, up to
///   ``rowsSent``), and the change in words (`lines`);
/// - `output`: a command's line and its `--json` output;
/// - `info`: what `query` and `stats` print, after each of those.
///
/// A page asks for the rows it shows by key (``rows(_:)``); the sort value
/// and summary of a row are `[sort, summary]`, as `show` prints them.
/// Commands a page sends run as if typed, in order with standard input.
@MainActor
final class WebHub {
    private let session: Session
    private let run: (String) -> Void
    private var clients: [WebClient] = []
    /// Pages that connected while a change was being made: greeted once it
    /// is sent, so that a page never gets a change its sections show.
    private var waiting: [WebClient] = []
    /// Whether a command runs (set by the session's loop).
    var busy = false {
        didSet { greetWaiting() }
    }
    /// The query and sections the last change was made under: a change
    /// under others re-sorts rows without reloading them.
    private var lastQuery: [String] = []
    /// Past this many rows, changes carry no digest (it costs O(n)).
    static let digestLimit = 200_000
    /// At most this many inserted rows travel with a change; the page asks
    /// for the others it shows.
    static let rowsSent = 500

    /// A hub for `session`; `run` queues a command line.
    init(session: Session, run: @escaping (String) -> Void) {
        self.session = session
        self.run = run
        session.recordsStageContents = true
        lastQuery = Self.ordering(session.information().query)
    }

    /// A page connected: it gets the sections and their keys, now or, while
    /// a change is being made, once that change is sent.
    func add(_ client: WebClient) {
        waiting.append(client)
        client.channel.closeFuture.whenComplete { _ in
            Task { @MainActor in
                self.clients.removeAll { $0 === client }
                self.waiting.removeAll { $0 === client }
            }
        }
        greetWaiting()
    }

    private func greetWaiting() {
        guard !busy, !session.hasUntakenChanges, !waiting.isEmpty else { return }
        let hello = hello(), info = Self.info(session.information())
        for client in waiting {
            client.send(event: "hello", data: hello)
            client.send(event: "info", data: info)
        }
        clients += waiting
        waiting.removeAll()
    }

    /// A page sent a command.
    func command(_ line: String) { run(line) }

    /// The session's collection changed (a command's change, or one from
    /// the server between commands).
    func changed(_ report: ChangeReport) {
        defer { greetWaiting() }
        // Read once: it reads the process's memory too.
        let information = session.information()
        let query = Self.ordering(information.query)
        let fresh = query != lastQuery
        lastQuery = query
        guard !clients.isEmpty, let change = JSONOutput.line(for: .change(report)) else { return }
        let lines = JSONValue.array(HumanOutput(colors: false).change(report).map { .string($0) }).jsonText()
        let contents = JSONValue.array(report.stages.map { $0.contents.map(Self.json) ?? .null }).jsonText()
        let counts = session.shownCounts
        let digest = counts.reduce(0, +) <= Self.digestLimit ? JSONValue.string(Self.digest(session.sectionKeys())) : .null
        let inserted = report.stages.lazy.flatMap { $0.contents?.insertedRows ?? [] }.prefix(Self.rowsSent)
        broadcast("change", #"{"change":"# + change + #","contents":"# + contents
                  + #","counts":"# + JSONValue.array(counts.map { .number(Double($0)) }).jsonText()
                  + #","digest":"# + digest.jsonText() + #","fresh":"# + (fresh ? "true" : "false")
                  + #","rows":"# + rowsObject(Array(inserted)) + #","lines":"# + lines + "}")
        broadcast("info", Self.info(information))
    }

    /// A command ran, with this output.
    func ran(_ line: String, _ output: String?) {
        defer { greetWaiting() }
        guard !clients.isEmpty else { return }
        broadcast("output", #"{"command":"# + JSONValue.string(line).jsonText() + #","output":"# + (output ?? "null") + "}")
        broadcast("info", Self.info(session.information()))
    }

    /// The rows of `keys`, as a JSON object from key to `[sort, summary]`
    /// (keys the collection does not hold, or that are not keys, are left out).
    /// - Complexity: O(k log n).
    func rows(_ keys: [String]) -> String {
        rowsObject(keys.compactMap { try? Key($0) })
    }

    private func rowsObject(_ keys: [Key]) -> String {
        var members = JSONObject()
        for case let row? in session.rows(for: keys) {
            members[row.key.string] = .array([.string(row.sortValue), .string(row.summary)])
        }
        return JSONValue.object(members).jsonText()
    }

    /// The sections and their keys now.
    private func hello() -> String {
        let sections = session.sectionKeys()
        return JSONValue.object([
            "sections": .array(sections.map(Self.json)),
            "digest": .string(Self.digest(sections)),
        ]).jsonText()
    }

    private static func json(_ section: SectionKeys) -> JSONValue {
        .object(["section": section.value, "keys": .array(section.keys.map { .string($0.string) })])
    }

    private static func json(_ contents: StageContents) -> JSONValue {
        .object([
            "rows": .array(contents.insertedRows.map { .string($0.string) }),
            "sections": .array(contents.insertedSections.map(json)),
            "reloaded": .array(contents.reloadedSections.map(json)),
        ])
    }

    /// FNV-1a (32 bits) over every key's UTF-16 code units, each key
    /// followed by 0x10000 and each section by 0x20000: the page computes
    /// the same over the keys it holds.
    static func digest(_ sections: [SectionKeys]) -> String {
        var hash: UInt32 = 2_166_136_261
        func mix(_ value: UInt32) { hash = (hash ^ value) &* 16_777_619 }
        for section in sections {
            for key in section.keys {
                for unit in key.string.utf16 { mix(UInt32(unit)) }
                mix(0x1_0000)
            }
            mix(0x2_0000)
        }
        return String(hash, radix: 16)
    }

    /// The lines of `query` that say how rows are ordered, filtered and
    /// sectioned.
    private static func ordering(_ query: [String]) -> [String] {
        query.filter { $0.hasPrefix("query:") || $0.hasPrefix("where:") || $0.hasPrefix("sections:") }
    }

    /// What `query` and `stats` print, as the `info` event.
    private static func info(_ information: (query: [String], stats: [String])) -> String {
        let (query, stats) = information
        return JSONValue.object(["query": .array(query.map { .string($0) }), "stats": .array(stats.map { .string($0) })])
            .jsonText()
    }

    private func broadcast(_ event: String, _ data: String) {
        for client in clients { client.send(event: event, data: data) }
    }
}
