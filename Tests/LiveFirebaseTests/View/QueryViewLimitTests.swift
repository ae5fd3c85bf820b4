// QueryViewLimitTests.swift — limit windows: children leaving and entering
// at both ends, deep paths that create children, and what a view keeps of
// data the server cut to the window.

@testable import LiveFirebase
import LiveModel
import Testing

/// A view fed updates given as (path, JSON), with its events as text
/// (`kind key previous`).
struct ViewDriver {
    let view: QueryView

    init(_ query: DatabaseQuery) { view = QueryView(query: query) }

    /// Applies one update; `filtered` as in ``QueryView/apply(_:filtered:)``
    /// (false: the location's whole data, as injected).
    @discardableResult
    func apply(_ updates: [(String, String)], filtered: Bool? = false) throws -> [String] {
        let parsed = try updates.map { path, json in
            (try DatabasePath(path).keys, try Snapshot.parse(json: json, order: view.query.order))
        }
        return view.apply(parsed, filtered: filtered).map {
            "\($0.kind.rawValue) \($0.key) \($0.previousKey?.string ?? "-")"
        }
    }

    @discardableResult
    func put(_ path: String, _ json: String, filtered: Bool? = false) throws -> [String] {
        try apply([(path, json)], filtered: filtered)
    }

    var shown: [String] { view.visible.compactMap(\.key?.string) }
    /// The value shown for `key`, as JSON text with sorted members.
    func value(_ key: String) -> String? {
        view.visible.first { $0.key?.string == key }.map { $0.value.jsonText(sortedKeys: true) }
    }
}

@Suite("QueryView limit windows")
struct QueryViewLimitTests {
    static let byS = DatabaseQuery(order: .child("s"))
    static let fiveS = #"{"a": {"s": 1}, "b": {"s": 2}, "c": {"s": 3}, "d": {"s": 4}, "e": {"s": 5}}"#

    /// A view of `query` over a..e with s = 1...5.
    func fiveChildren(_ query: DatabaseQuery) throws -> ViewDriver {
        let v = ViewDriver(query)
        try v.put("/", Self.fiveS)
        return v
    }

    @Test("first limit: a child leaving from either end of the window lets the next slide in; one entering at either end pushes the last out",
          arguments: [
              ("/a/s", "9", ["child_removed a -", "child_added d c"], ["b", "c", "d"]),
              ("/c/s", "4.5", ["child_removed c -", "child_added d b"], ["a", "b", "d"]),
              ("/e/s", "0", ["child_removed c -", "child_added e -"], ["e", "a", "b"]),
              ("/d/s", "2.5", ["child_removed c -", "child_added d b"], ["a", "b", "d"]),
              ("/c/s", "0", ["child_moved c -", "child_changed c -"], ["c", "a", "b"]),
          ])
    func firstLimit(_ path: String, _ json: String, _ events: [String], _ shown: [String]) throws {
        let v = try fiveChildren(Self.byS.limited(toFirst: 3))
        #expect(v.shown == ["a", "b", "c"])
        #expect(try v.put(path, json) == events)
        #expect(v.shown == shown)
    }

    @Test("last limit: a child leaving from either end of the window lets the next slide in; one entering at either end pushes the first out",
          arguments: [
              ("/e/s", "0", ["child_removed e -", "child_added b -"], ["b", "c", "d"]),
              ("/c/s", "1.5", ["child_removed c -", "child_added b -"], ["b", "d", "e"]),
              ("/a/s", "9", ["child_removed c -", "child_added a e"], ["d", "e", "a"]),
              ("/b/s", "3.5", ["child_removed c -", "child_added b -"], ["b", "d", "e"]),
              ("/c/s", "9", ["child_moved c e", "child_changed c e"], ["d", "e", "c"]),
          ])
    func lastLimit(_ path: String, _ json: String, _ events: [String], _ shown: [String]) throws {
        let v = try fiveChildren(Self.byS.limited(toLast: 3))
        #expect(v.shown == ["c", "d", "e"])
        #expect(try v.put(path, json) == events)
        #expect(v.shown == shown)
    }

    @Test("a child that left a window comes back when its change brings it in again")
    func leavesAndComesBack() throws {
        let v = try fiveChildren(Self.byS.limited(toFirst: 2))
        #expect(try v.put("/a/s", "9") == ["child_removed a -", "child_added c b"])
        #expect(try v.put("/a/s", "0") == ["child_removed c -", "child_added a -"])
        #expect(v.shown == ["a", "b"] && v.value("a") == #"{"s":0}"#)
    }

