import Testing
import LiveModel
@testable import LiveServer

@Suite("Server values")
struct ServerValueTests {
    static let now: Int64 = 1_700_000_000_123

    @Test func timestampIsNow() throws {
        var store = Store()
        let writes = try store.set("t", json: storeJSON(#"{"at": {".sv": "timestamp"}, "n": 1}"#), now: Self.now)
        #expect(store.get("t/at").leaf == .number(1_700_000_000_123))
        #expect(writes[0].node.child("at").leaf == .number(1_700_000_000_123))
    }

    @Test func timestampAtTheTargetItselfAndWithPriority() throws {
        var store = Store()
        _ = try store.set("t", json: storeJSON(#"{".sv": "timestamp", ".priority": "p"}"#), now: Self.now)
        #expect(store.get("t").leaf == .number(Double(Self.now)))
        #expect(store.get("t").priority == .string("p"))
    }

    @Test func incrementAddsToTheCurrentNumber() throws {
        var store = Store(root: try storeNode(#"{"c": {"n": 5, "s": "x", "o": {"a": 1}}}"#))
        let body = storeJSON(#"""
            {"n": {".sv": {"increment": 2.5}}, "s": {".sv": {"increment": 1}},
             "o": {".sv": {"increment": -1}}, "new": {".sv": {"increment": 3}}}
            """#)
        let writes = try store.set("c", json: body, now: Self.now)
        #expect(store.get("c").json() == storeJSON(#"{"n": 7.5, "s": 1, "o": -1, "new": 3}"#))
        #expect(writes[0].node == store.get("c"))
    }

    @Test func incrementInAnUpdateSeesTheDataBeforeIt() throws {
        var store = Store(root: try storeNode(#"{"a": 1, "b": 10}"#))
        let writes = try store.update("/", json: storeJSON(#"""
            {"a": {".sv": {"increment": 1}}, "b": {".sv": {"increment": 1}}, "c/d": {".sv": "timestamp"}}
            """#), now: Self.now)
        #expect(store.root.json() == storeJSON(#"{"a": 2, "b": 11, "c": {"d": 1700000000123}}"#))
        #expect(writes.map(\.node.leaf) == [2, 11, .number(Double(Self.now))])
    }

    @Test("an increment past the largest finite number is refused; the stored number stays")
    func incrementOverflowIsRefused() throws {
        var store = Store(root: try storeNode(#"{"n": 1.7e308}"#))
        #expect(throws: StoreError.self) {
            try store.set("n", json: storeJSON(#"{".sv": {"increment": 1.7e308}}"#), now: Self.now)
        }
        #expect(store.get("n").leaf == .number(1.7e308))
        _ = try store.set("n", json: storeJSON(#"{".sv": {"increment": -1.7e308}}"#), now: Self.now)
        #expect(store.get("n").leaf == .number(0))
    }

    @Test func incrementInAPush() throws {
        var store = Store()
        var ids = PushIDGenerator()
        let (key, _) = try store.push("/", json: storeJSON(#"{"n": {".sv": {"increment": 4}}}"#), now: Self.now,
                                      ids: &ids)
        #expect(store.get(try DatabasePath([key, "n"])).leaf == 4)
    }

    @Test(arguments: [
        #"{".sv": "now"}"#,
        #"{".sv": 1}"#,
        #"{".sv": null}"#,
        #"{".sv": {"increment": "1"}}"#,
        #"{".sv": {"increment": 1, "x": 2}}"#,
        #"{".sv": {"decrement": 1}}"#,
        #"{".sv": "timestamp", "a": 1}"#,
        #"{".sv": "timestamp", ".value": 1}"#,
    ])
    func unknownServerValuesAreRefused(_ text: String) throws {
        var store = Store(root: try storeNode(#"{"keep": 1}"#))
        let before = store.root
        let error = storeError { () throws(StoreError) in
            try store.set("x", json: storeJSON(#"{"y": \#(text)}"#), now: Self.now)
        }
        #expect(error?.status == 400)
        #expect(store.root == before)
    }
}
