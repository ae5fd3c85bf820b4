import Testing
import LiveModel
@testable import LiveServer

@Suite("DataNode normalisation")
struct DataNodeNormalizationTests {
    @Test func primitivesBecomeLeaves() throws {
        #expect(try storeNode("5").leaf == .number(5))
        #expect(try storeNode("true").leaf == .bool(true))
        #expect(try storeNode(#""a""#).leaf == .string("a"))
        #expect(try storeNode("null").isEmpty)
        #expect(try storeNode("null") == .empty)
    }

    @Test func arraysBecomeIndexedChildren() throws {
        let node = try storeNode(#"[1, null, "c", [], {}]"#)
        #expect(Set(node.children.keys) == ["0", "2"])
        #expect(node.child("0").leaf == .number(1))
        #expect(node.child("2").leaf == .string("c"))
        #expect(node.child("1").isEmpty)
    }

    @Test func nullsAndEmptyObjectsVanishRecursively() throws {
        let node = try storeNode(#"{"a": null, "b": {}, "c": {"d": {"e": null}, "f": []}, "g": 1}"#)
        #expect(Array(node.children.keys) == ["g"])
        #expect(try storeNode(#"{"a": {"b": {"c": null}}}"#).isEmpty)
        #expect(try storeNode("[null, [null], {}]").isEmpty)
    }

    @Test func prioritiesOnChildrenAndLeaves() throws {
        let node = try storeNode(#"{".priority": 3, "a": {".value": 1, ".priority": "x"}, "b": 2}"#)
        #expect(node.priority == .number(3))
        #expect(node.child("a").leaf == .number(1))
        #expect(node.child("a").priority == .string("x"))
        #expect(node.child("b").priority == nil)
        #expect(try storeNode(#"{".priority": null, "a": 1}"#).priority == nil)
    }

    @Test func priorityAloneIsNothing() throws {
        #expect(try storeNode(#"{".priority": 3}"#).isEmpty)
        #expect(try storeNode(#"{".priority": 3, "a": null}"#).isEmpty)
        #expect(try storeNode(#"{".value": null, ".priority": 1}"#).isEmpty)
    }

    @Test func valueWithChildrenInside() throws {
        let node = try storeNode(#"{".value": {"a": 1}, ".priority": 2}"#)
        #expect(node.child("a").leaf == .number(1))
        #expect(node.priority == .number(2))
    }

    @Test(arguments: [
        #"{".priority": true, "a": 1}"#,
        #"{".priority": [1], "a": 1}"#,
        #"{".priority": {"x": 1}, "a": 1}"#,
    ])
    func badPriorities(_ text: String) {
        #expect(storeError { () throws(StoreError) in try DataNode(json: storeJSON(text)) }?.status == 400)
    }

    @Test func valueBesideChildrenIsRefused() {
        let error = storeError { () throws(StoreError) in try DataNode(json: storeJSON(#"{".value": 1, "a": 2}"#)) }
        #expect(error?.status == 400)
    }

    @Test(arguments: ["a.b", ".other", "a#b", "a$", "a[0]", "a]", "", "\u{7F}", String(repeating: "k", count: 769)])
    func badKeysAreRefusedByName(_ key: String) throws {
        let body = JSONValue.object(["ok": 1, "nested": .object([key: 1])])
        let error = try #require(storeError { () throws(StoreError) in try DataNode(json: body) })
        #expect(error.status == 400)
        #expect(error.message.hasPrefix("Invalid data; "))
        #expect(error.message.contains("\"\(key.prefix(40))"))
    }

    @Test func serverValuesAreRefusedOutsideTheStore() {
        let error = storeError { () throws(StoreError) in try DataNode(json: storeJSON(#"{".sv": "timestamp"}"#)) }
        #expect(error?.status == 400)
    }

    /// `levels` nested single-key objects around a leaf.
    static func nested(_ levels: Int, leaf: JSONValue = 1) -> JSONValue {
        (0..<levels).reduce(leaf) { inner, _ in .object(["k": inner]) }
    }

    @Test func depthLimit() throws {
        #expect(try DataNode(json: Self.nested(32)).child(at: DatabasePath(Array(repeating: "k", count: 32))).leaf == 1)
        let error = storeError { () throws(StoreError) in try DataNode(json: Self.nested(33)) }
        #expect(error?.status == 400)
        #expect(error?.message.contains("32") == true)
        // An array level is a level too.
        let arrays = (0..<33).reduce(JSONValue.number(1)) { inner, _ in .array([inner]) }
        #expect(storeError { () throws(StoreError) in try DataNode(json: arrays) }?.status == 400)
        // 33 levels of nothing are nothing, but still refused: they are read.
        #expect(storeError { () throws(StoreError) in try DataNode(json: Self.nested(33, leaf: .null)) } != nil)
    }

    @Test func setAndChildAtPaths() throws {
        var node = try storeNode(#"{"a": {"b": 1, "c": 2}, "d": 3}"#)
        #expect(node.child(at: "a/b").leaf == 1)
        #expect(node.child(at: "a/b/x").isEmpty)
        #expect(node.child(at: "/") == node)
        node.set(try storeNode("4"), at: "a/b/x")
        #expect(node.child(at: "a/b/x").leaf == 4)
        #expect(node.child(at: "a/b").leaf == nil)
        node.set(.empty, at: "a/b/x")
        node.set(.empty, at: "a/c")
        #expect(node.child("a").isEmpty)
        #expect(Array(node.children.keys) == ["d"])
        node.set(.empty, at: "d")
        #expect(node == .empty)
    }

    @Test func prunedParentsLoseTheirPriority() throws {
        var node = try storeNode(#"{"a": {".priority": 1, "b": {".priority": 2, "c": 1}}}"#)
        node.set(.empty, at: "a/b/c")
        #expect(node == .empty)
        #expect(node.priority == nil)
    }

    @Test func deletingBelowALeafKeepsTheLeaf() throws {
        var node = try storeNode(#"{"a": {".value": 5, ".priority": 1}}"#)
        node.set(.empty, at: "a/b")
        #expect(node.child("a").leaf == 5)
        node.set(try storeNode("6"), at: "a/b")
        #expect(node.child("a").leaf == nil)
        #expect(node.child(at: "a/b").leaf == 6)
        #expect(node.child("a").priority == .number(1))
    }

    @Test func keysKeepCanonicalEquivalentsApart() throws {
        var node = DataNode.empty
        try node.set(storeNode("1"), at: DatabasePath([Key("\u{E9}")]))
        try node.set(storeNode("2"), at: DatabasePath([Key("e\u{301}")]))
        #expect(node.children.count == 2)
    }

    @Test func bodiesKeepCanonicalEquivalentMembersApart() throws {
        let node = try storeNode(#"{"\u00e9": {"A\u030a": 1, "\u00c5": 2, "\u212b": 3}, "e\u0301": 4}"#)
        #expect(node.children.count == 2)
        #expect(node.child(Key("\u{E9}")).children.count == 3)
        #expect(node.child(at: try DatabasePath([Key("\u{E9}"), Key("\u{212B}")])).leaf == 3)
        #expect(node.child(at: try DatabasePath([Key("\u{E9}"), Key("A\u{30A}")])).leaf == 1)
        #expect(node.child(Key("e\u{301}")).leaf == 4)
    }
}