    @Test("orderByValue and orderByChild: a child whose own change takes it past the edge leaves, the next slides in",
          arguments: [
              (DatabaseQuery(order: .value), #"{"k": false, "m": 1, "a": 5.5, "z": 9}"#, "/a", "/k"),
              (DatabaseQuery(order: .child("v")), #"{"k": {"v": false}, "m": {"v": 1}, "a": {"v": 5.5}, "z": {"v": 9}}"#,
               "/a/v", "/k/v"),
          ])
    func valueAndChildOrder(_ base: DatabaseQuery, _ data: String, _ pathA: String, _ pathK: String) throws {
        let last = ViewDriver(base.limited(toLast: 3))
        try last.put("/", data)
        #expect(last.shown == ["m", "a", "z"])
        #expect(try last.put(pathA, "false") == ["child_removed a -", "child_added k -"])
        #expect(last.shown == ["k", "m", "z"])

        let first = ViewDriver(base.limited(toFirst: 3))
        try first.put("/", data)
        #expect(first.shown == ["k", "m", "a"])
        #expect(try first.put(pathK, "10") == ["child_removed k -", "child_added z a"])
        #expect(first.shown == ["m", "a", "z"])
    }

    @Test("first limit: a put below a child that does not exist creates it with just that value")
    func deepPutCreatesFirst() throws {
        let v = ViewDriver(Self.byS.limited(toFirst: 2))
        try v.put("/", #"{"a": {"s": 1}}"#)
        #expect(try v.put("/b/s", "2") == ["child_added b a"])
        #expect(v.value("b") == #"{"s":2}"#)
        // Deeper still: the missing levels are created too (no s: first).
        #expect(try v.put("/c/t/u", "true") == ["child_removed b -", "child_added c -"])
        #expect(v.shown == ["c", "a"] && v.value("c") == #"{"t":{"u":true}}"#)
        #expect(try v.put("/c/s", "3") == ["child_removed c -", "child_added b a"])
        #expect(v.shown == ["a", "b"])
    }

    @Test("last limit: a child created below the window is kept, and its own change brings it in whole")
    func deepPutCreatesLast() throws {
        let v = ViewDriver(Self.byS.limited(toLast: 2))
        try v.put("/", #"{"a": {"s": 1}}"#)
        #expect(try v.put("/b/s", "2") == ["child_added b a"])
        #expect(try v.put("/c/t/u", "true") == [])
        #expect(v.shown == ["a", "b"])
        #expect(try v.put("/c/s", "3") == ["child_removed a -", "child_added c b"])
        #expect(v.shown == ["b", "c"] && v.value("c") == #"{"s":3,"t":{"u":true}}"#)
    }

    @Test("a patch of several paths below one new child builds it from all of them, inside a first limit")
    func deepPatchCreatesFirst() throws {
        let v = ViewDriver(Self.byS.limited(toFirst: 3))
        try v.put("/", #"{"a": {"s": 1}, "b": {"s": 2}}"#)
        let events = try v.apply([("/c/s", "0"), ("/c/t", #""x""#), ("/d/s", "5"), ("/a/t", #""y""#)])
        #expect(events == ["child_added c -", "child_changed a c"])
        #expect(v.shown == ["c", "a", "b"] && v.value("c") == #"{"s":0,"t":"x"}"#)
        #expect(try v.put("/b", "null") == ["child_removed b -", "child_added d a"])
        #expect(v.value("d") == #"{"s":5}"#)
    }

    @Test("a patch of several paths below one new child builds it from all of them, below a last limit")
    func deepPatchCreatesLast() throws {
        let v = ViewDriver(Self.byS.limited(toLast: 3))
        try v.put("/", #"{"a": {"s": 1}, "b": {"s": 2}}"#)
        let events = try v.apply([("/c/s", "0"), ("/c/t", #""x""#), ("/d/s", "5"), ("/a/t", #""y""#)])
        #expect(events == ["child_added d b", "child_changed a -"])
        #expect(v.shown == ["a", "b", "d"])
        #expect(try v.put("/c/s", "9") == ["child_removed a -", "child_added c d"])
        #expect(v.value("c") == #"{"s":9,"t":"x"}"#)
    }

    // MARK: Data the server cut to the window

    @Test("a last window the server cuts: deep paths change held children; below a child it does not hold they are ignored until the child comes whole")
    func serverCutLast() throws {
        let v = ViewDriver(Self.byS.limited(toLast: 3))
        #expect(v.view.serverFilters)
        try v.put("/", #"{"c": {"s": 3}, "d": {"s": 4}, "e": {"s": 5}}"#, filtered: nil)
        #expect(try v.apply([("/d/s", "6"), ("/d/t", #""y""#)], filtered: nil) == ["child_moved d e", "child_changed d e"])
        #expect(v.shown == ["c", "e", "d"] && v.value("d") == #"{"s":6,"t":"y"}"#)
        // The view cannot know the rest of b: the server sends it whole when it enters.
        #expect(try v.put("/b/s", "9", filtered: nil) == [])
        #expect(try v.put("/b", #"{"s": 9, "t": "z"}"#, filtered: nil) == ["child_removed c -", "child_added b d"])
        #expect(v.shown == ["e", "d", "b"] && v.value("b") == #"{"s":9,"t":"z"}"#)
        // c left the window: it is dropped, and a later deep path below it is ignored.
        #expect(v.view.cache["c"] == nil)
        #expect(try v.put("/c/s", "10", filtered: nil) == [])
        #expect(v.shown == ["e", "d", "b"])
    }

    @Test("a first window the server cuts: a held child moved past the edge stays until the server sends the next, then leaves")
    func serverCutFirst() throws {
        let v = ViewDriver(Self.byS.limited(toFirst: 3))
        try v.put("/", #"{"a": {"s": 1}, "b": {"s": 2}, "c": {"s": 3}}"#, filtered: nil)
        #expect(try v.put("/a/s", "9", filtered: nil) == ["child_moved a c", "child_changed a c"])
        #expect(v.shown == ["b", "c", "a"])
        #expect(try v.apply([("/a", "null"), ("/d", #"{"s": 4}"#)], filtered: nil) == ["child_removed a -", "child_added d c"])
        #expect(v.shown == ["b", "c", "d"])
        // An entering child sent whole pushes the last one out, which is dropped.
        #expect(try v.put("/e", #"{"s": 0}"#, filtered: nil) == ["child_removed d -", "child_added e -"])
        #expect(v.view.cache["d"] == nil && v.shown == ["e", "b", "c"])
    }
}
