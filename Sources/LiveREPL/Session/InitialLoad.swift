// InitialLoad.swift — what a session's initial load cost, phase by phase,
// as `stats` prints it.

import Foundation
import LiveFirebase
import LiveModel

/// The phases of a session's initial load (`LoadPhases`): transfer,
/// parse, index, and the sections made of the loaded children (the
/// collection observers' share, `LoadPhases.observers`: zero without
/// `--section-by`, or when the load was taken on the main actor, where the
/// sections are part of the index phase). The phases follow each other;
/// ``totalMilliseconds`` also holds the waits between them, so they never
/// add up to more than it.
public struct InitialLoad: Sendable, Equatable {
    /// The collection's first load.
    public let phases: LoadPhases

    /// The load of these phases.
    public init(phases: LoadPhases) {
        self.phases = phases
    }

    /// First byte to last byte of the first `put`.
    public var transferMilliseconds: Double { phases.transfer.milliseconds }
    /// Parsing the first `put`'s payload.
    public var parseMilliseconds: Double { phases.parse.milliseconds }
    /// The query's view and the sorted collection taking the children
    /// (with the sections, when the load was taken on the main actor).
    public var indexMilliseconds: Double { phases.index.milliseconds }
    /// Building the sections from the loaded children, away from the main
    /// actor; zero without `--section-by`, or when the load was taken on
    /// the main actor (the index phase holds the sections then).
    public var sectionsMilliseconds: Double { phases.observers.milliseconds }
    /// First byte to the sections built.
    public var totalMilliseconds: Double { phases.total.milliseconds }

    /// `load: 100000 children, 14.4 MB in 3400.0 ms (transfer …, parse …, index …, sections …)`.
    var line: String {
        func ms(_ value: Double) -> String { String(format: "%.1f ms", value) }
        return "load: \(phases.children) children, " + Session.megabytes(phases.bytes)
            + " in \(ms(totalMilliseconds)) (transfer \(ms(transferMilliseconds)), parse \(ms(parseMilliseconds)), "
            + "index \(ms(indexMilliseconds)), sections \(ms(sectionsMilliseconds)))"
    }

    /// The `--json` form: `{"bytes", "children", "transferMs", "parseMs",
    /// "indexMs", "sectionsMs", "totalMs"}`.
    var json: JSONValue {
        .object([
            "bytes": .number(Double(phases.bytes)),
            "children": .number(Double(phases.children)),
            "transferMs": .number(transferMilliseconds),
            "parseMs": .number(parseMilliseconds),
            "indexMs": .number(indexMilliseconds),
            "sectionsMs": .number(sectionsMilliseconds),
            "totalMs": .number(totalMilliseconds),
        ])
    }
}

extension Duration {
    /// This duration in milliseconds.
    var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e3 + Double(attoseconds) / 1e15
    }
}
