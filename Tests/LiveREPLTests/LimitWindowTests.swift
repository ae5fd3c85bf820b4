// LimitWindowTests.swift — the built live-repl, offline, with a limit: the
// window is computed from everything injected, and child events under
// orderByValue are Firebase's.

import Testing

@Suite("live-repl offline: limit windows and moves")
struct LimitWindowTests {
    /// The keys `show` printed last, and every event line (`type key`).
    static func run(_ arguments: [String], _ script: String) async throws -> (shown: [String], events: [[String]]) {
        let run = try await REPLProcess.run(["--offline", "--json"] + arguments, input: script)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        var shown: [String] = [], events: [[String]] = []
        for line in run.lines {
            switch try REPLLine(line) {
            case .show(let sections): shown = sections.flatMap(\.keys)
            case .change(_, let changes): events.append(changes.map { "\($0.type) \($0.key)" })
            case .error(let message): Issue.record("\(message)")
            case .text: break
            }
        }
        return (shown, events)
    }

    @Test("a put below a child that does not exist creates it, inside a last limit")
    func deepPutCreatesChildLast() async throws {
        let r = try await Self.run(["--order-by", "x", "--limit-last", "4"], "put / {\"a\":{\"x\":1}}\nput /b/x 2\nshow\n")
        #expect(r.shown == ["a", "b"])
        #expect(r.events.last == ["child_added b"])
    }

    @Test("puts below children that do not exist create them, inside a first limit")
    func deepPutCreatesChildFirst() async throws {
        let r = try await Self.run(["--order-by", "x", "--limit-first", "5"], "put /a/x 1\nput /b/x 2\nshow\n")
        #expect(r.shown == ["a", "b"])
        #expect(r.events == [["child_added a"], ["child_added b"]])
    }

    @Test("a child whose own change moves it out of a last limit leaves, and the next slides in (orderByValue)")
    func leavesByValue() async throws {
        let r = try await Self.run(["--order-by", "$value", "--limit-last", "3"],
                             "put / {\"k\":false,\"m\":1,\"a\":5.5,\"z\":9}\nput /a false\nshow\n")
        #expect(r.shown == ["k", "m", "z"])
        #expect(r.events.last == ["child_removed a", "child_added k"])
    }

    @Test("a child whose own change moves it out of a last limit leaves, and the next slides in (orderByChild)")
    func leavesByChild() async throws {
        let r = try await Self.run(["--order-by", "v", "--limit-last", "3"],
                             "put / {\"k\":{\"v\":false},\"m\":{\"v\":1},\"a\":{\"v\":5.5},\"z\":{\"v\":9}}\n"
                             + "put /a {\"v\":false}\nshow\n")
        #expect(r.shown == ["k", "m", "z"])
        #expect(r.events.last == ["child_removed a", "child_added k"])
    }

    @Test("orderByValue: an object that changes into another object moves, then changes")
    func objectMovesByValue() async throws {
        let r = try await Self.run(["--order-by", "$value"], "put / {\"a\":{\"x\":1},\"b\":2}\nput /a {\"x\":0}\n")
        #expect(r.events.last == ["child_moved a", "child_changed a"])
    }
}
