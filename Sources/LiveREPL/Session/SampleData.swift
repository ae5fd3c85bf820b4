// SampleData.swift — children a newcomer can look at at once.

import LiveModel

/// `count` sample children, `item-001` …: a title, a score from 0 to 99, a
/// group of three (`g0`, `g1`, `g2`) and an update time; the same every run.
/// - Complexity: O(count).
public func sampleChildren(_ count: Int) -> JSONValue {
    guard count > 0 else { return .null }
    let width = String(count).count
    var members = JSONObject()
    members.reserveCapacity(count)
    var state: UInt64 = 0x5EED
    for i in 1...count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let score = Int((state >> 33) % 100)
        let number = String(i)
        let key = "item-" + String(repeating: "0", count: max(0, width - number.count)) + number
        members[key] = .object([
            "title": .string("Item \(i)"),
            "score": .number(Double(score)),
            "group": .string("g\(i % 3)"),
            "updated": .number(Double(1_790_000_000_000 + i * 1000)),
        ])
    }
    return .object(members)
}
