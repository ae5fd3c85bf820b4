// RESTTests.swift — the REST API over HTTP: every method, option and error status.

import LiveModel
import LiveServer
import Testing

@Suite("LiveServer REST", .serialized)
struct RESTTests {
    @Test("PUT, GET, PATCH, POST and DELETE, with print=silent, shallow and format=export")
    func methods() async throws {
        try await withServer { server in
            let p = server.port
            var r = try await request(p, "PUT", "/items.json", body: #"{"a": {"score": 3, ".priority": 2}, "b": {"score": 1}}"#)
            #expect(r.status == 200 && r.json == json(#"{"a": {"score": 3}, "b": {"score": 1}}"#))
            r = try await request(p, "GET", "/items/a/score.json")
            #expect(r.status == 200 && r.json == 3)
            r = try await request(p, "PATCH", "/items.json", body: #"{"a/score": 4, "c": {"score": 0}, "b": null}"#)
            #expect(r.status == 200 && r.json == json(#"{"a/score": 4, "c": {"score": 0}, "b": null}"#))
            r = try await request(p, "GET", "/items.json")
            #expect(r.json == json(#"{"a": {"score": 4}, "c": {"score": 0}}"#))
            r = try await request(p, "GET", "/items.json?format=export")
            #expect(r.json == json(#"{"a": {"score": 4, ".priority": 2}, "c": {"score": 0}}"#))
            r = try await request(p, "POST", "/items.json", body: #"{"score": 9}"#)
            let name = try #require(r.json?["name"]?.stringValue)
            #expect(r.status == 200 && name.utf8.count == 20)
            r = try await request(p, "GET", "/items/\(name).json")
            #expect(r.json == json(#"{"score": 9}"#))
            r = try await request(p, "GET", "/items.json?shallow=true")
            #expect(r.json == json(#"{"a": true, "c": true, "\#(name)": true}"#))
            r = try await request(p, "PUT", "/items/c.json?print=silent", body: "7")
            #expect(r.status == 204 && r.body.isEmpty)
            r = try await request(p, "DELETE", "/items/a.json")
            #expect(r.status == 200 && r.json == .null)
            r = try await request(p, "GET", "/items.json")
            #expect(r.json == json(#"{"c": 7, "\#(name)": {"score": 9}}"#))
            r = try await request(p, "POST", "/items.json?x-http-method-override=DELETE")
            #expect(r.status == 200)
            #expect(try await request(p, "GET", "/.json").json == .null)
        }
    }

    @Test("push ids from POST are 20 characters and strictly increasing")
    func pushIDs() async throws {
        try await withServer { server in
            var names: [String] = []
            for i in 0..<200 {
                let r = try await request(server.port, "POST", "/log.json", body: "\(i)")
                names.append(try #require(r.json?["name"]?.stringValue))
            }
            #expect(names.allSatisfy { $0.utf8.count == 20 })
            #expect(zip(names, names.dropFirst()).allSatisfy { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        }
    }

    @Test("server values: timestamp and increment")
    func serverValues() async throws {
        try await withServer { server in
            let p = server.port
            var r = try await request(p, "PUT", "/t.json", body: #"{"at": {".sv": "timestamp"}, "n": {".sv": {"increment": 2}}}"#)
            let at = try #require(r.json?["at"]?.numberValue)
            #expect(at > 1_700_000_000_000 && r.json?["n"] == 2)
            r = try await request(p, "PATCH", "/t.json", body: #"{"n": {".sv": {"increment": 3.5}}}"#)
            #expect(try await request(p, "GET", "/t/n.json").json == 5.5)
            r = try await request(p, "PUT", "/t.json", body: #"{".sv": "nonsense"}"#)
            #expect(r.status == 400)
        }
    }

    @Test("ETags: X-Firebase-ETag, if-match (412 with the current value) and if-none-match (304)")
    func etags() async throws {
        try await withServer { server in
            let p = server.port
            _ = try await request(p, "PUT", "/c.json", body: "1")
            var r = try await request(p, "GET", "/c.json", headers: ["X-Firebase-ETag": "true"])
            let tag = try #require(r.headers["etag"])
            r = try await request(p, "GET", "/c.json", headers: ["If-None-Match": tag])
            #expect(r.status == 304)
            r = try await request(p, "PUT", "/c.json", headers: ["if-match": tag, "X-Firebase-ETag": "true"], body: "2")
            #expect(r.status == 200 && r.headers["etag"] != nil && r.headers["etag"] != tag && r.json == 2)
            // The tag of the value written: the one a read gives next.
            let written = r.headers["etag"]
            #expect(try await request(p, "GET", "/c.json", headers: ["X-Firebase-ETag": "true"]).headers["etag"] == written)
            r = try await request(p, "PUT", "/c.json", headers: ["if-match": tag], body: "3")
            #expect(r.status == 412 && r.json == 2 && r.headers["etag"] != nil)
            #expect(try await request(p, "GET", "/c.json").json == 2)
            r = try await request(p, "DELETE", "/c.json", headers: ["if-match": "null_etag"])
            #expect(r.status == 412)
            r = try await request(p, "PUT", "/new.json", headers: ["if-match": "null_etag"], body: "1")
            #expect(r.status == 200)
        }
    }

    @Test("queries answer exactly the children in the window, in any order")
    func queries() async throws {
        try await withServer { server in
            let p = server.port
            _ = try await request(p, "PUT", "/s.json", body: #"{"a": {"n": 3}, "b": {"n": 1}, "c": {"n": 2}, "d": {"x": 1}, "10": {"n": 2}}"#)
            func keys(_ query: String) async throws -> Set<String> {
                let r = try await request(p, "GET", "/s.json?" + query)
                #expect(r.status == 200, "\(query): \(r.text)")
                return Set(r.json?.objectValue?.keys.map { $0 } ?? [])
            }
            #expect(try await keys(#"orderBy=%22n%22&limitToFirst=2"#) == ["d", "b"])
            #expect(try await keys(#"orderBy=%22n%22&startAt=2"#) == ["10", "c", "a"])
            #expect(try await keys(#"orderBy=%22n%22&startAt=2&startAtKey=%22c%22"#) == ["c", "a"])
            #expect(try await keys(#"orderBy=%22n%22&equalTo=2"#) == ["10", "c"])
            #expect(try await keys(#"orderBy=%22n%22&startAfter=2"#) == ["a"])
            #expect(try await keys(#"orderBy=%22n%22&endBefore=2&limitToLast=1"#) == ["b"])
            #expect(try await keys(#"orderBy=%22$key%22&endAt=%22b%22"#) == ["10", "a", "b"])
            #expect(try await keys(#"orderBy=%22$value%22"#) == ["a", "b", "c", "d", "10"])
            #expect(try await keys(#"orderBy=%22$priority%22&limitToLast=1"#) == ["d"])
        }
    }

    @Test("every error is {\"error\": ...} with its status, and changes nothing")
    func errors() async throws {
        try await withServer({ $0.maxRequestBytes = 1 << 16 }) { server in
            let p = server.port
            _ = try await request(p, "PUT", "/keep.json", body: #"{"v": 1}"#)
            let cases: [(String, String, String?, Int)] = [
                ("PUT", "/keep.json", "{bad", 400),
                ("PUT", "/keep.json", #"{"a.b": 1}"#, 400),
                ("PUT", "/keep.json", String(repeating: "[", count: 40) + String(repeating: "]", count: 40), 400),
                ("PATCH", "/keep.json", #"{"a": 1, "a/b": 2}"#, 400),
                ("PATCH", "/keep.json", "[1]", 400),
                ("PUT", "/a%2.json", "1", 400),
                ("PUT", "/a[0].json", "1", 400),
                ("GET", "/keep.json?orderBy=score", nil, 400),
                ("GET", "/keep.json?limitToFirst=2", nil, 400),
                ("GET", "/keep.json?orderBy=%22$key%22&startAt=1", nil, 400),
                ("GET", "/keep.json?orderBy=%22a%22&limitToFirst=-1", nil, 400),
                ("GET", "/keep.json?shallow=true&orderBy=%22a%22", nil, 400),
                ("GET", "/keep.json?format=xml", nil, 400),
                ("GET", "/keep", nil, 404),
                ("TRACE", "/keep.json", nil, 405),
                ("PUT", "/keep.json", "[" + String(repeating: "1,", count: 40_000) + "1]", 413),
                ("PUT", "/keep.json", #"{"v": 2"#, 400),                                   // truncated
                ("PUT", "/keep.json", #""\udc00""#, 400),                                   // lone surrogate
                ("PUT", "/" + Array(repeating: "d", count: 33).joined(separator: "/") + ".json", "1", 400),
                ("PUT", "/" + String(repeating: "k", count: 800) + ".json", "1", 400),
                ("GET", "/keep.json?orderBy=%22a%22&limitToFirst=99999999999999999999", nil, 400),
                ("GET", "/keep.json?orderBy=%22a%22&limitToFirst=3&limitToLast=3", nil, 400),
                ("GET", "/keep.json?orderBy=%22a%22&startAt=%5B1%5D", nil, 400),
                ("GET", "/keep.json?orderBy=%22a%22&equalTo=1&startAt=1", nil, 400),
                ("GET", "/keep.json?orderBy=%22%5Cu0000%22", nil, 400),
                ("GET", "/keep.json?orderBy=%22a%22&startAt=%22unterminated", nil, 400),
            ]
            for (method, target, body, status) in cases {
                let r = try await request(p, method, target, body: body)
                #expect(r.status == status, "\(method) \(target): \(r.status) \(r.text)")
                #expect(r.json?["error"]?.stringValue?.isEmpty == false, "\(method) \(target): \(r.text)")
            }
            #expect(try await request(p, "GET", "/keep.json").json == json(#"{"v": 1}"#))
        }
    }

    @Test("tokens: auth=, access_token= and Bearer; any other token, owner included, gets 401")
    func auth() async throws {
        try await withServer({ $0.tokens = ["alice"] }) { server throws in
            let p = server.port
            #expect(try await request(p, "GET", "/.json").status == 401)
            #expect(try await request(p, "GET", "/.json?auth=mallory").status == 401)
            #expect(try await request(p, "GET", "/.json?auth=alice").status == 200)
            #expect(try await request(p, "GET", "/.json?access_token=alice").status == 200)
            #expect(try await request(p, "GET", "/.json", headers: ["Authorization": "Bearer alice"]).status == 200)
            #expect(try await request(p, "GET", "/.json", headers: ["Authorization": "Bearer owner"]).status == 401)
            #expect(try await request(p, "PUT", "/x.json?auth=mallory", body: "1").status == 401)
            #expect(try await request(p, "GET", "/x.json?auth=alice&ns=demo&auth_variable_override=%7B%22uid%22%3A%22u%22%7D").json == .null)
            server.revoke(token: "alice")
            #expect(try await request(p, "GET", "/.json?auth=alice").status == 401)
            server.addToken("alice")
            #expect(try await request(p, "GET", "/.json?auth=alice").status == 200)
        }
    }

    @Test("canonically equivalent member names stay apart: PUT, GET, PATCH, shallow, export, child URLs")
    func equivalentNames() async throws {
        try await withServer { server in
            let p = server.port
            let body = #"{"\u00e9": {"\u00c5": 1, "A\u030a": 2, "\u212b": 3}, "e\u0301": 4}"#
            var r = try await request(p, "PUT", "/k.json", body: body)
            #expect(r.status == 200 && r.json?.objectValue?.count == 2 && r.json == json(body))
            r = try await request(p, "GET", "/k.json")
            #expect(r.json?.objectValue?.count == 2 && r.json?["\u{E9}"]?.objectValue?.count == 3)
            #expect(r.json == json(body))
            r = try await request(p, "GET", "/k.json?shallow=true")
            #expect(r.json?.objectValue?.count == 2)
            r = try await request(p, "GET", "/k/e%CC%81.json")
            #expect(r.json == 4)
            r = try await request(p, "GET", "/k/%C3%A9/%E2%84%AB.json")
            #expect(r.json == 3)
            r = try await request(p, "PATCH", "/k.json", body: #"{"\u00e9/A\u030a": 5, "e\u0301": null, "\u212b": 6}"#)
            #expect(r.status == 200 && r.json?.objectValue?.count == 3)
            r = try await request(p, "GET", "/k.json?format=export")
            #expect(r.json?.objectValue?.count == 2 && r.json?["\u{E9}"]?.objectValue?.count == 3)
            #expect(r.json == json(#"{"\u00e9": {"\u00c5": 1, "A\u030a": 5, "\u212b": 3}, "\u212b": 6}"#))
        }
    }
}
