// FlightRecording.swift — a recording read back from its JSON lines.
import Foundation
import LiveModel
import LiveSections

/// Why a recording could not be read: the line, and what is wrong with it.
public struct FlightRecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line, counted from 1 (0 for the file as a whole).
    public let line: Int
    /// What is wrong.
    public let reason: String

    /// An error at `line`.
    public init(line: Int, _ reason: String) {
        self.line = line
        self.reason = reason
    }

    /// The error as `line N: reason`.
    public var description: String { line == 0 ? reason : "line \(line): \(reason)" }
}

/// A flight recording read back: its entries, in order. The first is a
/// ``FlightEntry/header(_:)``, the second a ``FlightEntry/state(_:)``.
public struct FlightRecording: Sendable, Equatable {
    /// The entries, in the order they were recorded.
    public let entries: [FlightEntry]
    /// The line each entry was read from, counted from 1.
    package let lines: [Int]

    /// Reads a recording from its JSON lines (``FlightRecorder/jsonLines()``).
    /// - Throws: ``FlightRecordingError`` for a file that is not a recording
    ///   (another format, a newer version), a torn or unreadable line, or a
    ///   recording without its header and state.
    /// - Complexity: O(length of the text).
    public init(jsonLines text: String) throws(FlightRecordingError) {
        var entries: [FlightEntry] = []
        var lines: [Int] = []
        var number = 0
        var counts: [Int]?
        // Lines end at "\n" (a "\r" before it is dropped): split on bytes,
        // as "\r\n" is one Character.
        for bytes in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            let line = bytes.last == UInt8(ascii: "\r") ? bytes.dropLast() : bytes[...]
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            let value: JSONValue
            do { value = try JSONValue(parsing: String(decoding: line, as: UTF8.self)) } catch {
                throw FlightRecordingError(line: number, "not JSON (a torn or edited file?): \(error.description)")
            }
            entries.append(try FlightEntryReader(line: number).entry(value, first: entries.isEmpty, counts: &counts))
            lines.append(number)
        }
        guard case .header? = entries.first else { throw FlightRecordingError(line: 0, "empty: no header line") }
        guard entries.count >= 2, case .state = entries[1] else {
            throw FlightRecordingError(line: 2, "the recording has no state after its header")
        }
        self.entries = entries
        self.lines = lines
    }

    /// Reads the recording in `url`: a file, or a pipe read to its end
    /// (`live-repl --replay <(zcat session.jsonl.gz)`).
    /// - Throws: ``FlightRecordingError`` (line 0) when the file cannot be
    ///   read, or as ``init(jsonLines:)``.
    public init(contentsOf url: URL) throws(FlightRecordingError) {
        let read: [UInt8]?
        do { read = try DurableFile.read(url.path, pipes: true) } catch {
            // "Cannot read PATH: the system's reason".
            throw FlightRecordingError(line: 0, error.description.prefix(1).lowercased() + error.description.dropFirst())
        }
        guard let bytes = read else { throw FlightRecordingError(line: 0, "cannot read \(url.path): there is no such file") }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw FlightRecordingError(line: 0, "\(url.path) is not UTF-8 text")
        }
        try self.init(jsonLines: text)
    }

    /// The recording's header: the location, query and sections it starts with.
    public var header: FlightHeader {
        guard case .header(let header) = entries[0] else { preconditionFailure("checked when read") }
        return header
    }

    /// The changes it holds, in order.
    public var changes: [FlightChange] {
        entries.compactMap { if case .change(let c) = $0 { return c } else { return nil } }
    }
}

/// Reads one line's entry, with errors naming the line.
struct FlightEntryReader {
    let line: Int

    func fail(_ reason: String) -> FlightRecordingError { FlightRecordingError(line: line, reason) }

