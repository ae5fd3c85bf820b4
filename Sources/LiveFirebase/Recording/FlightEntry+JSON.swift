// FlightEntry+JSON.swift — an entry as one line of JSON, and back.
//
// Every line is an object with a member "k" naming its kind:
//   {"k":"header","format":"livecollection-recording","version":1,"path":"/rooms",
//    "query":["score",null,null,null],"sectionBy":"team","redacted":true,"library":"0.1.0"}
//   {"k":"state","value":{…}|null,"complete":true,"whole":false,"pending":[write…],"counts":[2]}
//   {"k":"connected"} {"k":"renewing"} {"k":"disconnected","reason":"…"}
//   {"k":"ended","failure":null|{"kind":"permissionDenied","reason":"…"}}
//   {"k":"put","path":"/a","data":…,"whole":false,"cached":false}
//   {"k":"patch","path":"/","data":{…},"whole":false}
//   {"k":"write","id":1,"write":{"set":"/a","value":…}} (as the write queue keeps writes)
//   {"k":"outcome","id":1,"error":null|"…"}
//   {"k":"change","n":1,"before":[2],"after":[3],"list":null|[2],
//    "stages":[{"dr":[[0,1]],"ir":[[0,2]],…}],"events":[["child_added","k","p"|null]]}
//   or, as the recorder writes most changes, the counts as sections changed
//   from the ones before (the state's, then each change's after):
//   {"k":"change","n":1,"rows":[[0,3]],"list":null,"stages":[…],"events":[…]}
//   {"k":"rejected","change":4,"reason":"…"}
//   {"k":"gap","what":"setQuery"}
import LiveModel
import LiveSections

extension LoadMode {
    /// The mode as a recording's header says it.
    var recorded: String {
        switch self {
        case .live: return "live"
        case .all: return "all"
        case .paged(let size): return "paged:\(size)"
        case .pagedFromEnd(let size): return "pagedFromEnd:\(size)"
        }
    }

    /// The mode a header's text says.
    init?(recorded text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let size = parts.count == 2 ? Int(parts[1]) : nil
        switch parts.first {
        case "live" where parts.count == 1: self = .live
        case "all" where parts.count == 1: self = .all
        case "paged" where (size ?? 0) > 0: self = .paged(size: size!)
        case "pagedFromEnd" where (size ?? 0) > 0: self = .pagedFromEnd(size: size!)
        default: return nil
        }
    }
}

extension FlightEntry {
    /// The name a recording's header gives its format.
    public static let format = "livecollection-recording"
    /// The version of the format this library writes and reads.
    public static let version = 1

    /// The entry as one line of JSON (no newline inside); members in no
    /// particular order, but a header's and a state's sorted (they lead a
    /// file, and are what two recordings are compared by).
    public var jsonLine: String {
        switch self {
        case .header, .state: return json.jsonText(sortedKeys: true)
        case .change(let c): return String(decoding: c.line(rows: nil), as: UTF8.self)
        default: return json.jsonText()
        }
    }

    var json: JSONValue {
        switch self {
        case .header(let h):
            let query = h.query.json
            return object("header", ["format": .string(Self.format), "version": .number(Double(Self.version)),
                                     "path": .string(h.path.description), "query": query,
                                     "sectionBy": h.sectionBy.map { .string($0.description) } ?? .null,
                                     "otherSections": .bool(h.hasOtherSections), "mode": .string(h.mode.recorded),
                                     "redacted": .bool(h.isRedacted), "library": .string(h.library)])
        case .state(let state):
            return object("state", ["value": state.value, "complete": .bool(state.isComplete), "whole": .bool(state.isWhole),
                                    "pending": .array(state.pending.map { FlightEntry.write($0).json }),
                                    "counts": counts(state.counts)])
        case .message(.connected): return object("connected", [:])
        case .message(.renewingCredential): return object("renewing", [:])
        case .message(.disconnected(let reason)): return object("disconnected", ["reason": .string(reason)])
        case .message(.ended(let failure)):
            return object("ended", ["failure": failure.map { .object(["kind": .string($0.kind), "reason": .string($0.reason)]) } ?? .null])
        case .message(.put(let path, let data, let whole, let cached)):
            return object("put", ["path": .string(path.description), "data": data, "whole": .bool(whole), "cached": .bool(cached)])
        case .message(.patch(let path, let data, let whole)):
            return object("patch", ["path": .string(path.description), "data": data, "whole": .bool(whole)])
        case .write(let w):
            return object("write", ["id": .number(Double(w.id)), "write": w.write.json])
        case .outcome(let id, let error):
            return object("outcome", ["id": .number(Double(id)), "error": error.map { .string($0) } ?? .null])
        case .change(let c):
            // Written as bytes (see `FlightChange.line(rows:)`): read back for a value.
            return (try? JSONValue(parsing: String(decoding: c.line(rows: nil), as: UTF8.self))) ?? .null
        case .rejected(let change, let reason):
            return object("rejected", ["change": .number(Double(change)), "reason": .string(reason)])
        case .gap(let what): return object("gap", ["what": .string(what)])
        }
    }

    private func object(_ kind: String, _ members: JSONObject) -> JSONValue {
        var members = members
        members["k"] = .string(kind)
        return .object(members)
    }

    private func counts(_ counts: [Int]) -> JSONValue { .array(counts.map { .number(Double($0)) }) }
}

extension FlightChange {
    /// The change as one line of JSON. With `rows` (each section whose row
    /// count changed, with its count after, when no stage moves, inserts,
    /// deletes or reloads a section), `before` is left out and `after` is
    /// written as those `rows`: a reader takes both from the counts before
    /// it, as the recorder writes a change. Otherwise both are written whole.
    /// - Complexity: O(size of what it told, plus sections without `rows`).
    func line(rows: [(section: Int, count: Int)]?) -> [UInt8] {
        var line = FlightLine("change")
        write(into: &line, rows.map { .rows($0) } ?? .all(before: before, after: after))
        return line.finished()
    }

    /// Writes the change's members after its kind, its counts as `counts`
    /// says (see ``line(rows:)``).
    func write(into line: inout FlightLine, _ counts: FlightCounts.Changed) {
        line.name("n")
        line.int(number)
        switch counts {
        case .rows(let rows):
            line.name("rows")
            line.list(rows) { line, row in line.pair(row.section, row.count) }
        case .all(let before, let after):
            line.name("before")
            line.counts(before)
            line.name("after")
            line.counts(after)
        }
        line.name("list")
        if let list { line.counts(list) } else { line.null() }
        line.name("stages")
        line.list(stages) { $0.stage($1) }
        line.name("events")
        line.events(events)
    }

    /// About the bytes of its line with `counts` (see ``write(into:_:)``):
    /// a recording's bound is kept exactly when it is written.
    /// - Complexity: O(stages and events).
    func estimatedSize(_ counts: FlightCounts.Changed) -> Int {
        var size = 64
        switch counts {
        case .rows(let rows): size += 10 * rows.count
        case .all(let before, let after): size += 6 * (before.count + after.count)
        }
        if let list { size += 6 * list.count }
        for stage in stages { size += 8 + 12 * stage.operationCount }
        for event in events { size += 24 + event.key.utf8Count + (event.previousKey?.utf8Count ?? 0) }
        return size
    }
}
