// OrderIndexTests.swift — an order index answers every query in its order
// as the brute-force oracle does, across writes it takes in.

import LiveModel
@testable import LiveServer
import Testing

@Suite("OrderIndex")
struct OrderIndexTests {
    typealias Draw = QueryDifferentialTests.Draw

    @Test("queries answered from an index kept across writes match the oracle")
    func randomQueriesAcrossWrites() throws {
        let seed = storeTestSeed("OrderIndexTests")
        var draw = Draw(rng: SplitMix64(seed: seed))
        var checked = 0
        var nonEmpty = 0
        for round in 0..<30 {
            var store = Store(root: try DataNode(json: draw.node()))
            var indexes: [QueryOrder: OrderIndex] = [:]
            for step in 0..<12 {
                if step > 0 {
                    // One child written, replaced or deleted; every index takes it in.
                    let key = Key(unchecked: draw.pick(QueryDifferentialTests.keys))
                    let value: JSONValue = draw.chance(0.25) ? .null : draw.child()
                    _ = try store.set(DatabasePath(uncheckedKeys: [key]), json: value, now: 0)
                    for index in indexes.values { index.update([key], in: store.get(.root)) }
                }
                let node = store.get(.root)
                for _ in 0..<8 {
                    let spec = draw.spec()
                    let query = try #require(try DatabaseQuery(parameters: spec.parameters), "seed \(seed): \(spec)")
                    let index = indexes[query.order] ?? OrderIndex(query.order, of: node)
                    indexes[query.order] = index
                    let actual = index.keys(of: query)
                    let expected = QueryOracle.window(spec, of: node)
                    #expect(actual == expected, """
                        seed \(seed), round \(round), step \(step): \(spec)
                        data \(node)
                        got      \(actual.map(\.string))
                        expected \(expected.map(\.string))
                        replay: LIVE_TEST_SEED=\(seed)
                        """)
                    #expect(index.window(of: query, in: node).map(\.node) == actual.map { node.child($0) })
                    checked += 1
                    if !expected.isEmpty { nonEmpty += 1 }
                }
            }
        }
        #expect(checked >= 2_500)
        #expect(nonEmpty > checked / 3, "seed \(seed): only \(nonEmpty) of \(checked) windows not empty")
    }

    @Test("a leaf or an empty location has no children to index")
    func leafAndEmpty() throws {
        let query = try #require(try DatabaseQuery(parameters: ["orderBy": #""$key""#, "limitToFirst": "2"]))
        #expect(OrderIndex(.key, of: .empty).keys(of: query).isEmpty)
        #expect(OrderIndex(.key, of: try storeNode("7")).keys(of: query).isEmpty)
    }
}
