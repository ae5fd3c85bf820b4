// QueryViewMoveTests.swift — when a changed child also raises child_moved:
// per order, as Firebase's indexes decide (`indexedValueChanged`), and the
// order of the event kinds.

@testable import LiveFirebase
import LiveModel
import Testing

@Suite("QueryView child_moved per order")
struct QueryViewMoveTests {
    /// The events of replacing `b` (from `before` to `after`) beside
    /// `a: 1` and `c: "z"`, under `order`.
    func events(_ order: QueryOrder, _ before: String, _ after: String, path: String = "/b") throws -> [String] {
        let v = ViewDriver(DatabaseQuery(order: order))
        try v.put("/", #"{"a": 1, "b": "#  + before + #", "c": "z"}"#)
        return try v.put(path, after).map { String($0.prefix { $0 != " " }) }
    }

    static let movedAndChanged = ["child_moved", "child_changed"]
    static let changed = ["child_changed"]

    @Test("orderByValue: a change of the value or the priority moves the child, even between objects that sort together",
          arguments: [
              (#"{"x": 1}"#, #"{"x": 0}"#, movedAndChanged),
              (#"{"x": 1}"#, #"{"x": 1, "y": 2}"#, movedAndChanged),
              ("2", "3", movedAndChanged),
              ("2", #""2""#, movedAndChanged),
              (#"{".value": 2, ".priority": 1}"#, #"{".value": 2, ".priority": 5}"#, movedAndChanged),
              (#"{"x": 1}"#, #"{"x": 1}"#, []),
          ])
    func byValue(_ before: String, _ after: String, _ expected: [String]) throws {
        #expect(try events(.value, before, after) == expected)
    }

    @Test("orderByPriority: only a change of the priority moves the child",
          arguments: [
              (#"{".value": 2, ".priority": 1}"#, #"{".value": 3, ".priority": 1}"#, changed),
              (#"{"x": 1, ".priority": "p"}"#, #"{"x": 0, ".priority": "p"}"#, changed),
              (#"{".value": 2, ".priority": 1}"#, #"{".value": 2, ".priority": 2}"#, movedAndChanged),
              (#"{".value": 2, ".priority": 1}"#, #"{".value": 2, ".priority": "1"}"#, movedAndChanged),
              ("2", #"{".value": 2, ".priority": 1}"#, movedAndChanged),
          ])
    func byPriority(_ before: String, _ after: String, _ expected: [String]) throws {
        #expect(try events(.priority, before, after) == expected)
    }

    @Test("orderByChild: only values at the path that compare differently move the child; objects there sort together",
          arguments: [
              (#"{"v": {"x": 1}}"#, #"{"v": {"x": 2}}"#, changed),
              (#"{"v": 1, "w": 1}"#, #"{"v": 1, "w": 2}"#, changed),
              (#"{"v": 1}"#, #"{"v": 2}"#, movedAndChanged),
              (#"{"v": {"x": 1}}"#, #"{"v": 1}"#, movedAndChanged),
              (#"{"v": 1, ".priority": 1}"#, #"{"v": 1, ".priority": 2}"#, changed),
          ])
    func byChild(_ before: String, _ after: String, _ expected: [String]) throws {
        #expect(try events(.child("v"), before, after) == expected)
    }

    @Test("orderByKey: a child never moves",
          arguments: [
              ("2", "3"),
              (#"{"x": 1}"#, #"{"x": 0}"#),
              (#"{".value": 2, ".priority": 1}"#, #"{".value": 2, ".priority": 2}"#),
          ])
    func byKey(_ before: String, _ after: String) throws {
        #expect(try events(.key, before, after) == Self.changed)
    }

    @Test("a deep change inside an object under orderByValue moves the child too")
    func deepChangeByValue() throws {
        #expect(try events(.value, #"{"x": 1}"#, "5", path: "/b/x") == Self.movedAndChanged)
    }

    @Test("one update's events come as Firebase raises them: removed, added, moved, changed",
          arguments: [QueryOrder.value, .child("v")])
    func kindsInOrder(_ order: QueryOrder) throws {
        let v = ViewDriver(DatabaseQuery(order: order))
        try v.put("/", #"{"a": {"v": 1}, "b": {"v": 2}, "c": {"v": 3}}"#)
        let events = try v.apply([("/c/v", "0"), ("/a", "null"), ("/b/w", "1"), ("/d", #"{"v": 4}"#)])
        if order == .value {
            // All objects sort together, by key: b, c, d.
            #expect(events == ["child_removed a -", "child_added d c", "child_moved b -", "child_moved c b",
                               "child_changed b -", "child_changed c b"])
        } else {
            // c, b, d by v; b's v did not change.
            #expect(events == ["child_removed a -", "child_added d b", "child_moved c -",
                               "child_changed c -", "child_changed b c"])
        }
    }
}
