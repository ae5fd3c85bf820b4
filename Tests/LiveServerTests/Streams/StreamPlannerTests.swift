import Testing
import LiveModel
@testable import LiveServer

/// A query listener's events, applied to a mirror of its window, always
/// rebuild the window the query selects from the store (the oracle
/// ``DatabaseQuery/window(of:)``), whether a write below the location takes the
/// per-child path or a write at or above it recomputes the window.
@Suite("Stream planner, differential")
struct StreamPlannerTests {
    static let location: DatabasePath = "/items"

    @Test func eventsRebuildTheQueryWindow() throws {
        let seed = storeTestSeed("StreamPlannerTests")
        var draw = QueryDifferentialTests.Draw(rng: SplitMix64(seed: seed))
        var checkedWrites = 0
        for round in 0..<60 {
            let spec = draw.spec()
            let query = try #require(try DatabaseQuery(parameters: spec.parameters), "seed \(seed), round \(round): \(spec)")
            var store = Store()
            _ = try store.set(Self.location, json: draw.node(), now: 0)
            let window = ListenerWindow(query, of: store.get(Self.location))
            var mirror = window.members
            for step in 0..<40 {
                let (mutation, label) = try Self.randomMutation(&draw, &store)
                let changes = StreamPlanner.windowChanges(for: mutation, at: Self.location, in: store, window: window)
                let events = StreamPlanner.events(telling: changes, export: true)
                try Self.apply(events, to: &mirror)
                let expected = query.window(of: store.get(Self.location))
                let context = "seed \(seed), round \(round), step \(step): \(spec), \(label)"
                #expect(Set(mirror.keys) == Set(expected.map(\.key)), "\(context)")
                for child in expected { #expect(mirror[child.key] == child.node, "\(context): \(child.key)") }
                #expect(window.members == mirror, "\(context)")
                checkedWrites += 1
            }
        }
        #expect(checkedWrites == 60 * 40)
    }

    /// One write: a child set or removed, a value deep in a child, a merge
    /// of several children, or (rarely) the whole location.
    static func randomMutation(_ draw: inout QueryDifferentialTests.Draw,
                               _ store: inout Store) throws -> (Mutation, String) {
        let key = draw.pick(QueryDifferentialTests.keys)
        let child = try location.child(Key(key))
        switch Int.random(in: 0..<10, using: &draw.rng) {
        case 0:
            let value = draw.node()
            let writes = try store.set(location, json: value, now: 0)
            return (Mutation(base: location, isMerge: false, writes: writes), "set / \(value)")
        case 1:
            let writes = try store.set(child, json: .null, now: 0)
            return (Mutation(base: child, isMerge: false, writes: writes), "remove \(key)")
        case 2, 3:
            let path = try child.appending(DatabasePath(draw.chance(0.5) ? "a" : "b/c"))
            let value = draw.primitive()
            let writes = try store.set(path, json: value, now: 0)
            return (Mutation(base: path, isMerge: false, writes: writes), "set \(path) \(value)")
        case 4, 5:
            var members = JSONObject()
            for _ in 0..<Int.random(in: 1...3, using: &draw.rng) {
                members[draw.pick(QueryDifferentialTests.keys)] = draw.chance(0.2) ? .null : draw.child()
            }
            let writes = try store.update(location, json: .object(members), now: 0)
            return (Mutation(base: location, isMerge: true, writes: writes), "update \(members)")
        default:
            let value = draw.child()
            let writes = try store.set(child, json: value, now: 0)
            return (Mutation(base: child, isMerge: false, writes: writes), "set \(key) \(value)")
        }
    }

    /// Applies a listener's `put`s and `patch`es at or below the root.
    static func apply(_ events: [FramedEvent], to mirror: inout [Key: DataNode]) throws {
        for event in events {
            let payload = try #require(try JSONValue(parsing: event.data).objectValue, "\(event.data)")
            let path = try DatabasePath(try #require(payload["path"]?.stringValue))
            let data = payload["data"] ?? .null
            switch event.name {
            case "put" where path.isRoot:
                mirror = [:]
                for (key, child) in data.objectValue ?? [:] { mirror[try Key(key)] = try DataNode(json: child) }
            case "put":
                try #require(path.depth == 1, "a query listener's put below a child: \(path)")
                let node = try DataNode(json: data)
                mirror[path.keys[0]] = node.isEmpty ? nil : node
            case "patch":
                try #require(path.isRoot, "a query listener's patch below the root: \(path)")
                for (key, child) in data.objectValue ?? [:] {
                    let node = try DataNode(json: child)
                    mirror[try Key(key)] = node.isEmpty ? nil : node
                }
            default:
                Issue.record("unexpected event \(event.name)")
            }
        }
    }
}
