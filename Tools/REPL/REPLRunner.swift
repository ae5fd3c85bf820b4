// REPLRunner.swift — the read-run-print loop around a Session.

import Foundation
import LiveFirebase
import LiveModel
import LiveREPL
import LiveServer

/// Starts the data source and the session, then runs one command per line
/// until `quit` or the end of input.
@MainActor
struct REPLRunner {
    let options: LiveREPLMain

    /// Runs the session; returns the exit code (0 when every command
    /// succeeded, 1 otherwise).
    func run() async throws -> Int32 {
        var server: LiveServer?
        let source: SessionSource
        if options.offline || options.replay != nil {
            source = .offline
        } else if let url = options.url {
            source = .database(url: url, auth: options.auth)
        } else {
            let started = try await LiveServer.start()
            server = started
            source = .database(url: started.url, auth: nil)
            if options.sample > 0 {
                let client = DatabaseClient(try DatabaseReference(url: started.url, path: options.path))
                try await client.set(sampleChildren(options.sample))
            }
        }
        let code: Int32
        do {
            code = try await loop(source: source, server: server)
        } catch {
            try? await server?.shutdown()
            throw error
        }
        try? await server?.shutdown()
        return code
    }

    private func loop(source: SessionSource, server: LiveServer?) async throws -> Int32 {
        let reader = LineReader(prompt: "live> ")
        defer { reader.close() }
        let printer = Printer(json: options.json, colors: !options.json && isatty(STDOUT_FILENO) == 1
                                && ProcessInfo.processInfo.environment["NO_COLOR"] == nil,
                              echo: !options.json && !reader.interactive, reader: reader)
        let session: Session
        // On a terminal, a long first load shows its progress in place.
        let progress = ProgressLine(human: printer.human,
                                    enabled: reader.interactive && !options.json && isatty(STDOUT_FILENO) == 1)
        var failed = false
        var replaying: FlightReplay?
        if let file = options.replay {
            do throws(REPLError) {
                let replay = FlightReplay(try Self.read(file))
                replaying = replay
                // In the inspector, the replay is stepped from the page (replay N).
                let verdict = try await replay.run(until: options.until ?? (options.web ? 0 : nil))
                printer.print(.text(verdict.lines))
                switch verdict {
                case .identical, .stopped, .gap, .partEnds: break
                case .differs, .changedOutsideBatch: failed = true
                }
                guard let replayed = replay.session else { throw REPLError.internalState("the replay made no session") }
                // What the replay told is in the verdict, not printed again.
                _ = replayed.takeUnsolicited()
                session = replayed
            } catch {
                printer.startupFailure(error)
                return 1
            }
        } else { do {
            session = try Session(source: source, path: options.path, options: options.query,
                                  cache: options.cache.map { CollectionCache(directory: $0, scope: options.cacheScope ?? "") })
            session.onProgress = { progress.show($0) }
            defer { progress.finish(session.initialLoad) }
            try await session.start()
            if options.offline, options.sample > 0 {
                let value = sampleChildren(options.sample)
                _ = try await session.run(.put(.root, value, json: value.jsonText()))
            }
            if let file = options.record {
                try session.startRecording(to: URL(fileURLWithPath: file), limit: options.recordLimit,
                                           keepsValues: options.recordValues)
            }
        } catch {
            printer.startupFailure(error)
            return 1
        } }
        defer { session.stop() }
        if reader.interactive {
            printer.banner(source: source, server: server, path: options.path, session: session)
        }
        if let problem = session.writeQueueProblem {
            printer.print(.text(["warning: \(problem)"]))
        }
        // The inspector page: what the session does, and commands in.
        var hub: WebHub?
        var web: WebServer?
        if options.web {
            let made = WebHub(session: session) { [reader] line in reader.inject(line) }
            do {
                web = try await WebServer.start(port: options.webPort, hub: made)
            } catch {
                printer.startupFailure(.usage(command: "--web", problem: "cannot listen on 127.0.0.1:\(options.webPort): \(error)",
                                              usage: "--web [--web-port N]"))
                return 1
            }
            hub = made
            if let web { announce(web) }
        }
        let live = LiveChanges(session: session, printer: printer, hub: hub)
        session.onChange = { live.changed() }
        defer { session.onChange = nil }
        live.flush()
        reader.prompt()
        for await line in reader.lines {
            live.flush()
            printer.echo(line)
            do {
                let command = try CommandParser.parse(line)
                if command == .quit { break }
                // While a command that changes the collection runs, what
                // arrives is its own change; otherwise changes print as
                // they come (a sync waits for them).
                live.paused = command.changesCollection
                defer { live.paused = false }
                // Pages that connect meanwhile are greeted once its change is
                // sent (other commands let changes through as they come).
                hub?.busy = command.changesCollection
                let output = try await session.run(command)
                live.paused = false
                live.flush()
                printer.print(output)
                switch output {
                case .change(let report), .replayed(let report, _): hub?.changed(report)
                default: break
                }
                hub?.busy = false
                hub?.ran(line, JSONOutput.line(for: output))
                await session.saveRecording()
            } catch {
                failed = true
                live.flush()
                printer.error(error)
                hub?.busy = false
                hub?.ran(line, JSONOutput.error(error))
            }
            reader.prompt()
        }
        web?.stopAccepting()
        // The writes made are answered before the session ends (a replay's
        // are answered by its recording, or never: nothing to wait for).
        if options.replay == nil, !(await session.finishWrites(seconds: session.writeTimeout)) {
            if session.keepsWrites {
                printer.print(.text(["writes \(session.pendingWrites) are kept in the cache and sent at the next start"]))
            } else {
                failed = true
            printer.error(.outOfSync(command: "quit", seconds: session.writeTimeout,
                                     detail: "writes still pending: \(session.pendingWrites)"))
            }
        }
        live.flush()
        await web?.stop()
        // What the server confirmed is kept for the next start (--cache).
        do { try await session.saveCache() } catch {
            failed = true
            printer.error(error)
        }
        do { try session.finishRecording() } catch {
            failed = true
            printer.error(error)
        }
        // A replay's writes the recording never answered: refused, so that
        // nothing waits (the session is over: not printed).
        if let replaying {
            session.onChange = nil
            await replaying.finish()
            _ = session.takeUnsolicited()
        }
        return failed && !reader.interactive ? 1 : 0
    }
}

