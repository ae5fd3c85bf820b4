// REPLMain.swift — `live-repl`: inject events by hand, watch the sorted,
// sectioned collection and the exact batches a list view would get.

import ArgumentParser
import Foundation
import LiveFirebase
import LiveModel
import LiveREPL
import LiveServer
import Logging

@main
struct LiveREPLMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live-repl",
        abstract: "Watch what LiveCollection does with a stream of events.",
        discussion: """
            With no options, starts an embedded LiveServer on a free loopback port and listens to --path on it. \
            --url connects to any Realtime Database instead; --offline uses no server, only injected events. \
            Type `help` for the commands. When standard input is not a terminal, reads commands to the end \
            of input and exits 0 if every command succeeded, 1 otherwise.
            """,
        version: PackageVersion.current)

    @Option(help: "The location to listen to.")
    var path = "/items"

    @Option(help: "Load N sample children first (embedded server or --offline only).")
    var sample = 0

    @Option(help: "A Realtime Database URL (a Firebase database, or a live-server) instead of the embedded server.")
    var url: String?

    @Option(help: "A Firebase ID token, sent as auth= (with --url).")
    var auth: String?

    @Flag(help: "No server: only injected events feed the collection.")
    var offline = false

    @Option(help: "Keep the collection's children in this directory between runs, and start from them: they show at once, marked cached, until the server's value replaces them.")
    var cache: String?

    @Option(help: "Whose data the cache keeps (the signed-in user's id): needed with --cache and --auth, so that one user's children and queued writes never reach another.")
    var cacheScope: String?

    @Flag(help: "Print one JSON object per line (the contract in docs/REPL.md).")
    var json = false

    @Flag(help: "Also serve the session as a page on loopback (its address goes to standard error): the sections as a list view shows them, each change applied as it comes, and a box for commands.")
    var web = false

    @Option(help: "The inspector page's port (0 picks a free one).")
    var webPort = 0

    @Option(help: "Write the inspector's address, with its token, to this file (made readable by you alone) rather than to standard error. Without it, the address goes to standard error only when that is a terminal, else to a new private file that standard error names.")
    var webAddressFile: String?

    @Option(help: "Log level of the library's messages on standard error (trace … critical).")
    var logLevel: Logger.Level = .error

    @Option(help: "Record what the collection is given and what it tells into this file (JSON lines, written after each command); replay it with --replay.")
    var record: String?

    @Option(help: "The most bytes of entries --record keeps; the oldest go first.")
    var recordLimit = 1 << 20

    @Flag(help: "With --record, keep every value, not only keys, sort values and section values.")
    var recordValues = false

    @Option(help: "Replay a recording (from --record, record or a FlightRecorder): say whether this version tells each change the same, then go on with the collection as it stands, offline. With --web, it stops at the state the recording starts from (--until 0): the command replay N goes on, each change drawn in the page stage by stage.")
    var replay: String?

    @Option(help: "With --replay, stop after change N (0: at the state the recording starts from); the command replay N goes on.")
    var until: Int?

    @OptionGroup(title: "Query and sections")
    var query: QueryOptions

    func validate() throws {
        if offline, url != nil { throw ValidationError("--offline and --url exclude each other") }
        if auth != nil, url == nil { throw ValidationError("--auth goes with --url") }
        if sample < 0 { throw ValidationError("--sample must be 0 or more") }
        if !(0...65535).contains(webPort) { throw ValidationError("--web-port must be a port, 0 to 65535") }
        if cache != nil, offline { throw ValidationError("--cache keeps what a server sent; --offline has no server") }
        if cache != nil, auth != nil, (cacheScope ?? "").isEmpty {
            throw ValidationError("--cache with --auth needs --cache-scope (the signed-in user's id)")
        }
        if cacheScope != nil, cache == nil { throw ValidationError("--cache-scope goes with --cache") }
        if replay != nil {
            if url != nil || cache != nil || sample > 0 || record != nil || query.isDefault == false {
                throw ValidationError("--replay takes its location, query and sections from the recording; it excludes --url, --cache, --sample, --record and query options")
            }
        }
        if until != nil, replay == nil { throw ValidationError("--until goes with --replay") }
        if let until, until < 0 { throw ValidationError("--until must be a change number, or 0 for the state the recording starts from") }
        if recordLimit < 1024 { throw ValidationError("--record-limit must be at least 1024 bytes") }
        if record != nil, !query.conditions.isEmpty {
            throw ValidationError("--record cannot keep --where conditions (a replay would not apply them); record without them")
        }
        if sample > 0, url != nil {
            throw ValidationError("--sample writes sample data; it is for the embedded server and --offline, not --url")
        }
        do {
            _ = try query.query()
            _ = try query.sectionPath()
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() async throws {
        // A recording written past the file size limit (`ulimit -f`) fails
        // with EFBIG, said at the end, instead of killing the session.
        signal(SIGXFSZ, SIG_IGN)
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let code = try await REPLRunner(options: self).run()
        if code != 0 { throw ExitCode(code) }
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument {}
