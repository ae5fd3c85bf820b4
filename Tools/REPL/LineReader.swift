// LineReader.swift — lines from standard input without blocking the main
// actor, so that changes from the server are shown while the REPL waits:
// on a terminal with libedit's editing and history (its callback
// interface, fed when standard input is readable); otherwise line by line
// on a thread of its own.

import CEditLine
import Dispatch
import Foundation

/// Reads the REPL's input one line at a time, as an asynchronous sequence.
///
/// On a terminal, the prompt is shown by ``prompt()`` and taken down when a
/// line is entered, so a command's output never mixes with it; text printed
/// while the prompt is up goes through ``printAbove(_:)``, which keeps what
/// the user has typed.
@MainActor
final class LineReader {
    /// Whether standard input is a terminal (interactive mode).
    let interactive: Bool
    /// The lines, up to the end of input.
    let lines: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private let historyFile: String?
    private let promptText: String
    private var source: (any DispatchSourceRead)?
    /// Whether the prompt (and the line being typed) is on screen.
    private(set) var prompting = false
    /// Whether `source` is suspended (between a line and the next prompt).
    private var suspended = false

    /// The reader being fed by libedit's line callback (one per process).
    private static var current: LineReader?

    init(prompt: String) {
        promptText = prompt
        interactive = isatty(STDIN_FILENO) == 1
        (lines, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
        if interactive, let home = ProcessInfo.processInfo.environment["HOME"] {
            historyFile = home + "/.live_repl_history"
        } else {
            historyFile = nil
        }
        if interactive {
            using_history()
            if let historyFile { _ = read_history(historyFile) }
        } else {
            let continuation = self.continuation
            let thread = Thread {
                while let line = readLine(strippingNewline: true) { continuation.yield(line) }
                continuation.finish()
            }
            thread.name = "live-repl input"
            thread.start()
        }
    }

    /// Queues `line` after the lines read so far, as if it had been typed
    /// (a command from the inspector page).
    func inject(_ line: String) { continuation.yield(line) }

    /// Shows the prompt and takes keys until a line is entered (on a
    /// terminal; otherwise does nothing: lines come as they are read).
    /// Called again once each line's command is done.
    func prompt() {
        guard interactive, !prompting else { return }
        prompting = true
        Self.current = self
        rl_callback_handler_install(promptText) { raw in
            MainActor.assumeIsolated { LineReader.current?.entered(raw) }
        }
        if let source {
            if suspended { source.resume() }
            suspended = false
        } else {
            let source = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
            source.setEventHandler { MainActor.assumeIsolated { LineReader.current?.readable() } }
            source.resume()
            self.source = source
        }
    }

    /// Prints `text` (whole lines) above the prompt, then draws the prompt
    /// and what was typed again; without a prompt on screen, just prints.
    func printAbove(_ text: String) {
        guard prompting else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        FileHandle.standardOutput.write(Data(("\r\u{1B}[K" + text).utf8))
        rl_forced_update_display()
    }

    private func readable() {
        if prompting { rl_callback_read_char() }
    }

    /// A line was entered (nil: end of input): the prompt comes down and
    /// keys wait in the terminal until the next ``prompt()``.
    private func entered(_ raw: UnsafeMutablePointer<CChar>?) {
        rl_callback_handler_remove()
        prompting = false
        if let source, !suspended {
            source.suspend()
            suspended = true
        }
        guard let raw else {
            FileHandle.standardOutput.write(Data("\n".utf8))
            continuation.finish()
            return
        }
        defer { free(raw) }
        let line = String(cString: raw)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            _ = add_history(raw)
            if let historyFile { _ = write_history(historyFile) }
        }
        continuation.yield(line)
    }

    /// Stops reading the terminal (before the reader goes away).
    func close() {
        if prompting { rl_callback_handler_remove() }
        prompting = false
        guard let source else { return }
        if suspended { source.resume() }
        source.cancel()
        self.source = nil
        Self.current = nil
    }
}
