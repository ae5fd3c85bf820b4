// LineScanner.swift — reads the words, paths and JSON of one REPL line and
// keeps the column it stands at, for errors.

import ArgumentParser
import LiveModel

/// A cursor over one line. Columns are 1-based and count characters.
struct LineScanner {
    private let characters: [Character]
    private var index = 0

    init(_ line: String) { characters = Array(line) }

    /// The 1-based column of the next character.
    var column: Int { index + 1 }

    private mutating func skipSpaces() {
        while index < characters.count, characters[index].isWhitespace { index += 1 }
    }

    /// The next word (up to whitespace) and its column, or nil at the end.
    mutating func word() -> (text: String, column: Int)? {
        skipSpaces()
        guard index < characters.count else { return nil }
        let start = index
        while index < characters.count, !characters[index].isWhitespace { index += 1 }
        return (String(characters[start..<index]), start + 1)
    }

    /// The value of option `name` (`--name VALUE`) when it comes next;
    /// otherwise nil, and nothing is read.
    mutating func option(_ name: String, command: String) throws(REPLError) -> String? {
        let saved = index
        guard let (text, _) = word(), text == name else {
            index = saved
            return nil
        }
        guard let (value, _) = word() else {
            throw .usage(command: command, problem: "\(name) needs a value", usage: usage(of: command))
        }
        return value
    }

    /// A path relative to the listened location (`/` is the location itself).
    mutating func path(command: String) throws(REPLError) -> DatabasePath {
        guard let (text, column) = word() else {
            throw .usage(command: command, problem: "a path is missing", usage: usage(of: command))
        }
        do {
            return try DatabasePath(text)
        } catch {
            throw .invalidPath(text, column: column + characterOffset(in: text, byte: error.position),
                               reason: Self.reason(error))
        }
    }

    /// The rest of the line as one JSON value, and its text.
    mutating func json(command: String) throws(REPLError) -> (JSONValue, String) {
        skipSpaces()
        guard index < characters.count else {
            throw .usage(command: command, problem: "a JSON value is missing", usage: usage(of: command))
        }
        let start = index
        let text = String(characters[start...])
        index = characters.count
        do {
            return (try JSONValue(parsing: text), text)
        } catch {
            // jansson's position is the byte just past where it stopped.
            let offset = max(0, characterOffset(in: text, byte: error.position) - 1)
            throw .malformedJSON(column: start + 1 + offset, message: error.message)
        }
    }

    /// Nothing may follow.
    mutating func end(command: String) throws(REPLError) {
        skipSpaces()
        guard index < characters.count else { return }
        throw .usage(command: command, problem: "unexpected \(String(characters[index...]).debugDescription) at column \(column)",
                     usage: usage(of: command))
    }

    /// The rest of the line split as a shell would: spaces separate,
    /// single quotes keep everything, double quotes keep all but `\"` and
    /// `\\`, a backslash outside quotes keeps the next character.
    mutating func arguments() throws(REPLError) -> [String] {
        var out: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        let quoteColumn = column
        while index < characters.count {
            let c = characters[index]
            index += 1
            if let q = quote {
                if c == q {
                    quote = nil
                } else if q == "\"", c == "\\", index < characters.count, "\"\\".contains(characters[index]) {
                    current.append(characters[index])
                    index += 1
                } else {
                    current.append(c)
                }
            } else if c.isWhitespace {
                if inWord { out.append(current); current = ""; inWord = false }
            } else if c == "'" || c == "\"" {
                quote = c
                inWord = true
            } else if c == "\\", index < characters.count {
                current.append(characters[index])
                index += 1
                inWord = true
            } else {
                current.append(c)
                inWord = true
            }
        }
        if quote != nil {
            throw .usage(command: "query", problem: "a quote opened after column \(quoteColumn) is not closed",
                         usage: usage(of: "query"))
        }
        if inWord { out.append(current) }
        return out
    }

    /// A key error's reason without the path it repeats.
    static func reason(_ error: KeyError) -> String {
        let text = error.description
        guard let range = text.range(of: "\": ") else { return text }
        return String(text[range.upperBound...])
    }

    /// The character offset in `text` of the UTF-8 byte offset `byte`.
    private func characterOffset(in text: String, byte: Int) -> Int {
        let utf8 = Array(text.utf8)
        return String(decoding: utf8.prefix(min(max(0, byte), utf8.count)), as: UTF8.self).count
    }
}

extension QueryOptions {
    /// A one-line message for an error of parsing query options.
    static func message(for error: any Error) -> String {
        let first = fullMessage(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
        return first.hasPrefix("Error: ") ? String(first.dropFirst(7)) : first
    }
}
