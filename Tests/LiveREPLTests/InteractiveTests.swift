// InteractiveTests.swift — live-repl in a real terminal (tmux): the banner,
// typed commands, line editing, history, colours, quit.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LiveFirebase
import LiveServer
import LiveTestSupport
import Testing

@Suite("live-repl in a terminal (tmux)")
struct InteractiveTests {
    /// A tmux server of its own, with one window running a command. Each
    /// step runs tmux and waits for it, off the cooperative pool.
    struct Terminal: Sendable {
        let socket = "live-repl-test-\(getpid())-\(UInt32.random(in: 0..<UInt32.max))"

        /// Runs a tmux command and returns its output. Spawned and reaped
        /// directly (posix_spawn, waitpid): the tmux server that the first
        /// command starts inherits what Foundation's Process watches.
        @discardableResult
        func tmux(_ arguments: [String]) async throws -> String {
            try await offThePool { try tmuxBlocking(arguments) }
        }

        private func tmuxBlocking(_ arguments: [String]) throws -> String {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, file.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
            // The tmux server outlives this process if it crashes: it must
            // hold none of its descriptors (swift test's output pipes), or
            // the test run waits for ever instead of failing.
            Self.closeFrom3(&actions)
            let argv = ["tmux", "-L", socket] + arguments
            var cArguments = argv.map { strdup($0) } + [nil]
            defer { for pointer in cArguments { free(pointer) } }
            var pid: pid_t = 0
            // Under the launch lock: the tmux server lives on, and must not
            // inherit a pipe being made for another test's process.
            let spawned = ProcessLaunch.exclusively { posix_spawnp(&pid, "tmux", &actions, nil, &cArguments, environ) }
            guard spawned == 0 else { throw REPLTestError("cannot run tmux (\(spawned)): is it installed?") }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1, errno == EINTR {}
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            guard status == 0 else { throw REPLTestError("tmux \(arguments.joined(separator: " ")) failed: \(text)") }
            return text
        }

        /// Adds "close every descriptor from 3 on" to `actions` (glibc
        /// 2.34 and later; the module map does not export it, so it is
        /// looked up).
        private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
            typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
            _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        }

        func start(_ command: String) async throws {
            try await tmux(["new-session", "-d", "-x", "200", "-y", "60", command])
        }

        func type(_ text: String) async throws { try await tmux(["send-keys", "-l", text]) }
        func press(_ keys: String...) async throws { try await tmux(["send-keys"] + keys) }
        func screen(colors: Bool = false) async throws -> String {
            try await tmux(["capture-pane", "-p", "-S", "-200"] + (colors ? ["-e"] : []))
        }
        var isRunning: Bool { get async { (try? await tmux(["has-session"])) != nil } }
        /// Ends what runs in the terminal and the tmux server (blocking: for
        /// `defer`). The program is killed first: a tmux server told to stop
        /// can wait on a program that is still running.
        func stop() {
            let panes = (try? tmuxBlocking(["list-panes", "-a", "-F", "#{pane_pid}"])) ?? ""
            for pid in panes.split(separator: "\n").compactMap({ pid_t($0) }) { kill(pid, SIGKILL) }
            _ = try? tmuxBlocking(["kill-server"])
        }

        /// Waits until `condition` holds for the screen (tmux has no way to
        /// tell when a program has drawn, so the screen is read again every
        /// 50 ms, up to `seconds`).
        func waitFor(_ what: String, seconds: Int = 10, _ condition: (String) -> Bool) async throws {
            for _ in 0..<(seconds * 20) {
                if condition(try await screen()) { return }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw REPLTestError("the screen never showed \(what):\n\(try await screen())")
        }

        /// Waits until the session has ended, looking every 50 ms for up to 10 s.
        func waitForEnd() async throws {
            for _ in 0..<200 {
                guard await isRunning else { return }
                try await Task.sleep(for: .milliseconds(50))
            }
        }
    }

