// StageMirror.swift — a list view's rows, kept only from the REPL's --json
// stages under UIKit's batch rules, with inserted rows taken from `show`
// as a data source would give them.

import LiveModel
import LiveSections
import Testing

/// One child event of a `--json` line: `change` numbers the line's changes
/// (0 when the line holds one).
struct ReplayedEvent {
    let type: String
    let key: String
    let prevKey: String?
    var change = 0
}

/// One `--json` line, read back.
enum REPLLine {
    case change(stages: [(BatchStage, counts: [Int])], events: [ReplayedEvent])
    case show([(section: JSONValue, keys: [String])])
    case error(String)
    case text([String])

    init(_ line: String) throws {
        let value = try JSONValue(parsing: line)
        guard case .object(let members) = value else { throw REPLTestError("not an object: \(line)") }
        if let error = members["error"]?.stringValue {
            self = .error(error)
        } else if case .array(let lines)? = members["text"] {
            self = .text(lines.compactMap(\.stringValue))
        } else if case .array(let sections)? = members["sections"] {
            self = .show(try sections.map { section in
                guard case .array(let keys)? = section.objectValue?["keys"] else { throw REPLTestError("bad show: \(line)") }
                return (section.objectValue?["section"] ?? .null, keys.compactMap(\.stringValue))
            })
        } else if case .array(let stages)? = members["stages"], case .array(let events)? = members["events"] {
            self = .change(stages: try stages.map(Self.stage), events: events.map { event in
                let o = event.objectValue ?? [:]
                return ReplayedEvent(type: o["type"]?.stringValue ?? "", key: o["key"]?.stringValue ?? "",
                                     prevKey: o["prevKey"]?.stringValue, change: o["change"]?.intValue ?? 0)
            })
        } else {
            throw REPLTestError("unknown line: \(line)")
        }
    }

    private static func stage(_ value: JSONValue) throws -> (BatchStage, counts: [Int]) {
        let o = value.objectValue ?? [:]
        func ints(_ name: String) throws -> [Int] {
            guard case .array(let items)? = o[name] else { throw REPLTestError("no \(name) in \(value)") }
            return items.compactMap(\.intValue)
        }
        func paths(_ name: String) throws -> [RowPath] {
            guard case .array(let items)? = o[name] else { throw REPLTestError("no \(name) in \(value)") }
            return items.map { item in
                let pair = item.arrayValue?.compactMap(\.intValue) ?? []
                return RowPath(section: pair.first ?? -1, row: pair.last ?? -1)
            }
        }
        guard case .array(let movedSections)? = o["movedSections"], case .array(let movedRows)? = o["movedRows"] else {
            throw REPLTestError("no moves in \(value)")
        }
        let stage = BatchStage(
            deletedSections: try ints("deletedSections"), insertedSections: try ints("insertedSections"),
            reloadedSections: try ints("reloadedSections"),
            movedSections: movedSections.map { m in
                let pair = m.arrayValue?.compactMap(\.intValue) ?? []
                return SectionMove(from: pair.first ?? -1, to: pair.last ?? -1)
            },
            deletedRows: try paths("deletedRows"), insertedRows: try paths("insertedRows"),
            reloadedRows: try paths("reloadedRows"),
            movedRows: movedRows.map { m in
                let ends = (m.arrayValue ?? []).map { $0.arrayValue?.compactMap(\.intValue) ?? [] }
                return RowMove(from: RowPath(section: ends.first?.first ?? -1, row: ends.first?.last ?? -1),
                               to: RowPath(section: ends.last?.first ?? -1, row: ends.last?.last ?? -1))
            })
        return (stage, try ints("counts"))
    }
}

/// Applies stages to the rows a list view holds and checks each against
/// UIKit's rules and the counts reported with it.
struct StageMirror {
    var rows: [[String]] = [[]]

    /// Applies `stages`; inserted rows and sections come from `final` (what
    /// `show` gives after the change), as a list view asks its data source.
    mutating func apply(_ stages: [(BatchStage, counts: [Int])], final: [[String]]) throws {
        for (stage, counts) in stages {
            let next = try BatchUpdateChecker.apply(stage, to: rows, inserting: { final[$0.section][$0.row] },
                                                    insertingSection: { final[$0] })
            // UIKit asks the data source for the counts after each batch.
            _ = try BatchUpdateChecker.apply(stage, toCounts: rows.map(\.count), newCounts: counts)
            guard next.map(\.count) == counts else {
                throw REPLTestError("stage \(stage) leaves counts \(next.map(\.count)), reported \(counts)")
            }
            rows = next
        }
    }
}

extension JSONValue {
    var intValue: Int? { numberValue.map { Int($0) } }
}
