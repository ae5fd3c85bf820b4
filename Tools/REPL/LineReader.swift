// LineReader.swift — lines from standard input: with editing and history
// (libedit) on a terminal, plainly otherwise.

import CEditLine
import Foundation

/// Reads the REPL's input one line at a time.
struct LineReader {
    /// Whether standard input is a terminal (interactive mode).
    let interactive: Bool
    private let historyFile: String?

    init() {
        interactive = isatty(STDIN_FILENO) == 1
        if interactive, let home = ProcessInfo.processInfo.environment["HOME"] {
            historyFile = home + "/.live_repl_history"
        } else {
            historyFile = nil
        }
        if interactive {
            using_history()
            if let historyFile { _ = read_history(historyFile) }
        }
    }

    /// The next line without its newline, or nil at the end of input.
    func next(prompt: String) -> String? {
        guard interactive else { return readLine(strippingNewline: true) }
        guard let raw = readline(prompt) else { return nil }
        defer { free(raw) }
        let line = String(cString: raw)
        if !line.trimmingCharacters(in: .whitespaces).isEmpty {
            _ = add_history(raw)
            if let historyFile { _ = write_history(historyFile) }
        }
        return line
    }
}
