// BodyReadingTests.swift — a write's body is checked by the C core before
// anything is built, then read straight into nodes when the database's rules
// allow it: the same data as reading it as JSON, whatever path it takes.

import LiveModel
@testable import LiveServer
import Testing

@Suite("LiveServer request bodies")
struct BodyReadingTests {
    static let bodies = [
        #"[{}, {}, [], null, {"a": null}]"#,
        #"[1, null, {"x": [null, 2]}, "s"]"#,
        #"{"a": [ {} , {"b" : 1} ], "c": {}, "d": null}"#,
        #"{"p": {".priority": 3, "v": 1}, "w": {".value": "x", ".priority": "q"}}"#,
        #"{"t": {".sv": "timestamp"}, "n": 5}"#,
        #""text\n\u00e9""#, "1.5e3", "true", "[]", "{}", "null",
    ]

    @Test("each body reads as the JSON it is, through the core's fast path or not", arguments: bodies)
    func sameAsJSON(body: String) async throws {
        try await withServer { server in
            let p = server.port
            let put = try await request(p, "PUT", "/x.json", body: body)
            #expect(put.status == 200, "\(body): \(put.json?.jsonText() ?? "")")
            var store = Store()
            _ = try store.set("x", json: JSONValue(parsing: body), now: 0)
            let stored = try await request(p, "GET", "/x.json?format=export").json
            if body.contains(".sv") {
                #expect(stored?["n"] == 5 && stored?["t"]?.numberValue != nil)
            } else {
                #expect(stored == store.get("x").json(export: true), "\(body)")
            }
            let pushed = try await request(p, "POST", "/list.json", body: body)
            #expect(pushed.status == 200, "\(body)")
        }
    }

    @Test("bad JSON is refused with jansson's position, before anything is built; rules as before")
    func refused() async throws {
        try await withServer { server in
            let p = server.port
            let bad = try await request(p, "PUT", "/x.json", body: #"{"a": [1, 2}"#)
            #expect(bad.status == 400 && bad.json?["error"]?.stringValue?.contains("column") == true, "\(bad.json?.jsonText() ?? "")")
            let key = try await request(p, "PUT", "/x.json", body: #"{"a.b": 1}"#)
            #expect(key.status == 400)
            var deep = "1"
            for _ in 0..<31 { deep = #"{"d": \#(deep)}"# }
            #expect(try await request(p, "PUT", "/x.json", body: deep).status == 200, "31 keys below /x: 32 in all")
            #expect(try await request(p, "PUT", "/x/y.json", body: deep).status == 400, "one level too deep")
            #expect(try await request(p, "GET", "/x/y.json").json == .null)
        }
    }
}
