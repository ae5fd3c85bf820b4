// Session+Info.swift — what `query` without options and `stats` print.

import Foundation
import LiveCollection
import LiveFirebase
import LiveModel

extension Session {
    /// What `query` without options and `stats` print, without running a
    /// command: for a front end that shows them beside the rows.
    /// - Complexity: O(s) for s sections (`stats` reads the collection's
    ///   counts and the process's memory).
    public func information() -> (query: [String], stats: [String]) {
        (queryLines(), statsLines())
    }

    /// The query, the sections, the load mode and where data comes from.
    func queryLines() -> [String] {
        var lines = ["query: \(firebase.effectiveQuery)"]
        if !options.conditions.isEmpty {
            lines.append("where: " + options.conditions.compactMap { try? ChildCondition(parsing: $0).description }.joined(separator: ", "))
        }
        lines.append("sections: " + (options.sectionBy.map { "by \($0)" } ?? "one section"))
        switch mode {
        case .live: lines.append("load: live (child by child)")
        case .all: lines.append("load: all (one batch)")
        case .paged(let size):
            lines.append("load: pages of \(size), \(firebase.pages) loaded" + (firebase.hasMorePages ? ", more to load" : ", all loaded"))
        case .pagedFromEnd(let size):
            lines.append("load: pages of \(size) from the end, \(firebase.pages) loaded"
                + (firebase.hasMorePages ? ", older to load" : ", all loaded"))
        }
        switch source {
        case .offline: lines.append("source: offline (injected events only), location \(reference.path)")
        case .database: lines.append("source: \(reference), status \(firebase.status)")
        }
        return lines
    }

    /// Children, sections, memory and the event rate.
    func statsLines() -> [String] {
        let seconds = (ContinuousClock.now - started).inSeconds
        let rate = seconds > 0 ? Double(recorder.eventCount) / seconds : 0
        return [
            "children: \(firebase.collection.count)",
            "sections: \(view.numberOfSections)",
            "memory: " + (Self.residentBytes().map { Self.megabytes($0) } ?? "unknown") + " resident",
            "events: \(recorder.eventCount) in \(String(format: "%.1f", seconds)) s (\(String(format: "%.1f", rate))/s)",
        ]
    }

    nonisolated static func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1_048_576) }

    /// The process's resident memory, from `/proc/self/statm` (Linux).
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}

/// The text of `help`.
enum Help {
    static func lines(_ topic: String?) -> [String] {
        if let topic, let entry = commandUsages.first(where: { $0.name == topic }) {
            return ["\(entry.usage)", "  \(entry.summary)", "  example: \(entry.example)"]
        }
        var lines = ["Commands (PATH is relative to the listened location; JSON is the rest of the line):"]
        let width = commandUsages.map(\.usage.count).max() ?? 0
        for entry in commandUsages {
            lines.append("  " + entry.usage.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + entry.summary)
        }
        lines.append("Examples:")
        for entry in commandUsages where entry.example != entry.name { lines.append("  " + entry.example) }
        return lines
    }
}

extension Session {
    /// Number of children shown.
    public var childCount: Int { firebase.collection.count }
}
