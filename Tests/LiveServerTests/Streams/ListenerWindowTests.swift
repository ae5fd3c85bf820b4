import Testing
import LiveModel
@testable import LiveServer

/// A limited query listener keeps its window with an ordered index and
/// updates it from the children a write touches. After every write, the
/// window it holds is the oracle ``DatabaseQuery/window(of:)`` of the store, and
/// the events it emitted, applied to the old window, give the new one.
@Suite("Listener windows, differential")
struct ListenerWindowTests {
    static let location: DatabasePath = "/rooms/r"
    /// The keys of the location's children: the boundary keys of the query
    /// suite, and enough others that a window sits inside many children.
    static let keys = QueryDifferentialTests.keys + (0..<120).map { "m\($0)" }

    @Test func limitedWindowsFollowEveryWrite() throws {
        let seed = storeTestSeed("ListenerWindowTests")
        var draw = QueryDifferentialTests.Draw(rng: SplitMix64(seed: seed))
        var checked = 0, changed = 0, shifted = 0
        var kinds: Set<String> = []
        for round in 0..<80 {
            var spec = draw.spec()
            let count = Int.random(in: 0...12, using: &draw.rng)
            spec.limit = (draw.chance(0.5) ? "limitToFirst" : "limitToLast", count)
            let query = try #require(try DatabaseQuery(parameters: spec.parameters), "seed \(seed), round \(round): \(spec)")
            var store = Store()
            _ = try store.set(Self.location, json: Self.locationValue(&draw), now: 0)
            let window = ListenerWindow(query, of: store.get(Self.location))
            #expect(Set(window.members.keys) == Set(query.window(of: store.get(Self.location)).map(\.key)),
                    "seed \(seed), round \(round): \(spec), first window")
            var mirror = window.members
            for step in 0..<60 {
                let (mutation, label) = try Self.randomWrite(&draw, &store)
                kinds.insert(String(label.prefix { $0 != " " }))
                let changes = StreamPlanner.windowChanges(for: mutation, at: Self.location, in: store, window: window)
                let events = StreamPlanner.events(telling: changes, export: true)
                let before = mirror
                try StreamPlannerTests.apply(events, to: &mirror)
                if mirror != before { changed += 1 }
                // A child the write did not touch entered or left: the window's ends moved.
                if before.keys.contains(where: { mirror[$0] == nil && !Self.touches(mutation, $0) })
                    || mirror.keys.contains(where: { before[$0] == nil && !Self.touches(mutation, $0) }) { shifted += 1 }
                let expected = query.window(of: store.get(Self.location))
                let context = "seed \(seed), round \(round), step \(step): \(spec), \(label)"
                #expect(Set(window.members.keys) == Set(expected.map(\.key)), "\(context)")
                for child in expected { #expect(window.members[child.key] == child.node, "\(context): \(child.key)") }
                #expect(mirror == window.members, "\(context): events \(events.map(\.data))")
                #expect(window.ordered()?.map(\.key) == expected.map(\.key), "\(context): in order")
                checked += 1
            }
        }
        #expect(checked == 80 * 60)
        // Every kind of write happened, many changed the window, and many
        // moved a child the write did not touch across one of its ends.
        #expect(kinds == ["put", "patch", "delete", "deep", "replace", "above", "elsewhere"], "\(kinds.sorted())")
        #expect(changed > checked / 8, "seed \(seed): only \(changed) of \(checked) writes changed a window")
        #expect(shifted > checked / 40, "seed \(seed): only \(shifted) of \(checked) writes moved a window's ends")
        print("ListenerWindowTests: \(changed) of \(checked) writes changed a window, \(shifted) moved its ends")
    }

    /// Whether `mutation` writes the child `key` of the location (or its
    /// whole value).
    static func touches(_ mutation: Mutation, _ key: Key) -> Bool {
        StreamPlanner.touches(mutation, DatabasePath(uncheckedKeys: location.keys + [key]))
    }

    /// The location's value: between 20 and 100 children.
    static func locationValue(_ draw: inout QueryDifferentialTests.Draw) -> JSONValue {
        var members = JSONObject()
        for _ in 0..<Int.random(in: 20...100, using: &draw.rng) { members[draw.pick(keys)] = draw.child() }
        return .object(members)
    }

    /// One write, labelled by its kind first: a child set, several children
    /// merged (some removed), a child removed, a value deep in a child (its
    /// sort value under `a` or `b/c`), the whole location, its parent, or a
    /// sibling location.
    static func randomWrite(_ draw: inout QueryDifferentialTests.Draw,
                            _ store: inout Store) throws -> (Mutation, String) {
        let key = draw.pick(keys)
        let child = try location.child(Key(key))
        switch Int.random(in: 0..<20, using: &draw.rng) {
        case 0..<5:
            let value = draw.child()
            let writes = try store.set(child, json: value, now: 0)
            return (Mutation(base: child, isMerge: false, writes: writes), "put \(key) \(value)")
        case 5..<9:
            var members = JSONObject()
            for _ in 0..<Int.random(in: 1...8, using: &draw.rng) {
                members[draw.pick(keys)] = draw.chance(0.25) ? .null : draw.child()
            }
            let writes = try store.update(location, json: .object(members), now: 0)
            return (Mutation(base: location, isMerge: true, writes: writes), "patch \(members)")
        case 9..<12:
            let writes = try store.set(child, json: .null, now: 0)
            return (Mutation(base: child, isMerge: false, writes: writes), "delete \(key)")
        case 12..<17:
            let path = try child.appending(DatabasePath(draw.chance(0.5) ? "a" : "b/c"))
            let value = draw.primitive()
            let writes = try store.set(path, json: value, now: 0)
            return (Mutation(base: path, isMerge: false, writes: writes), "deep \(path) \(value)")
        case 17:
            let value = draw.chance(0.1) ? JSONValue.null : locationValue(&draw)
            let writes = try store.set(location, json: value, now: 0)
            return (Mutation(base: location, isMerge: false, writes: writes), "replace")
        case 18:
            let parent: DatabasePath = "/rooms"
            let writes = try store.update(parent, json: .object(["r": locationValue(&draw), "s": 1]), now: 0)
            return (Mutation(base: parent, isMerge: true, writes: writes), "above")
        default:
            let sibling = try DatabasePath("/rooms/s").child(Key(key))
            let writes = try store.set(sibling, json: draw.child(), now: 0)
            return (Mutation(base: sibling, isMerge: false, writes: writes), "elsewhere \(sibling)")
        }
    }
}
