// CommandParser.swift — from a line of text to a Command, with errors that
// point at the column where the line went wrong.

import LiveModel

/// Parses REPL lines. Pure: no state, no I/O.
public enum CommandParser {
    /// Parses one line.
    /// - Throws: ``REPLError`` naming the problem and, for JSON and paths,
    ///   the 1-based column in `line` where it is.
    /// - Complexity: O(length of the line).
    public static func parse(_ line: String) throws(REPLError) -> Command {
        var scanner = LineScanner(line)
        guard let (word, _) = scanner.word() else { return .nothing }
        if word.hasPrefix("#") { return .nothing }
        switch word {
        case "put", "patch", "set", "push":
            let etag = word == "set" ? try scanner.option("--if-match", command: word) : nil
            let path = try scanner.path(command: word)
            let (value, text) = try scanner.json(command: word)
            switch word {
            case "put": return .put(path, value, json: text)
            case "patch":
                guard case .object = value else {
                    throw .usage(command: word, problem: "the value must be an object of relative paths", usage: usage(of: word))
                }
                return .patch(path, value, json: text)
            case "set": return .set(path, value, ifMatch: etag)
            default: return .push(path, value)
            }
        case "update":
            let path = try scanner.path(command: word)
            let start = scanner.column
            let (value, _) = try scanner.json(command: word)
            guard case .object(let members) = value, !members.isEmpty else {
                throw .usage(command: word, problem: "the value must be an object of relative paths", usage: usage(of: word))
            }
            var writes: [DatabasePath: JSONValue] = [:]
            for (name, member) in members {
                do { writes[try DatabasePath(name)] = member } catch {
                    throw .invalidPath(name, column: start, reason: LineScanner.reason(error))
                }
            }
            return .update(path, writes)
        case "remove":
            let etag = try scanner.option("--if-match", command: word)
            let path = try scanner.path(command: word)
            try scanner.end(command: word)
            return .remove(path, ifMatch: etag)
        case "show", "stats", "quit", "exit", "offline", "online":
            try scanner.end(command: word)
            switch word {
            case "show": return .show
            case "stats": return .stats
            case "offline": return .offline
            case "online": return .online
            default: return .quit
            }
        case "help":
            let topic = scanner.word()?.text
            try scanner.end(command: word)
            if let topic, !commandUsages.contains(where: { $0.name == topic }) { throw .unknownCommand(topic) }
            return .help(topic)
        case "query":
            let arguments = try scanner.arguments()
            if arguments.isEmpty { return .query(nil) }
            do {
                let options = try QueryOptions.parse(arguments)
                _ = try options.query()
                _ = try options.sectionPath()
                _ = try options.filter()
                return .query(options)
            } catch let error as REPLError {
                throw error
            } catch {
                throw .usage(command: word, problem: QueryOptions.message(for: error), usage: usage(of: word))
            }
        case "load":
            return .load(try loadRequest(&scanner))
        case "record":
            guard let (file, _) = scanner.word() else {
                throw .usage(command: word, problem: "name the file to record into, or stop", usage: usage(of: word))
            }
            try scanner.end(command: word)
            return .record(file == "stop" ? nil : file)
        case "replay":
            var count: Int? = 1
            if let (text, _) = scanner.word() {
                if text == "all" {
                    count = nil
                } else {
                    guard let n = Int(text), n > 0 else {
                        throw .usage(command: word, problem: "say how many changes (a number above 0), or all", usage: usage(of: word))
                    }
                    count = n
                }
            }
            try scanner.end(command: word)
            return .replay(count)
        case "sync":
            var seconds: Double?
            if let (text, _) = scanner.word() {
                guard let value = Double(text), value.isFinite, value > 0, value <= 86_400 else {
                    throw .usage(command: word, problem: "the timeout must be a number of seconds above 0 (at most 86400)",
                                 usage: usage(of: word))
                }
                seconds = value
            }
            try scanner.end(command: word)
            return .sync(seconds: seconds)
        default:
            throw .unknownCommand(word)
        }
    }

    private static func loadRequest(_ scanner: inout LineScanner) throws(REPLError) -> Command.LoadRequest {
        let bad = REPLError.usage(command: "load", problem: "say how to load", usage: usage(of: "load"))
        guard let (mode, _) = scanner.word() else { throw bad }
        let request: Command.LoadRequest
        switch mode {
        case "live": request = .live
        case "all": request = .all
        case "next": request = .next
        case "older": request = .older
        case "page", "last":
            guard let (text, _) = scanner.word(), let size = Int(text), size > 0 else {
                throw .usage(command: "load", problem: "a page size must be a whole number of at least 1",
                             usage: usage(of: "load"))
            }
            request = mode == "page" ? .page(size) : .last(size)
        default: throw bad
        }
        try scanner.end(command: "load")
        return request
    }
}