    /// The entry `value` holds; `counts` are the row counts before it
    /// (nil when unknown), and after it.
    func entry(_ value: JSONValue, first: Bool, counts: inout [Int]?) throws(FlightRecordingError) -> FlightEntry {
        guard case .object(let o) = value else {
            throw fail(first ? "not a LiveCollection recording: its first line is not a header" : "an entry is a JSON object")
        }
        if first, o["k"]?.stringValue != "header" || o["format"]?.stringValue != FlightEntry.format {
            throw fail("not a LiveCollection recording: its first line is not a header")
        }
        let kind = try string(o, "k")
        switch kind {
        case "header": return .header(try header(o))
        case "state":
            let pending = try array(o, "pending").map { (v) throws(FlightRecordingError) -> FlightWrite in
                guard case .object(let w) = v else { throw fail("a pending write is an object") }
                return try write(w)
            }
            counts = o["counts"] == nil ? nil : try ints(o, "counts")
            return .state(FlightState(value: try member(o, "value"), isComplete: try bool(o, "complete"),
                                      isWhole: try bool(o, "whole"), pending: pending, counts: counts ?? []))
        case "connected": return .message(.connected)
        case "renewing": return .message(.renewingCredential)
        case "disconnected": return .message(.disconnected(reason: try string(o, "reason")))
        case "ended":
            let failure = try member(o, "failure")
            if failure.isNull { return .message(.ended(nil)) }
            guard case .object(let f) = failure else { throw fail("an end's failure is null or an object") }
            return .message(.ended(FlightFailure(kind: try string(f, "kind"), reason: try string(f, "reason"))))
        case "put":
            return .message(.put(path: try path(o, "path"), data: try member(o, "data"), isWhole: try bool(o, "whole"),
                                 isCached: try bool(o, "cached")))
        case "patch":
            return .message(.patch(path: try path(o, "path"), data: try member(o, "data"), isWhole: try bool(o, "whole")))
        case "write": return .write(try write(o))
        case "outcome":
            let error = try member(o, "error")
            guard error.isNull || error.stringValue != nil else { throw fail("an outcome's error is null or a string") }
            return .outcome(id: try int(o, "id"), error: error.stringValue)
        case "change":
            let change = try change(o, before: counts)
            counts = change.after
            return .change(change)
        case "rejected": return .rejected(change: try int(o, "change"), reason: try string(o, "reason"))
        case "gap": return .gap(try string(o, "what"))
        default: throw fail("unknown entry kind \"\(kind)\" (made by a newer version?)")
        }
    }

    private func header(_ o: JSONObject) throws(FlightRecordingError) -> FlightHeader {
        guard o["format"]?.stringValue == FlightEntry.format else { throw fail("not a LiveCollection recording") }
        let version = try int(o, "version")
        guard version == FlightEntry.version else {
            throw fail("format version \(version); this library reads version \(FlightEntry.version)")
        }
        let query: DatabaseQuery
        do { query = try DatabaseQuery(json: try member(o, "query")) } catch let error as QueryError {
            throw fail("the header's query: \(error.description)")
        } catch {
            throw error as! FlightRecordingError
        }
        let sectionBy: DatabasePath? = o["sectionBy"]?.isNull == false ? try path(o, "sectionBy") : nil
        guard let mode = LoadMode(recorded: try string(o, "mode")) else { throw fail("unknown load mode") }
        return FlightHeader(path: try path(o, "path"), query: query, sectionBy: sectionBy,
                            hasOtherSections: try bool(o, "otherSections"), mode: mode,
                            isRedacted: try bool(o, "redacted"), library: try string(o, "library"))
    }

    private func write(_ o: JSONObject) throws(FlightRecordingError) -> FlightWrite {
        let id = try int(o, "id")
        do { return FlightWrite(id: id, write: try DatabaseWrite(json: try member(o, "write"))) } catch let error as DatabaseError {
            throw fail("write \(id): \(error.description)")
        } catch {
            throw error as! FlightRecordingError
        }
    }

