// Timing.swift — medians of repeated runs and a table of figures beside baselines.
import Foundation
import LiveModel

enum Timing {
    /// Seconds taken by `body`.
    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        return try clock.measure(body).inSeconds
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// Runs `body` `times` times and returns the median of what it reports.
    static func medianOf(_ times: Int, _ body: () throws -> Double) rethrows -> Double {
        var results: [Double] = []
        for _ in 0..<max(1, times) { results.append(try body()) }
        return median(results)
    }
}

/// Prints rows of figures with a ratio against a named baseline.
struct Report {
    struct Row {
        let name: String
        let value: Double
        let unit: String
        let baseline: String?
        let ratio: Double?
        let target: String
    }

    private(set) var rows: [Row] = []
    let title: String

    init(title: String) { self.title = title }

    mutating func add(_ name: String, _ value: Double, unit: String, against baseline: (String, Double)? = nil,
                      target: String = "") {
        rows.append(Row(name: name, value: value, unit: unit, baseline: baseline?.0,
                        ratio: baseline.map { value / $0.1 }, target: target))
    }

    func print() {
        Swift.print("\n== \(title)")
        for r in rows {
            var line = r.name.padding(toLength: 58, withPad: " ", startingAt: 0)
            line += String(format: "%12.4f %-6@", r.value, r.unit as NSString)
            if let b = r.baseline, let ratio = r.ratio {
                line += String(format: "  %6.3fx %@", ratio, b as NSString)
            }
            if !r.target.isEmpty { line += "  [target \(r.target)]" }
            Swift.print(line)
        }
    }
}
