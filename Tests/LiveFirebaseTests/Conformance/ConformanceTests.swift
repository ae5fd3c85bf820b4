// ConformanceTests.swift — Firebase's own event vectors.

import Foundation
import LiveModel
import Testing

@Suite("Firebase event conformance (syncPointSpec.json)")
struct ConformanceTests {
    @Test("every scenario a server-fed client can express raises exactly Firebase's child events")
    func syncPointSpec() throws {
        let url = try #require(Bundle.module.url(forResource: "syncPointSpec", withExtension: "json"))
        let spec = try JSONValue(parsing: String(decoding: try Data(contentsOf: url), as: UTF8.self))
        let scenarios = try #require(spec.arrayValue)
        var passed = 0, skipped: [(String, String)] = [], failed: [(String, String)] = []
        for scenario in scenarios {
            let runner = ConformanceRunner(scenario: scenario)
            switch runner.run() {
            case .passed: passed += 1
            case .skipped(let reason): skipped.append((runner.name, reason))
            case .failed(let step, let detail): failed.append((runner.name, "step \(step): \(detail)"))
            }
        }
        print("syncPointSpec: \(passed) passed / \(skipped.count) skipped / \(failed.count) failed of \(scenarios.count)")
        for (name, reason) in skipped { print("  skipped: \(name): \(reason)") }
        for (name, detail) in failed { print("  FAILED: \(name): \(detail)") }
        #expect(failed.isEmpty, "\(failed.count) scenarios failed: \(failed.map(\.0))")
    }
}