    /// A change; its counts are `known` before it unless it says them.
    private func change(_ o: JSONObject, before known: [Int]?) throws(FlightRecordingError) -> FlightChange {
        let stages = try array(o, "stages").map { (v) throws(FlightRecordingError) -> BatchStage in try stage(v) }
        let events = try array(o, "events").map { (v) throws(FlightRecordingError) -> FlightEvent in
            guard case .array(let e) = v, e.count == 3, let name = e[0].stringValue,
                  let kind = ChildEvent.Kind(rawValue: name), let key = e[1].stringValue.flatMap({ try? Key($0) })
            else { throw fail("an event is [kind, key, previous key]") }
            let previous: Key?
            if e[2].isNull { previous = nil } else {
                guard let p = e[2].stringValue.flatMap({ try? Key($0) }) else { throw fail("an event's previous key") }
                previous = p
            }
            return FlightEvent(kind: kind, key: key, previousKey: previous)
        }
        let list: [Int]? = o["list"]?.isNull == false ? try ints(o, "list") : nil
        guard let before = o["before"] == nil ? known : try ints(o, "before") else {
            throw fail("a change without \"before\" follows no counts (a state's \"counts\" or a change)")
        }
        var after = before
        if o["after"] != nil {
            after = try ints(o, "after")
        } else {
            for row in try array(o, "rows") {
                guard let pair = row.arrayValue, pair.count == 2 else { throw fail("member \"rows\" holds [section, count] pairs") }
                let section = try integer(pair[0], "rows")
                guard section < after.count else { throw fail("member \"rows\" names section \(section) of \(after.count)") }
                after[section] = try integer(pair[1], "rows")
            }
        }
        return FlightChange(number: try int(o, "n"), before: before, list: list, stages: stages, after: after, events: events)
    }

    private func stage(_ v: JSONValue) throws(FlightRecordingError) -> BatchStage {
        guard case .object(let o) = v else { throw fail("a stage is an object") }
        func numbers(_ name: String, _ width: Int) throws(FlightRecordingError) -> [[Int]] {
            guard let items = o[name] else { return [] }
            guard case .array(let list) = items else { throw fail("stage member \(name) is an array") }
            return try list.map { (item) throws(FlightRecordingError) -> [Int] in
                let numbers = width == 1 ? [item] : (item.arrayValue ?? [])
                guard numbers.count == width else { throw fail("stage member \(name) holds lists of \(width)") }
                return try numbers.map { (n) throws(FlightRecordingError) -> Int in try integer(n, name) }
            }
        }
        let row = { (n: [Int], at: Int) in RowPath(section: n[at], row: n[at + 1]) }
        return BatchStage(
            deletedSections: try numbers("ds", 1).map { $0[0] }, insertedSections: try numbers("is", 1).map { $0[0] },
            reloadedSections: try numbers("rs", 1).map { $0[0] },
            movedSections: try numbers("ms", 2).map { SectionMove(from: $0[0], to: $0[1]) },
            deletedRows: try numbers("dr", 2).map { row($0, 0) }, insertedRows: try numbers("ir", 2).map { row($0, 0) },
            reloadedRows: try numbers("rr", 2).map { row($0, 0) },
            movedRows: try numbers("mr", 4).map { RowMove(from: row($0, 0), to: row($0, 2)) })
    }

    // MARK: Members

    private func member(_ o: JSONObject, _ name: String) throws(FlightRecordingError) -> JSONValue {
        guard let value = o[name] else { throw fail("no member \"\(name)\"") }
        return value
    }

    private func string(_ o: JSONObject, _ name: String) throws(FlightRecordingError) -> String {
        guard let text = try member(o, name).stringValue else { throw fail("member \"\(name)\" is not a string") }
        return text
    }

    private func bool(_ o: JSONObject, _ name: String) throws(FlightRecordingError) -> Bool {
        guard let flag = try member(o, name).boolValue else { throw fail("member \"\(name)\" is not true or false") }
        return flag
    }

    private func integer(_ v: JSONValue, _ name: String) throws(FlightRecordingError) -> Int {
        guard let n = v.numberValue, n >= 0, n <= 1e15, n == n.rounded() else {
            throw fail("member \"\(name)\" holds a number that is not a count")
        }
        return Int(n)
    }

    private func int(_ o: JSONObject, _ name: String) throws(FlightRecordingError) -> Int {
        try integer(try member(o, name), name)
    }

    private func ints(_ o: JSONObject, _ name: String) throws(FlightRecordingError) -> [Int] {
        try array(o, name).map { (v) throws(FlightRecordingError) -> Int in try integer(v, name) }
    }

    private func array(_ o: JSONObject, _ name: String) throws(FlightRecordingError) -> [JSONValue] {
        guard case .array(let items) = try member(o, name) else { throw fail("member \"\(name)\" is not an array") }
        return items
    }

    private func path(_ o: JSONObject, _ name: String) throws(FlightRecordingError) -> DatabasePath {
        let text = try string(o, name)
        do { return try DatabasePath(text) } catch { throw fail("member \"\(name)\": \(error)") }
    }
}
