// OrderedChildrenTests.swift — a snapshot's children in query order, made by
// the core's index in bulk, against a comparison sort of the same children.
@testable import LiveModel
import Testing

@Suite("Snapshot.orderedChildren")
struct OrderedChildrenTests {
    static let orders: [QueryOrder] = [.priority, .key, .value, .child(DatabasePath(uncheckedKeys: ["s"]))]

    /// A random member value: every kind a sort value can be.
    static func value(_ rng: inout SplitMix64) -> String {
        switch Int.random(in: 0..<8, using: &rng) {
        case 0: return "null"
        case 1: return Bool.random(using: &rng) ? "true" : "false"
        case 2: return String(Int.random(in: -3...3, using: &rng))
        case 3: return String(Double(Int.random(in: -30...30, using: &rng)) / 7)
        case 4: return "\"" + ["", "a", "b", "10", "2", "é", "e\\u0301", "A"].randomElement(using: &rng)! + "\""
        case 5: return #"{"x": 1}"#
        case 6: return #"{".value": 4, ".priority": "p"}"#
        default: return #"{"s": \#(Int.random(in: 0...4, using: &rng)), ".priority": \#(Int.random(in: 0...2, using: &rng))}"#
        }
    }

    @Test("the index's order is the comparison sort's, for every order and kind of value and key", arguments: orders)
    func sameAsComparisonSort(_ order: QueryOrder) throws {
        let seed = testSeed("OrderedChildrenTests.sameAsComparisonSort")
        var rng = SplitMix64(seed: seed)
        let keys = ["a", "b", "1", "2", "10", "-1", "01", "ab", "Z", "9999999999", "-", "k"]
        for round in 0..<200 {
            var members: [String] = []
            for key in keys.shuffled(using: &rng).prefix(Int.random(in: 0...keys.count, using: &rng)) {
                members.append("\"\(key)\": \(Self.value(&rng))")
            }
            let json = "{" + members.joined(separator: ", ") + "}"
            let snapshot = try Snapshot.parse(json: json, order: order)
            let expected = Array(snapshot.children).sorted { a, b in
                let byValue = SortValue.compare(a.sortValue, b.sortValue)
                if byValue != 0 { return byValue < 0 }
                return a.key! < b.key!
            }
            #expect(snapshot.orderedChildren().map(\.key) == expected.map(\.key),
                    "seed \(seed) round \(round) \(order): \(json)")
        }
    }
}
