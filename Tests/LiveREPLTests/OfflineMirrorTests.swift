// OfflineMirrorTests.swift — random seeded sessions of the offline REPL:
// after every command, its --json stages, applied to a mirror under UIKit's
// batch rules, reproduce `show`, and its child events, applied by
// prevKey, reproduce the order.

import Foundation
import LiveModel
import LiveTestSupport
import Testing

@Suite("live-repl offline: stages and events reproduce show")
struct OfflineMirrorTests {
    static func seeds() -> [UInt64] {
        TestSeed.all("randomSession", defaults: [1, 2, 3]).map(\.value)
    }

    /// One random command that changes the collection, and whether it
    /// replaces the collection (a new query or load mode).
    static func command(_ rng: inout SplitMix64) -> (String, replaces: Bool) {
        let key = "k\(Int.random(in: 0..<12, using: &rng))"
        func child(_ rng: inout SplitMix64) -> String {
            var members = [#""score": \#(Int.random(in: 0..<6, using: &rng))"#]
            if Int.random(in: 0..<4, using: &rng) > 0 { members.append(#""group": "g\#(Int.random(in: 0..<3, using: &rng))""#) }
            return "{" + members.joined(separator: ", ") + "}"
        }
        switch Int.random(in: 0..<20, using: &rng) {
        case 0..<6: return ("put /\(key) \(child(&rng))", false)
        case 6..<8: return ("put /\(key) null", false)
        case 8..<10: return ("put /\(key)/score \(Int.random(in: 0..<6, using: &rng))", false)
        case 10: return ("put /\(key)/group \"g\(Int.random(in: 0..<3, using: &rng))\"", false)
        case 11..<14:
            var members: [String] = []
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let other = "k\(Int.random(in: 0..<12, using: &rng))"
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: members.append(#""\#(other)": null"#)
                case 1: members.append(#""\#(other)/score": \#(Int.random(in: 0..<6, using: &rng))"#)
                default: members.append(#""\#(other)": \#(child(&rng))"#)
                }
            }
            return ("patch / {" + members.joined(separator: ", ") + "}", false)
        case 14:
            var members: [String] = []
            for i in 0..<Int.random(in: 0...8, using: &rng) { members.append(#""k\#(i * 2)": \#(child(&rng))"#) }
            return ("put / {" + members.joined(separator: ", ") + "}", false)
        case 15, 16:
            let orders = ["score", "$key", "group", "$priority"]
            var text = "query --order-by \(orders[Int.random(in: 0..<orders.count, using: &rng)])"
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: text += " --limit-first \(Int.random(in: 1...5, using: &rng))"
            case 1: text += " --limit-last \(Int.random(in: 1...5, using: &rng))"
            default: break
            }
            if Bool.random(using: &rng) { text += " --section-by group" }
            return (text, true)
        case 17: return (["load live", "load all", "load page \(Int.random(in: 1...4, using: &rng))"][Int.random(in: 0..<3, using: &rng)], true)
        default: return ("load next", false)
        }
    }

    @Test("random sessions", arguments: seeds())
    func randomSession(_ seed: UInt64) async throws {
        var rng = SplitMix64(seed: seed)
        var commands: [(String, replaces: Bool)] = [("query --order-by score --section-by group", true)]
        for _ in 0..<250 { commands.append(Self.command(&rng)) }
        var input = ""
        for (command, _) in commands { input += command + "\nshow\n" }
        let run = try await REPLProcess.run(["--offline", "--json"], input: input)
        #expect(run.status == 0 || commands.contains { $0.0 == "load next" }, "seed \(seed): \(run.stderr)")
        let lines = run.lines
        try #require(lines.count == commands.count * 2, "seed \(seed): \(lines.count) lines for \(commands.count) commands")

        var mirror = StageMirror()
        var flat: [String] = []
        var sectionedRuns = 0
        for (i, (command, replaces)) in commands.enumerated() {
            let context = "seed \(seed), command \(i + 1) `\(command)`"
            let change = try REPLLine(lines[2 * i]), shown = try REPLLine(lines[2 * i + 1])
            guard case .show(let sections) = shown else { Issue.record("\(context): no show: \(lines[2 * i + 1])"); return }
            let final = sections.map(\.keys)
            if case .error(let message) = change {
                // Only `load next` outside page mode may fail, and it changes nothing.
                #expect(command == "load next" && message.contains("needs pages"), "\(context): \(message)")
                #expect(mirror.rows == final, "\(context): an error changed the rows")
                continue
            }
            guard case .change(let stages, let events) = change else { Issue.record("\(context): \(lines[2 * i])"); return }
            do { try mirror.apply(stages, final: final) } catch {
                Issue.record("\(context): \(error)")
                return
            }
            #expect(mirror.rows == final, "\(context): stages give \(mirror.rows), show gives \(final)")
            // Child events by prevKey rebuild the query order.
            if replaces { flat = [] }
            LiveViewTests.apply(events, to: &flat)
            if sections.count > 1 { sectionedRuns += 1 }
            #expect(Set(flat) == Set(final.flatMap { $0 }), "\(context): events give \(flat)")
            if sections.count <= 1 { #expect(flat == final.flatMap { $0 }, "\(context): events give \(flat)") }
        }
        #expect(sectionedRuns > 20, "seed \(seed): the draw rarely had several sections")
    }
}
