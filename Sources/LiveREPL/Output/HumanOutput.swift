// HumanOutput.swift — command output for a person: index-path operations,
// events and rows, in colour on a terminal.

import LiveFirebase
import LiveModel
import LiveSections

/// Renders command output as readable lines.
public struct HumanOutput: Sendable {
    /// Whether to use ANSI colours (stdout is a terminal).
    public var colors: Bool

    /// Output with ANSI colours or without.
    public init(colors: Bool) { self.colors = colors }

    private func paint(_ text: String, _ code: String) -> String {
        colors ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    /// The lines for `output`.
    public func lines(for output: CommandOutput) -> [String] {
        switch output {
        case .change(let report): return change(report)
        case .replayed(let report, let verdict): return change(report) + verdict.map(\.terminalSafe)
        case .sections(let sections): return show(sections)
        case .text(let lines): return lines.map(\.terminalSafe)
        case .stats(let lines, let load): return lines.map(\.terminalSafe) + (load.map { [$0.line] } ?? [])
        case .synced(let children): return [paint("in sync with the server: \(children) children", "2")]
        case .nothing, .quit: return []
        }
    }

    /// A first load on its way, for one line redrawn in place:
    /// `loading: 5.2 MB, 36000 children (12.3 MB/s)`.
    public func progress(_ progress: LoadProgress) -> String {
        paint("loading: " + Session.megabytes(progress.bytes) + ", \(progress.children) children ("
              + Session.megabytes(Int(progress.bytesPerSecond)) + "/s)", "2")
    }

    /// The line that replaces ``progress(_:)`` once the load is in:
    /// `loaded 100000 children, 14.4 MB in 3.4 s`.
    public func loaded(_ load: InitialLoad) -> String {
        paint("loaded \(load.phases.children) children, " + Session.megabytes(load.phases.bytes)
              + String(format: " in %.1f s", load.totalMilliseconds / 1e3), "2")
    }

    /// `error: ...`.
    public func error(_ error: REPLError) -> String { paint("error: ", "1;31") + error.description.terminalSafe }

    /// A change: one line per stage, then one per child event.
    public func change(_ report: ChangeReport) -> [String] {
        if report.isEmpty { return [paint("no change", "2")] }
        var lines: [String] = report.stages.isEmpty && report.writes.isEmpty ? [paint("rows unchanged", "2")] : []
        for (i, reported) in report.stages.enumerated() {
            let ops = operations(reported.stage)
            let counts = "rows " + reported.counts.map(String.init).joined(separator: ",")
            lines.append(paint("stage \(i + 1):", "1") + " " + ops.joined(separator: "  ") + "  " + paint("→ \(counts)", "2"))
        }
        for event in report.events {
            let after = event.previousKey.map { " after \($0.string.terminalSafe)" } ?? " first"
            lines.append(paint("  \(event.type) \(event.key.string.terminalSafe)\(after)", "2"))
        }
        if let prepended = report.prepended {
            lines.append(paint("prepended \(prepended) row\(prepended == 1 ? "" : "s") above those shown", "2"))
        }
        for write in report.writes {
            let color = write.state == "reverted" ? "1;31" : write.state == "confirmed" ? "32" : "33"
            lines.append(paint("write \(write.id) \(write.state)", color) + (write.error.map { ": " + $0.terminalSafe } ?? ""))
        }
        return lines
    }

    func operations(_ s: BatchStage) -> [String] {
        func p(_ path: RowPath) -> String { "\(path.section).\(path.row)" }
        var ops: [String] = []
        if !s.deletedSections.isEmpty { ops.append(paint("delete section " + s.deletedSections.map(String.init).joined(separator: ","), "31")) }
        if !s.insertedSections.isEmpty { ops.append(paint("insert section " + s.insertedSections.map(String.init).joined(separator: ","), "32")) }
        if !s.movedSections.isEmpty { ops.append(paint("move section " + s.movedSections.map { "\($0.from)→\($0.to)" }.joined(separator: ","), "33")) }
        if !s.reloadedSections.isEmpty { ops.append(paint("reload section " + s.reloadedSections.map(String.init).joined(separator: ","), "36")) }
        if !s.deletedRows.isEmpty { ops.append(paint("delete " + s.deletedRows.map(p).joined(separator: ","), "31")) }
        if !s.insertedRows.isEmpty { ops.append(paint("insert " + s.insertedRows.map(p).joined(separator: ","), "32")) }
        if !s.movedRows.isEmpty { ops.append(paint("move " + s.movedRows.map { "\(p($0.from))→\(p($0.to))" }.joined(separator: ","), "33")) }
        if !s.reloadedRows.isEmpty { ops.append(paint("reload " + s.reloadedRows.map(p).joined(separator: ","), "36")) }
        return ops
    }

    /// `show`: each section's heading, then its rows: index, key, sorted-by
    /// value, summary.
    public func show(_ sections: [ShownSection]) -> [String] {
        var lines: [String] = []
        let keyWidth = min(24, sections.flatMap(\.rows).map(\.key.string.terminalSafe.count).max() ?? 0)
        let sortWidth = min(16, sections.flatMap(\.rows).map(\.sortValue.terminalSafe.count).max() ?? 0)
        for (index, section) in sections.enumerated() {
            let title = sections.count == 1 && section.value == .null ? "" : " " + section.value.jsonText().terminalSafe
            let rows = section.rows.count == 1 ? "1 row" : "\(section.rows.count) rows"
            lines.append(paint("section \(index)\(title)", "1") + paint(" (\(rows))", "2"))
            for (row, shown) in section.rows.enumerated() {
                let key = shown.key.string.terminalSafe.rightPadded(keyWidth)
                let sort = shown.sortValue.terminalSafe.rightPadded(sortWidth)
                lines.append("  \(String(row).leftPadded(4))  \(paint(key, "1"))  \(paint(sort, "33"))  \(shown.summary.terminalSafe)")
            }
        }
        return lines
    }
}

extension String {
    /// The text with every character a terminal would act on rather than
    /// show written as `\u{…}`: C0 and C1 controls (U+009B is a CSI on some
    /// terminals, as ESC `[` is), DEL, and the bidirectional overrides and
    /// isolates that would reorder what follows them on the line. Data
    /// (keys, values, errors) is printed through it, so that no child can
    /// move the cursor, change colours or disguise a key.
    /// - Complexity: O(length); returns `self` when nothing needs it.
    var terminalSafe: String {
        func acts(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
            default: return false
            }
        }
        guard unicodeScalars.contains(where: acts) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if acts(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Padded with spaces to `width` characters; never shortened.
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }

    /// Spaces appended up to `width` characters; never shortened, so a key
    /// keeps every code unit (Foundation's `padding(toLength:)` counts UTF-16
    /// units and would cut `"e\u{301}"` to `"e"`).
    func rightPadded(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