    @Test("typing commands, editing a line, recalling history, colours, quit")
    func session() async throws {
        let binary = try REPLProcess.binary()
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("live-repl-home-\(getpid())")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let terminal = Terminal()
        defer { terminal.stop() }
        try await terminal.start("env -u NO_COLOR HOME=\(home.path) TERM=xterm-256color \(binary.path) --offline --order-by score")
        try await terminal.waitFor("the banner") { $0.contains("live-repl: listening to /items on offline") }

        try await terminal.type(#"put / {"a": {"score": 2}, "b": {"score": 1}}"#)
        try await terminal.press("Enter")
        try await terminal.waitFor("the change") { $0.contains("child_added a after b") }

        // Line editing: "xshow", to the start, delete the x.
        try await terminal.type("xshow")
        try await terminal.press("C-a")
        try await terminal.press("C-d")
        try await terminal.press("Enter")
        try await terminal.waitFor("show's output") { $0.contains("section 0 (2 rows)") }

        // History: the previous line again.
        try await terminal.press("Up")
        try await terminal.press("Enter")
        try await terminal.waitFor("show twice") { $0.components(separatedBy: "section 0 (2 rows)").count == 3 }

        try await terminal.type("bogus")
        try await terminal.press("Enter")
        try await terminal.waitFor("the error") { $0.contains("error: unknown command \"bogus\"") }
        let colored = try await terminal.screen(colors: true)
        #expect(colored.unicodeScalars.contains("\u{1B}"), "no colours on a terminal: \(colored.debugDescription)")

        try await terminal.type("quit")
        try await terminal.press("Enter")
        for _ in 0..<100 {
            guard await terminal.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(await !terminal.isRunning, "quit did not end the session")
        let history = try String(contentsOf: home.appendingPathComponent(".live_repl_history"), encoding: .utf8)
        #expect(history.contains("show") && history.contains("bogus"), "\(history)")
    }

    /// 20,000 sample children are about 1.6 MB: more than one progress
    /// step, so the progress line is drawn, then replaced by the summary.
    @Test("a large first load shows its progress, then what it took, before the banner")
    func loadProgress() async throws {
        let binary = try REPLProcess.binary()
        let terminal = Terminal()
        defer { terminal.stop() }
        try await terminal.start("env NO_COLOR=1 HOME=/nonexistent \(binary.path) --sample 20000 --order-by score")
        try await terminal.waitFor("the load's summary and the banner", seconds: 120) {
            $0.contains("loaded 20000 children") && $0.contains("20000 children loaded")
        }
        let screen = try await terminal.screen()
        let summary = try #require(screen.components(separatedBy: "\n").firstIndex { $0.contains("loaded 20000 children") })
        let banner = try #require(screen.components(separatedBy: "\n").firstIndex { $0.contains("20000 children loaded") })
        #expect(summary < banner, "\(screen)")
        #expect(!screen.contains("loading:"), "the progress line was not replaced: \(screen)")
    }

    @Test("a write by another client appears on screen while nothing is typed, above a half-typed line")
    func liveChanges() async throws {
        let server = try await LiveServer.start()
        defer { Task { try? await server.shutdown() } }
        let client = DatabaseClient(try DatabaseReference(url: server.url, path: "/items"))
        try await client.set(["a": ["score": 1], "b": ["score": 2]])
        let binary = try REPLProcess.binary()
        let terminal = Terminal()
        defer { terminal.stop() }
        try await terminal.start("env HOME=/nonexistent TERM=xterm-256color NO_COLOR=1 \(binary.path) --url \(server.url) "
                                 + "--path /items --order-by score")
        try await terminal.waitFor("the banner") { $0.contains("2 children loaded") }
        try await terminal.type("sho")
        try await terminal.waitFor("the typed text") { $0.contains("live> sho") }

        try await client.update(["a": ["score": 5], "c": ["score": 0]])
        try await terminal.waitFor("the change from the server") {
            $0.contains("(from the server)") && $0.contains("child_added c") && $0.contains("child_moved a after b")
        }
        // What was typed is still there, after the change, and completes.
        let screen = try await terminal.screen()
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let change = try #require(lines.lastIndex { $0.contains("(from the server)") })
        #expect(lines[(change + 1)...].contains { $0.hasPrefix("live> sho") }, "\(screen)")
        try await terminal.type("w")
        try await terminal.press("Enter")
        try await terminal.waitFor("show's output with the new rows") {
            $0.contains("section 0 (3 rows)") && $0.contains("c  0") && $0.contains("a  5")
        }
        try await terminal.press("C-d")
        try await terminal.waitForEnd()
        #expect(await !terminal.isRunning, "Ctrl-D did not end the session")
    }
}
