// REPLError.swift — what went wrong with a command, said so a user can fix it.

import LiveFirebase
import LiveModel

/// Why a command failed. Nothing was changed when a command fails.
public enum REPLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line names no command.
    case unknownCommand(String)
    /// The command's arguments are wrong; `usage` shows the right form.
    case usage(command: String, problem: String, usage: String)
    /// JSON that does not parse, with the 1-based column in the line where
    /// it failed.
    case malformedJSON(column: Int, message: String)
    /// A key or path that Firebase refuses, with the column of its start.
    case invalidPath(String, column: Int, reason: String)
    /// A query Firebase refuses.
    case invalidQuery(String)
    /// The command needs a server and the REPL runs offline.
    case needsServer(String)
    /// A command that needs the server's answer, while offline.
    case offline(String)
    /// The database refused or failed.
    case database(DatabaseError)
    /// The collection did not come to equal the server's answer to the
    /// query in time: after a write (the write itself was made), or for
    /// `sync`. `detail` says how they differ.
    case outOfSync(command: String, seconds: Double, detail: String)
    /// Something the REPL does not expect of itself.
    case internalState(String)
    /// A flight recording could not be read or written.
    case recording(FlightRecordingError)

    /// The message the REPL prints, in English.
    public var description: String {
        switch self {
        case .unknownCommand(let name):
            return "unknown command \(name.debugDescription); type help for the list"
        case .usage(let command, let problem, let usage):
            return "\(command): \(problem); usage: \(usage)"
        case .malformedJSON(let column, let message):
            return "malformed JSON at column \(column): \(message)"
        case .invalidPath(let path, let column, let reason):
            return "invalid path \(path.debugDescription) at column \(column): \(reason)"
        case .invalidQuery(let reason):
            return "invalid query: \(reason)"
        case .needsServer(let command):
            return "\(command) needs a server, and this session has none (--offline); inject with put or patch"
        case .offline(let command):
            return "\(command) needs the server's answer, and the session is offline; run online first"
        case .database(let error):
            return error.description
        case .outOfSync(let command, let seconds, let detail):
            let what = command == "sync" ? "the collection" : "written, but the collection"
            return "\(command): \(what) did not match the server's answer to the query within \(seconds) s (\(detail))"
        case .internalState(let what):
            return "internal error: \(what)"
        case .recording(let error):
            return "recording: \(error)"
        }
    }
}
