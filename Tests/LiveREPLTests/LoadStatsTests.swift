// LoadStatsTests.swift — `stats` reports the initial load's phases: in
// --json as a `load` object, in human output as a `load:` line. Only the
// fields and their consistency are checked, never timings.

import Foundation
import LiveModel
import Testing

@Suite("stats: the initial load's phases", .serialized)
struct LoadStatsTests {
    static let phases = ["transferMs", "parseMs", "indexMs", "sectionsMs"]

    @Test("--json: a load object whose phases add up to no more than the total")
    func json() async throws {
        let run = try await REPLProcess.run(["--sample", "300", "--order-by", "score", "--section-by", "group", "--json"],
                                            input: "stats\n")
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let line = try #require(run.lines.first)
        let members = try #require(try JSONValue(parsing: line).objectValue, "\(line)")
        #expect(members["text"] != nil, "the text lines stay: \(line)")
        let load = try #require(members["load"]?.objectValue, "no load object: \(line)")
        #expect(load["children"]?.numberValue == 300)
        #expect((load["bytes"]?.numberValue ?? 0) > 0)
        var sum = 0.0
        for field in Self.phases {
            let value = try #require(load[field]?.numberValue, "no \(field): \(line)")
            #expect(value >= 0, "\(field) \(value)")
            sum += value
        }
        #expect((load["sectionsMs"]?.numberValue ?? 0) > 0, "the sections are made with the load: \(line)")
        let total = try #require(load["totalMs"]?.numberValue, "no totalMs: \(line)")
        // Each phase is rounded on its own: allow a microsecond per phase.
        #expect(sum <= total + 0.004, "phases \(sum) ms > total \(total) ms: \(line)")
    }

    @Test("offline, human output: a load line with every phase")
    func human() async throws {
        let run = try await REPLProcess.run(["--offline", "--sample", "5", "--section-by", "group"], input: "stats\n")
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        let load = try #require(run.lines.first { $0.hasPrefix("load: ") }, "\(run.stdout)")
        for word in ["transfer", "parse", "index", "sections"] { #expect(load.contains(word), "\(load)") }
    }
}
