// QueryViewDeepPathTests.swift — values set and deleted below a child, at
// any depth, as the database stores them: through primitives, objects left
// empty, and priorities on the way.

@testable import LiveFirebase
import LiveModel
import Testing

@Suite("QueryView: changes deep inside a child")
struct QueryViewDeepPathTests {
    @Test("deleting below a primitive leaves it (the server keeps it); writing below one makes it an object")
    func belowPrimitive() throws {
        let v = ViewDriver(DatabaseQuery(order: .child("z")))
        try v.put("/", #"{"k": {"a": 5, "z": 1}, "m": {"z": 2}}"#)
        #expect(try v.put("/k/a/b", "null").isEmpty)
        #expect(try v.put("/k/a/b/c", "null").isEmpty)
        #expect(v.value("k") == #"{"a":5,"z":1}"#)
        #expect(try v.put("/k/a/b/c", "true") == ["child_changed k -"])
        #expect(v.value("k") == #"{"a":{"b":{"c":true}},"z":1}"#)
        // Emptied on the way down: the objects left empty vanish.
        #expect(try v.put("/k/a/b/c", "null") == ["child_changed k -"])
        #expect(v.value("k") == #"{"z":1}"#)
        // The sort member three levels down of another order.
        let deep = ViewDriver(DatabaseQuery(order: .child(DatabasePath(uncheckedKeys: ["p", "q"]))))
        try deep.put("/", #"{"x": {"p": {"q": 1}}, "y": {"p": {"q": 2}}}"#)
        #expect(try deep.put("/x/p/q", "3") == ["child_moved x y", "child_changed x y"])
        #expect(deep.shown == ["y", "x"])
    }

    @Test("a change deep inside a child keeps the priorities the path passes and those beside it")
    func prioritiesKept() throws {
        let v = ViewDriver(DatabaseQuery(order: .priority))
        try v.put("/", #"{"k": {"a": {"b": 1, ".priority": 7}, "c": {".value": 2, ".priority": "p"}, ".priority": 3}}"#)
        try v.put("/k/a/b", "2")
        let k = try #require(v.view.visible.first)
        #expect(k.priority == .number(3))
        #expect(k.child("a").priority == .number(7))
        #expect(k.child("c").priority == .string("p"))
        #expect(k.value.jsonText(sortedKeys: true) == #"{"a":{"b":2},"c":2}"#)
        // A wrapped primitive written below: an object now, its priority kept.
        try v.put("/k/c/d", "1")
        let changed = try #require(v.view.visible.first)
        #expect(changed.child("c").priority == .string("p"))
        #expect(changed.child("c").value.jsonText() == #"{"d":1}"#)
    }
}
