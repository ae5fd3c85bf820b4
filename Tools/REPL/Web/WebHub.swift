// WebHub.swift — the inspector's side of the session: the pages connected,
// what they are told, and the commands they send.

import LiveModel
import LiveREPL

/// Tells every connected page what the session does, on the main actor:
/// - `hello`: the sections and rows now, when a page connects;
/// - `change`: a change line (`--json`) with the sections and rows after it
///   and the change in words, `{"change": …, "show": …, "lines": […]}`;
/// - `output`: a command's line and its `--json` output;
/// - `info`: what `query` and `stats` print, after each of those.
///
/// Sections and rows go as `show --json` prints them (`section`, `keys`),
/// with each row's sort value and summary beside its key (`sort`,
/// `summary`).
/// Commands a page sends run as if typed, in order with standard input.
@MainActor
final class WebHub {
    private let session: Session
    private let run: (String) -> Void
    private var clients: [WebClient] = []

    /// A hub for `session`; `run` queues a command line.
    init(session: Session, run: @escaping (String) -> Void) {
        self.session = session
        self.run = run
    }

    /// A page connected: it gets the sections and rows now.
    func add(_ client: WebClient) {
        clients.append(client)
        client.send(event: "hello", data: show())
        client.send(event: "info", data: info())
        client.channel.closeFuture.whenComplete { _ in
            Task { @MainActor in self.clients.removeAll { $0 === client } }
        }
    }

    /// A page sent a command.
    func command(_ line: String) { run(line) }

    /// The session's collection changed (a command's change, or one from
    /// the server between commands).
    func changed(_ report: ChangeReport) {
        guard !clients.isEmpty, let change = JSONOutput.line(for: .change(report)) else { return }
        let lines = JSONValue.array(HumanOutput(colors: false).change(report).map { .string($0) }).jsonText()
        broadcast("change", #"{"change":"# + change + #","show":"# + show() + #","lines":"# + lines + "}")
        broadcast("info", info())
    }

    /// A command ran, with this output.
    func ran(_ line: String, _ output: String?) {
        guard !clients.isEmpty else { return }
        broadcast("output", #"{"command":"# + JSONValue.string(line).jsonText() + #","output":"# + (output ?? "null") + "}")
        broadcast("info", info())
    }

    /// The sections and rows now, each row with its sort value and summary.
    private func show() -> String {
        JSONValue.object(["sections": .array(session.shownSections().map { section in
            .object([
                "section": section.value,
                "keys": .array(section.rows.map { .string($0.key.string) }),
                "sort": .array(section.rows.map { .string($0.sortValue) }),
                "summary": .array(section.rows.map { .string($0.summary) }),
            ])
        })]).jsonText()
    }

    /// What `query` and `stats` print.
    private func info() -> String {
        let (query, stats) = session.information()
        return JSONValue.object(["query": .array(query.map { .string($0) }), "stats": .array(stats.map { .string($0) })])
            .jsonText()
    }

    private func broadcast(_ event: String, _ data: String) {
        for client in clients { client.send(event: event, data: data) }
    }
}
