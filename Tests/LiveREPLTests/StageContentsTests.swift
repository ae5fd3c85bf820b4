// StageContentsTests.swift — with stage contents recorded, each change's
// stages and the keys they fill in turn the keys shown before the change
// into the keys shown after it, with nothing read from the rows after:
// what the inspector page relies on.

@testable import LiveREPL
import LiveModel
import LiveSections
import LiveTestSupport
import Testing

@MainActor
@Suite("Stage contents: the stages and the keys they fill in give the sections after", .timeLimit(.minutes(5)))
struct StageContentsTests {
    @Test("random sessions", arguments: OfflineMirrorTests.seeds())
    func randomSession(_ seed: UInt64) async throws {
        var rng = SplitMix64(seed: seed)
        let session = try Session(source: .offline, path: "/items", options: try QueryOptions.parse(["--order-by", "score"]))
        session.recordsStageContents = true
        try await session.start()
        var keys = session.sectionKeys().map(\.keys)
        var commands = ["query --order-by score --section-by group"]
        for _ in 0..<250 { commands.append(OfflineMirrorTests.command(&rng).0) }
        var filledSections = 0
        for (i, line) in commands.enumerated() {
            let context = "seed \(seed), command \(i + 1) `\(line)`"
            let output: CommandOutput
            do { output = try await session.run(try CommandParser.parse(line)) } catch {
                #expect(line == "load next", "\(context): \(error)")
                continue
            }
            guard case .change(let report) = output else { Issue.record("\(context): \(output)"); return }
            for reported in report.stages {
                let contents = try #require(reported.contents, "\(context): a stage without contents")
                let stage = reported.stage
                #expect(contents.insertedRows.count == stage.insertedRows.count, "\(context)")
                #expect(contents.insertedSections.count == stage.insertedSections.count, "\(context)")
                #expect(contents.reloadedSections.count == stage.reloadedSections.count, "\(context)")
                let rows = Dictionary(zip(stage.insertedRows, contents.insertedRows), uniquingKeysWith: { a, _ in a })
                var fresh: [Int: [Key]] = [:]
                for (s, section) in zip(stage.insertedSections, contents.insertedSections) { fresh[s] = section.keys }
                filledSections += fresh.count
                do {
                    keys = try BatchUpdateChecker.apply(stage, to: keys, newCounts: reported.counts,
                                                        inserting: { rows[$0] ?? "?" }, insertingSection: { fresh[$0] ?? [] })
                } catch {
                    Issue.record("\(context): \(error)")
                    return
                }
            }
            #expect(keys == session.sectionKeys().map(\.keys), "\(context)")
            if keys != session.sectionKeys().map(\.keys) { return }
        }
        #expect(filledSections > 10, "seed \(seed): sections were rarely filled whole")
    }
}
