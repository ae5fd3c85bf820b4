// AccessPolicyTests.swift — which Host and Origin names reach an open-mode
// server, what CORS headers answer them, and the method override on POST
// only. (A real browser on another origin: Tests/Web/test_cross_origin.py.)

import LiveServer
import Testing

@Suite("LiveServer access from browsers")
struct AccessPolicyTests {
    @Test("open mode answers loopback Host names only, with its own port when one is given")
    func hosts() async throws {
        try await withServer { server in
            let p = server.port
            for host in ["127.0.0.1:\(p)", "localhost:\(p)", "LocalHost:\(p)", "[::1]:\(p)", "127.9.8.7:\(p)", "localhost"] {
                #expect(try await request(p, "GET", "/.json", headers: ["Host": host]).status == 200, "\(host)")
            }
            for host in ["evil.test:\(p)", "127.0.0.1:\(p + 1)", "127.0.0.1.evil.test:\(p)", "localhost.evil.test",
                         "[::2]:\(p)", "127.0.0.256:\(p)", "127.0.0.1:", "127.0.0.1:x", ""] {
                let r = try await request(p, "GET", "/.json", headers: ["Host": host])
                #expect(r.status == 403 && r.json?["error"]?.stringValue?.contains("Host") == true, "\(host)")
            }
        }
    }

    @Test("open mode serves loopback origins (with their origin back) and refuses every other, writes unread")
    func origins() async throws {
        try await withServer { server in
            let p = server.port
            _ = try await request(p, "PUT", "/a.json", body: "1")
            for origin in ["http://localhost:5173", "https://127.0.0.1", "http://[::1]:8080"] {
                let r = try await request(p, "GET", "/a.json", headers: ["Origin": origin])
                #expect(r.status == 200 && r.headers["access-control-allow-origin"] == origin, "\(origin)")
            }
            for origin in ["http://evil.test", "null", "file://", "http://localhost.evil.test", "ftp://localhost"] {
                for method in ["GET", "PUT", "DELETE"] {
                    let r = try await request(p, method, "/a.json", headers: ["Origin": origin], body: "2")
                    #expect(r.status == 403 && r.headers["access-control-allow-origin"] == nil, "\(method) \(origin)")
                }
            }
            #expect(try await request(p, "GET", "/a.json").json == 1)
            let preflight = try await request(p, "OPTIONS", "/a.json", headers: [
                "Origin": "http://localhost:5173", "Access-Control-Request-Method": "PUT"])
            #expect(preflight.status == 204 && preflight.headers["access-control-allow-methods"]?.contains("PUT") == true)
        }
    }

    @Test("with tokens, any origin and name is served, and every request still needs a token")
    func tokens() async throws {
        try await withServer({ $0.tokens = ["t"] }) { server in
            let p = server.port
            let allowed = try await request(p, "GET", "/.json?auth=t", headers: ["Origin": "http://evil.test", "Host": "db.test"])
            #expect(allowed.status == 200 && allowed.headers["access-control-allow-origin"] == "*")
            #expect(try await request(p, "GET", "/.json", headers: ["Origin": "http://evil.test"]).status == 401)
        }
    }

    @Test("the method override is honoured on POST only: a GET never writes")
    func override() async throws {
        try await withServer { server in
            let p = server.port
            _ = try await request(p, "PUT", "/a.json", body: "1")
            #expect(try await request(p, "GET", "/a.json?x-http-method-override=DELETE").status == 400)
            #expect(try await request(p, "GET", "/a.json", headers: ["X-HTTP-Method-Override": "DELETE"]).status == 400)
            #expect(try await request(p, "PUT", "/a.json?x-http-method-override=DELETE", body: "3").status == 400)
            #expect(try await request(p, "GET", "/a.json").json == 1)
            #expect(try await request(p, "POST", "/a.json?x-http-method-override=PUT", body: "2").status == 200)
            #expect(try await request(p, "GET", "/a.json").json == 2)
        }
    }
}