extension REPLRunner {
    /// The recording in `file`.
    static func read(_ file: String) throws(REPLError) -> FlightRecording {
        do { return try FlightRecording(contentsOf: URL(fileURLWithPath: file)) } catch { throw .recording(error) }
    }
}

/// Prints what the server changes while no command is running, as soon as
/// it is applied: changes are gathered by the session, and printed once the
/// stream's update is complete (in a task of its own on the main actor).
@MainActor
final class LiveChanges {
    let session: Session
    let printer: Printer
    /// The inspector's pages, told too.
    let hub: WebHub?
    /// While true, changes stay with the session (a command takes them).
    var paused = false
    private var scheduled = false

    init(session: Session, printer: Printer, hub: WebHub? = nil) {
        self.session = session
        self.printer = printer
        self.hub = hub
    }

    /// The session gathered a change.
    func changed() {
        guard !paused, !scheduled else { return }
        scheduled = true
        Task { @MainActor in
            self.scheduled = false
            if !self.paused { self.flush() }
        }
    }

    /// Prints what the session gathered since the last command, if anything.
    func flush() {
        let between = session.takeUnsolicited()
        guard !between.isEmpty else { return }
        printer.between(between)
        hub?.changed(between)
    }
}

/// The progress of a long first load, on one line redrawn in place, then
/// replaced by what the load took.
@MainActor
final class ProgressLine {
    let human: HumanOutput
    let enabled: Bool
    private var shown = false

    init(human: HumanOutput, enabled: Bool) {
        self.human = human
        self.enabled = enabled
    }

    /// Redraws the line; a load that arrives whole at once shows nothing.
    func show(_ progress: LoadProgress) {
        guard enabled, shown || !progress.isComplete else { return }
        shown = true
        write("\r\u{1B}[K" + human.progress(progress))
    }

    /// Replaces the line (if shown) with what the load took.
    func finish(_ load: InitialLoad?) {
        guard shown else { return }
        shown = false
        write("\r\u{1B}[K" + (load.map(human.loaded) ?? "") + "\n")
    }

    private func write(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
}

/// Prints outputs and errors, human or `--json`, unbuffered.
@MainActor
struct Printer {
    let json: Bool
    let human: HumanOutput
    let echo: Bool
    let reader: LineReader

    init(json: Bool, colors: Bool, echo: Bool, reader: LineReader) {
        self.json = json
        human = HumanOutput(colors: colors)
        self.echo = echo
        self.reader = reader
    }

    /// Writes whole lines, above the prompt when it is on screen.
    private func emit(_ lines: [String]) {
        var text = ""
        for line in lines { text += line + "\n" }
        reader.printAbove(text)
    }

    func echo(_ line: String) {
        if echo, !line.trimmingCharacters(in: .whitespaces).isEmpty { emit(["> " + line]) }
    }

    func print(_ output: CommandOutput) {
        if json {
            if let line = JSONOutput.line(for: output) { emit([line]) }
        } else {
            emit(human.lines(for: output))
        }
    }

    func between(_ report: ChangeReport) {
        emit(json ? [JSONOutput.between(report)] : ["(from the server)"] + human.change(report))
    }

    func error(_ error: REPLError) {
        emit([json ? JSONOutput.error(error) : human.error(error)])
    }

    func startupFailure(_ error: REPLError) {
        FileHandle.standardError.write(Data(("live-repl: " + error.description + "\n").utf8))
    }

    func banner(source: SessionSource, server: LiveServer?, path: String, session: Session) {
        var where_: String
        switch source {
        case .offline: where_ = "offline (only injected events)"
        case .database(let url, _): where_ = url + (server != nil ? " (embedded LiveServer)" : "")
        }
        emit(["live-repl: listening to \(path) on \(where_); \(session.childCount) children loaded. Type help for the commands."])
    }
}
