// JSONOutput.swift — the `--json` contract: one JSON object per line.

import LiveModel
import LiveSections

/// Renders command output as one line of JSON each (see docs/REPL.md's
/// `--json` contract).
public enum JSONOutput {
    /// The line for `output`, or nil when it prints nothing.
    public static func line(for output: CommandOutput) -> String? {
        switch output {
        case .change(let report): return change(report).jsonText(sortedKeys: true)
        case .replayed(let report, let verdict):
            guard case .object(var members) = change(report) else { return nil }
            members["replay"] = .array(verdict.map { .string($0) })
            return JSONValue.object(members).jsonText(sortedKeys: true)
        case .sections(let sections): return show(sections).jsonText(sortedKeys: true)
        case .text(let lines): return JSONValue.object(["text": .array(lines.map { .string($0) })]).jsonText()
        case .stats(let lines, let load):
            var members: JSONObject = ["text": .array(lines.map { .string($0) })]
            if let load { members["load"] = load.json }
            return JSONValue.object(members).jsonText()
        case .synced(let children):
            return JSONValue.object(["synced": true, "children": .number(Double(children))]).jsonText(sortedKeys: true)
        case .nothing, .quit: return nil
        }
    }

    /// `{"error": "..."}`.
    public static func error(_ error: REPLError) -> String {
        JSONValue.object(["error": .string(error.description)]).jsonText()
    }

    /// A change the server sent between commands: the stages and events,
    /// marked `"between": true`.
    public static func between(_ report: ChangeReport) -> String {
        guard case .object(var members) = change(report) else { return "" }
        members["between"] = true
        return JSONValue.object(members).jsonText(sortedKeys: true)
    }

    static func change(_ report: ChangeReport) -> JSONValue {
        var members: JSONObject = [
            "stages": .array(report.stages.map(stage)),
            "events": .array(report.events.map { event in
                var members: JSONObject = [
                    "type": .string(event.type),
                    "key": .string(event.key.string),
                    "prevKey": event.previousKey.map { .string($0.string) } ?? .null,
                ]
                // Marked only where a line holds several changes.
                if report.changeCount > 1 { members["change"] = .number(Double(event.change)) }
                return .object(members)
            }),
        ]
        if let prepended = report.prepended { members["prepended"] = .number(Double(prepended)) }
        if !report.writes.isEmpty {
            members["writes"] = .array(report.writes.map { write in
                var w: JSONObject = ["id": .number(Double(write.id)), "state": .string(write.state)]
                if let error = write.error { w["error"] = .string(error) }
                return .object(w)
            })
        }
        return .object(members)
    }

    static func stage(_ reported: ReportedStage) -> JSONValue {
        let s = reported.stage
        func ints(_ values: [Int]) -> JSONValue { .array(values.map { .number(Double($0)) }) }
        func path(_ p: RowPath) -> JSONValue { ints([p.section, p.row]) }
        return .object([
            "deletedSections": ints(s.deletedSections),
            "insertedSections": ints(s.insertedSections),
            "reloadedSections": ints(s.reloadedSections),
            "movedSections": .array(s.movedSections.map { ints([$0.from, $0.to]) }),
            "deletedRows": .array(s.deletedRows.map(path)),
            "insertedRows": .array(s.insertedRows.map(path)),
            "reloadedRows": .array(s.reloadedRows.map(path)),
            "movedRows": .array(s.movedRows.map { .array([path($0.from), path($0.to)]) }),
            "counts": ints(reported.counts),
        ])
    }

    static func show(_ sections: [ShownSection]) -> JSONValue {
        .object(["sections": .array(sections.map { section in
            .object(["section": section.value, "keys": .array(section.rows.map { .string($0.key.string) })])
        })])
    }
}
