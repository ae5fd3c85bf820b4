import LiveModel
@testable import LiveREPL
import Testing

@Suite("REPL command parser")
struct CommandParserTests {
    @Test func parsesEveryCommand() throws {
        #expect(try CommandParser.parse(#"put /k1 {"s": 1}"#) == .put("/k1", ["s": 1], json: #"{"s": 1}"#))
        #expect(try CommandParser.parse(#"  patch   /  {"a/b": null}  "#) == .patch("/", ["a/b": nil], json: #"{"a/b": null}  "#))
        #expect(try CommandParser.parse("set /a/b 3") == .set("/a/b", 3))
        #expect(try CommandParser.parse(#"update / {"a/b": 1, "c": null}"#) == .update("/", ["/a/b": 1, "/c": nil]))
        #expect(try CommandParser.parse(#"push /list "x""#) == .push("/list", "x"))
        #expect(try CommandParser.parse("remove /a") == .remove("/a"))
        #expect(try CommandParser.parse("remove --if-match abc /a") == .remove("/a", ifMatch: "abc"))
        #expect(try CommandParser.parse("set --if-match abc /a 1") == .set("/a", 1, ifMatch: "abc"))
        #expect(try CommandParser.parse("show") == .show)
        #expect(try CommandParser.parse("replay") == .replay(1))
        #expect(try CommandParser.parse("replay 12") == .replay(12))
        #expect(try CommandParser.parse("replay all") == .replay(nil))
        for bad in ["replay 0", "replay -1", "replay x", "replay 2 3"] {
            #expect(throws: REPLError.self, "\(bad)") { try CommandParser.parse(bad) }
        }
        #expect(try CommandParser.parse("stats") == .stats)
        #expect(try CommandParser.parse("offline") == .offline)
        #expect(try CommandParser.parse(" online ") == .online)
        #expect(throws: REPLError.self) { try CommandParser.parse("offline now") }
        #expect(try CommandParser.parse("quit") == .quit)
        #expect(try CommandParser.parse("exit") == .quit)
        #expect(try CommandParser.parse("help") == .help(nil))
        #expect(try CommandParser.parse("help load") == .help("load"))
        #expect(try CommandParser.parse("load live") == .load(.live))
        #expect(try CommandParser.parse("load all") == .load(.all))
        #expect(try CommandParser.parse("load page 25") == .load(.page(25)))
        #expect(try CommandParser.parse("load next") == .load(.next))
        #expect(try CommandParser.parse("load last 20") == .load(.last(20)))
        #expect(try CommandParser.parse("load older") == .load(.older))
        #expect(try CommandParser.parse("query") == .query(nil))
        #expect(try CommandParser.parse("") == .nothing)
        #expect(try CommandParser.parse("   # a comment") == .nothing)
    }

    @Test func queryOptionsFollowShellQuoting() throws {
        guard case .query(let options?) = try CommandParser.parse(
            #"query --order-by 'a b' --start-at '"x y"' --end-at "\"z\"" --limit-last 3 --section-by g"#) else {
            Issue.record("not a query")
            return
        }
        #expect(options.orderBy == "a b")
        #expect(options.startAt == #""x y""#)
        #expect(options.endAt == #""z""#)
        #expect(options.limitLast == 3)
        #expect(options.sectionBy == "g")
        #expect(try options.query().description.contains("limitToLast(3)"))
    }

    @Test("a JSON value that starts with a minus sign is a value, in every option that takes one")
    func negativeValues() throws {
        guard case .query(let options?) = try CommandParser.parse(
            "query --order-by s --start-at -1 --end-at -0.5 --where 'score > -3'") else {
            Issue.record("not a query")
            return
        }
        #expect(options.startAt == "-1")
        #expect(options.endAt == "-0.5")
        #expect(options.conditions == ["score > -3"])
        #expect(try options.query().description.contains("startAt(-1"))
        guard case .query(let equal?) = try CommandParser.parse("query --order-by s --equal-to -2") else {
            Issue.record("not a query")
            return
        }
        #expect(equal.equalTo == "-2")
        #expect(try QueryOptions.parse(["--order-by", "s", "--start-at", "-1"]).startAt == "-1")
    }

    /// Each bad line, and the error it gives.
    @Test(arguments: [
        ("bogus", REPLError.unknownCommand("bogus")),
        (#"put /a {"x": }"#, .malformedJSON(column: 14, message: "unexpected token near '}'")),
        (#"put /é {"x": ]"#, .malformedJSON(column: 14, message: "unexpected token near ']'")),
        ("put /a.b 1", .invalidPath("/a.b", column: 7, reason: "'.' at byte 2 is not allowed")),
        ("put /a 1 2", .malformedJSON(column: 10, message: "end of file expected near '2'")),
        ("remove /a extra", .usage(command: "remove", problem: "unexpected \"extra\" at column 11", usage: "remove [--if-match ETAG] PATH")),
        ("patch / 3", .usage(command: "patch", problem: "the value must be an object of relative paths", usage: "patch PATH JSON")),
        ("update / {}", .usage(command: "update", problem: "the value must be an object of relative paths", usage: "update PATH JSON")),
        ("load page x", .usage(command: "load", problem: "a page size must be a whole number of at least 1",
                               usage: "load live|all|page N|last N|next|older")),
        ("help nothing", .unknownCommand("nothing")),
        ("query --limit-first 0", .invalidQuery("--limit-first must be at least 1, not 0")),
        ("query --order-by $key --start-at 3", .invalidQuery("under orderByKey the start bound must be a valid key string")),
        ("query --where 'score ~ 3'", .invalidQuery(#"--where "score ~ 3": no comparison (one of == != < <= > >=)"#)),
        ("query --where 'a.b == 3'", .invalidQuery(#"--where "a.b == 3": invalid path "a.b": '.' at byte 1 is not allowed"#)),
        ("query 'open", .usage(command: "query", problem: "a quote opened after column 6 is not closed", usage: "query [OPTIONS]")),
    ])
    func badLines(_ line: String, _ expected: REPLError) {
        #expect(throws: expected) { try CommandParser.parse(line) }
    }
}
