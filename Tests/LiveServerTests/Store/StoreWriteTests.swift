import Testing
import LiveModel
@testable import LiveServer

@Suite("Store writes")
struct StoreWriteTests {
    static let now: Int64 = 1_700_000_000_000

    static func store(_ text: String) throws -> Store {
        Store(root: try storeNode(text))
    }

    @Test func setReplacesAndReturnsOneWrite() throws {
        var store = try Self.store(#"{"a": {"b": 1, "c": 2}}"#)
        let writes = try store.set("a", json: storeJSON(#"{"d": 3}"#), now: Self.now)
        #expect(writes == [Write(path: "/a", node: try storeNode(#"{"d": 3}"#))])
        #expect(store.get("a").json() == storeJSON(#"{"d": 3}"#))
        #expect(store.get("a/b").isEmpty)
    }

    @Test func setNullDeletesAndPrunesParents() throws {
        var store = try Self.store(#"{"a": {"b": {"c": 1}}, "x": 1}"#)
        let writes = try store.set("a/b/c", json: .null, now: Self.now)
        #expect(writes == [Write(path: "a/b/c", node: .empty)])
        #expect(writes[0].isDeletion)
        #expect(store.root.json() == storeJSON(#"{"x": 1}"#))
    }

    @Test func setAtRootAndBelowALeaf() throws {
        var store = Store()
        _ = try store.set("/", json: 5, now: Self.now)
        #expect(store.root.leaf == 5)
        _ = try store.set("a/b", json: "x", now: Self.now)
        #expect(store.root.json() == storeJSON(#"{"a": {"b": "x"}}"#))
    }

    @Test func setChecksDepthFromTheRoot() throws {
        var store = Store()
        let path = try DatabasePath(Array(repeating: Key("p"), count: 30))
        #expect(throws: Never.self) { try store.set(path, json: storeJSON(#"{"a": {"b": 1}}"#), now: Self.now) }
        let error = storeError { () throws(StoreError) in
            try store.set(path, json: storeJSON(#"{"a": {"b": {"c": 1}}}"#), now: Self.now)
        }
        #expect(error?.status == 400)
        #expect(store.get(path).json() == storeJSON(#"{"a": {"b": 1}}"#))
    }

    @Test func failedSetChangesNothing() throws {
        var store = try Self.store(#"{"a": 1}"#)
        let before = store.root
        #expect(storeError { () throws(StoreError) in
            try store.set("a", json: storeJSON(#"{"ok": 1, "bad.key": 2}"#), now: Self.now)
        }?.status == 400)
        #expect(store.root == before)
    }

    @Test func deleteReturnsAWriteEvenWhenAbsent() throws {
        var store = try Self.store(#"{"a": {"b": 1}, "c": 2}"#)
        #expect(store.delete("a/b") == [Write(path: "a/b", node: .empty)])
        #expect(store.root.json() == storeJSON(#"{"c": 2}"#))
        #expect(store.delete("zzz") == [Write(path: "zzz", node: .empty)])
        #expect(store.root.json() == storeJSON(#"{"c": 2}"#))
    }

    @Test func updateWritesEachMember() throws {
        var store = try Self.store(#"{"r": {"a": {"x": 1, "y": 2}, "b": 3, "c": 4}}"#)
        let writes = try store.update("r", json: storeJSON(#"{"a/x": 10, "b": null, "/d/e/": {"f": true}}"#),
                                      now: Self.now)
        #expect(writes.map(\.path) == ["r/a/x", "r/b", "r/d/e"])
        #expect(writes[1].isDeletion)
        #expect(store.get("r").json() == storeJSON(#"{"a": {"x": 10, "y": 2}, "c": 4, "d": {"e": {"f": true}}}"#))
    }

    @Test func emptyUpdateWritesNothing() throws {
        var store = try Self.store(#"{"a": 1}"#)
        #expect(try store.update("a", json: storeJSON("{}"), now: Self.now).isEmpty)
        #expect(store.get("a").leaf == 1)
    }

    @Test(arguments: [
        (#"{"a": 1, "a/b": 2}"#, "Path 'a' is an ancestor of 'a/b' in an update."),
        (#"{"x/y/z": 1, "x": 2}"#, "Path 'x' is an ancestor of 'x/y/z' in an update."),
        (#"{"a/b": 1, "/a/b/": 2}"#, "are the same location"),
        (#"{"a.b": 1}"#, "Invalid path"),
        (#"{"/": 1}"#, "Invalid path"),
        (#"{"ok": 1, "bad": {"k.k": 1}}"#, "Invalid data"),
        (#"{"ok": 1, "bad": {".sv": "nope"}}"#, "server value"),
        (#"[1, 2]"#, "Invalid data"),
        (#"5"#, "Invalid data"),
    ])
    func updateErrorsChangeNothing(_ body: String, _ message: String) throws {
        var store = try Self.store(#"{"a": {"b": 1}, "ok": 0, "x": {"y": {"z": 0}}}"#)
        let before = store.root
        let error = try #require(storeError { () throws(StoreError) in
            try store.update("/", json: storeJSON(body), now: Self.now)
        })
        #expect(error.status == 400)
        #expect(error.message.contains(message), "\(error.message)")
        #expect(store.root == before)
    }

    @Test func updateMayMakeAPathTooDeep() throws {
        var store = Store()
        let path = try DatabasePath(Array(repeating: Key("p"), count: 31))
        let error = storeError { () throws(StoreError) in try store.update(path, json: ["a/b": 1], now: Self.now) }
        #expect(error?.status == 400)
        #expect(store.root == .empty)
    }

    @Test func pushWritesUnderANewIncreasingKey() throws {
        var store = Store()
        var ids = PushIDGenerator()
        let (first, writes) = try store.push("list", json: storeJSON(#"{"n": 1}"#), now: Self.now, ids: &ids)
        let (second, _) = try store.push("list", json: storeJSON(#"{"n": 2}"#), now: Self.now, ids: &ids)
        #expect(first < second)
        #expect(try writes == [Write(path: DatabasePath("list").child(first), node: storeNode(#"{"n": 1}"#))])
        #expect(store.get("list").children.count == 2)
        #expect(try store.get(DatabasePath("list").child(second)).json() == storeJSON(#"{"n": 2}"#))
    }

    @Test func pushAtTheDeepestPathIsRefused() throws {
        var store = Store()
        var ids = PushIDGenerator()
        let path = try DatabasePath(Array(repeating: Key("p"), count: 32))
        let error = storeError { () throws(StoreError) in try store.push(path, json: 1, now: Self.now, ids: &ids) }
        #expect(error?.status == 400)
    }

    @Test func applyReplaysWrites() throws {
        var live = try Self.store(#"{"a": {"b": 1}}"#)
        var journal: [Write] = []
        journal += try live.set("a/c", json: storeJSON(#"{"d": [1, 2]}"#), now: Self.now)
        journal += try live.update("a", json: storeJSON(#"{"b": null, "e/f": {".sv": "timestamp"}}"#), now: Self.now)
        journal += live.delete("a/c/d/0")
        var replayed = try Self.store(#"{"a": {"b": 1}}"#)
        replayed.apply(journal)
        #expect(replayed.root == live.root)
    }

    @Test func etagFollowsTheValue() throws {
        var store = try Self.store(#"{"a": {"b": 1, "c": 2}, "x": 1}"#)
        #expect(store.etag("missing") == "null_etag")
        let tag = store.etag("a")
        // The core's digest of the value, as a client computes it from its text.
        #expect(tag == (try Snapshot.parse(json: #"{"c": 2, "b": 1}"#)).digest().description)
        #expect(tag.count == 32)
        #expect(store.etag("a") == tag)
        // Same value built in another order: same tag.
        #expect(Store(root: try storeNode(#"{"a": {"c": 2, "b": 1}}"#)).etag("a") == tag)
        _ = try store.set("x", json: 2, now: Self.now)
        #expect(store.etag("a") == tag)
        _ = try store.set("a/b", json: "1", now: Self.now)
        #expect(store.etag("a") != tag)
        let stringTag = store.etag("a")
        _ = try store.set("a/b", json: storeJSON(#"{".value": "1", ".priority": 1}"#), now: Self.now)
        #expect(store.etag("a") != stringTag)
        #expect(throws: StoreError.etagMismatch) { try store.requireETag(stringTag, at: "a") }
        try store.requireETag(store.etag("a"), at: "a")
        _ = store.delete("a")
        #expect(store.etag("a") == "null_etag")
    }

    @Test func etagsDistinguishKinds() throws {
        let values = ["1", #""1""#, "true", "false", "0", #"{"a": 1}"#, #"{"a": "1"}"#, #"{"b": 1}"#,
                      #"{"a": {"b": 1}}"#, #"{"ab": 1}"#, "[1]"]
        let tags = try values.map { Store(root: try storeNode($0)).etag("/") }
        #expect(Set(tags).count == values.count)
    }

    @Test func updateTellsCanonicalEquivalentPathsApart() throws {
        var store = Store()
        let body = storeJSON(#"{"\u00e9": 1, "e\u0301": 2, "x/\u00c5": 3, "x/A\u030a": 4, "x/\u212b": 5}"#)
        let writes = try store.update("/", json: body, now: Self.now)
        #expect(writes.count == 5)
        #expect(store.root.children.count == 3)
        #expect(store.get("x").children.count == 3)
        let stored = store.get("/").json()
        #expect(stored["\u{E9}"] == 1 && stored["e\u{301}"] == 2)
        #expect(stored[path: DatabasePath("x/A\u{30A}")] == 4 && stored[path: DatabasePath("x/\u{212B}")] == 5)
    }
}
