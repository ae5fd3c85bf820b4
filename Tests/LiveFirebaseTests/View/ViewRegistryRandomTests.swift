// ViewRegistryRandomTests.swift — seeded runs of views opened, written to
// and let go at random locations of one database: what a new view shows at
// once is exactly what the others hold whole of its location.
@testable import LiveFirebase
import LiveModel
import LiveTestSupport
import Testing

@Suite("ViewRegistry, randomised")
struct ViewRegistryRandomTests {
    /// Keys that JSON text must escape, and one that is not ASCII.
    private static let names = ["a", #"q"\"#, "é"].map { Key(unchecked: $0) }

    @Test("a new view shows the location's value when a view at or above holds it whole, else each child held whole")
    func shownAtOnce() throws {
        for seed in TestSeed.all("ViewRegistryRandomTests", defaults: [1, 2, 3, 4, 0xFACE], fresh: true) {
            try run(seed)
        }
    }

    private func run(_ seed: TestSeed) throws {
        var rng = seed.generator
        var server = Self.tree(&rng, depth: 3)
        let registry = ViewRegistry()
        var views: [(path: [Key], view: QueryView)] = []
        for step in 0..<80 {
            switch rng.next() % 5 {
            case 0, 1:
                // A view opens with its stream's first value; one of a
                // limit gets the window the server cut (never whole).
                // Mostly deep: views below the locations asked about.
                let path = Self.path(&rng, from: 1)
                let limited = rng.next() % 4 == 0
                let view = QueryView(query: limited ? DatabaseQuery().limited(toFirst: 1) : DatabaseQuery())
                _ = view.apply([([], Self.snapshot(server[path: DatabasePath(uncheckedKeys: path)]))], filtered: limited)
                view.isConfirmed = true
                registry.add(view, at: path)
                views.append((path, view))
            case 2:
                // The server's data changes; the unlimited views are told.
                let path = Self.path(&rng)
                let value: JSONValue = rng.next() % 3 == 0 ? .null : Self.tree(&rng, depth: 3 - path.count)
                server = server.replacing(path[...], with: value)
                for (at, view) in views where view.query.limit == nil {
                    if path.starts(with: at) {
                        _ = view.apply([(Array(path.dropFirst(at.count)), Self.snapshot(value))], filtered: false)
                    } else if at.starts(with: path) {
                        let below = server[path: DatabasePath(uncheckedKeys: at)]
                        _ = view.apply([([], Self.snapshot(below))], filtered: false)
                    }
                }
            case 3 where !views.isEmpty:
                let gone = views.remove(at: Int(rng.next() % UInt64(views.count)))
                if rng.next() % 2 == 0 { registry.remove(gone.view) } // else released
            default:
                // Often just above a view.
                let path = rng.next() % 2 == 0 && !views.isEmpty
                    ? Array(views[Int(rng.next() % UInt64(views.count))].path.dropLast()) : Self.path(&rng)
                let fresh = QueryView(query: DatabaseQuery())
                if let payload = registry.known(at: path)?.payload(order: fresh.query.order) {
                    _ = fresh.apply(payload, filtered: false)
                }
                let shown = Dictionary(uniqueKeysWithValues: fresh.visible.map { ($0.key!.string, $0.value.jsonText(sortedKeys: true)) })
                let expected = Self.expected(at: path, server, views)
                #expect(shown == expected, "seed \(seed) step \(step) at /\(path.map(\.string).joined(separator: "/"))")
                if shown != expected { return }
            }
        }
    }

    /// What a new view at `path` shows at once, from the server's data.
    private static func expected(at path: [Key], _ server: JSONValue, _ views: [(path: [Key], view: QueryView)])
        -> [String: String] {
        func value(_ p: [Key]) -> JSONValue { server[path: DatabasePath(uncheckedKeys: p)] ?? .null }
        let whole = views.contains { path.starts(with: $0.path) && $0.view.query.limit == nil }
        var children: [String: String] = [:]
        if whole {
            for (name, child) in value(path).objectValue ?? [:] where child != .null {
                children[name] = child.jsonText(sortedKeys: true)
            }
        } else {
            for (at, view) in views where view.query.limit == nil && at.count == path.count + 1 && at.starts(with: path) {
                let child = value(at)
                if child != .null { children[at.last!.string] = child.jsonText(sortedKeys: true) }
            }
        }
        return children
    }

    private static func path(_ rng: inout SplitMix64, from shortest: Int = 0) -> [Key] {
        (0..<(shortest + Int(rng.next() % UInt64(4 - shortest)))).map { _ in names[Int(rng.next() % 3)] }
    }

    private static func tree(_ rng: inout SplitMix64, depth: Int) -> JSONValue {
        guard depth > 0, rng.next() % 3 != 0 else { return .number(Double(rng.next() % 5)) }
        var members = JSONObject()
        for name in names where rng.next() % 2 == 0 { members[name.string] = tree(&rng, depth: depth - 1) }
        return members.isEmpty ? .string("x") : .object(members)
    }

    private static func snapshot(_ value: JSONValue?) -> Snapshot {
        (try? Snapshot.parse(json: (value ?? .null).jsonText())) ?? .absent(key: nil)
    }
}
