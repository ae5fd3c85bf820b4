// RESTMalformedResponseTests.swift — whatever a server sends, the client
// answers with a typed error and never crashes: broken JSON, HTML pages,
// empty bodies, redirects without a location or in a loop, random bytes.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import LiveFirebase
import LiveModel
import LiveTestSupport
import Testing

@Suite struct RESTMalformedResponseTests {
    static let token = "SECRET-TOKEN-123"

    func client(_ transport: RESTFakeTransport, credentials: Credentials = .fixed(.idToken(token))) throws -> DatabaseClient {
        DatabaseClient(try DatabaseReference(url: "https://db.example.com", path: "/base", credentials: credentials),
                       transport: transport)
    }

    /// The error `body` throws, checked to carry no token.
    func error(_ body: () async throws -> Void) async -> DatabaseError? {
        do {
            try await body()
            return nil
        } catch let error as DatabaseError {
            #expect(!error.description.contains(Self.token), "\(error)")
            #expect(!String(reflecting: error).contains(Self.token), "\(error)")
            return error
        } catch {
            Issue.record("not a DatabaseError: \(error)")
            return nil
        }
    }

    @Test func truncatedJSONIsAnInvalidResponseWithThePosition() async throws {
        let client = try client(RESTFakeTransport(RESTFakeAnswer(status: 200, body: #"{"a": {"b": 1"#)))
        let error = await error { _ = try await client.get("x") }
        guard case .invalidResponse(let message)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(message.contains("jsonTruncated"), "\(message)")
        #expect(message.contains("byte"), "\(message)")
        #expect(message.contains("https://db.example.com/base/x.json?format=export&auth=<redacted>"), "\(message)")
    }

    @Test func anHTMLPageInsteadOfJSON() async throws {
        let page = "<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>"
        let ok = try client(RESTFakeTransport(RESTFakeAnswer(status: 200, headers: ["Content-Type": "text/html"], body: page)))
        guard case .invalidResponse? = await error({ _ = try await ok.get() }) else { Issue.record("not invalidResponse"); return }
        let gateway = try client(RESTFakeTransport(RESTFakeAnswer(status: 502, body: page)))
        let error = await error { _ = try await gateway.get() }
        #expect(error == .http(status: 502, message: "Bad Gateway", url: "https://db.example.com/base.json?format=export&auth=<redacted>"))
    }

    @Test func a500WithoutABody() async throws {
        let client = try client(RESTFakeTransport(RESTFakeAnswer(status: 500)))
        let error = await error { try await client.set(1, at: "x") }
        #expect(error == .http(status: 500, message: "Internal Server Error",
                               url: "https://db.example.com/base/x.json?print=silent&auth=<redacted>"))
    }

    @Test func theServersErrorTextIsKeptWithoutTheToken() async throws {
        let body = #"{"error": "Index not defined, add \".indexOn\": \"score\", for path \"/base\"; token SECRET-TOKEN-123"}"#
        let client = try client(RESTFakeTransport(RESTFakeAnswer(status: 400, body: body)))
        let error = await error { _ = try await client.get(query: DatabaseQuery(order: .child("score"))) }
        guard case .http(400, let message, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(message.hasPrefix(#"Index not defined, add ".indexOn": "score""#))
        #expect(message.hasSuffix("token <redacted>"))
        let plain = try self.client(RESTFakeTransport(RESTFakeAnswer(status: 429, body: "slow down\nplease\n")))
        #expect(await self.error { _ = try await plain.get() }
            == .http(status: 429, message: "slow down please", url: "https://db.example.com/base.json?format=export&auth=<redacted>"))
    }

    @Test func forbiddenIsPermissionDenied() async throws {
        let client = try client(RESTFakeTransport(RESTFakeAnswer(status: 403, body: #"{"error":"Permission denied"}"#)))
        #expect(await error { try await client.remove(at: "x") } == .permissionDenied("Permission denied"))
        let unauthorized = try self.client(RESTFakeTransport(RESTFakeAnswer(status: 401, body: "")))
        #expect(await error { try await unauthorized.remove(at: "x") } == .permissionDenied("Unauthorized"))
    }

    @Test func aRedirectWithoutLocation() async throws {
        let transport = RESTFakeTransport(RESTFakeAnswer(status: 307))
        let client = try client(transport)
        guard case .invalidResponse(let message)? = await error({ _ = try await client.get() }) else {
            Issue.record("not invalidResponse"); return
        }
        #expect(message.contains("without a Location"))
        #expect(transport.requests.count == 1)
    }

    @Test func aRedirectLoopStops() async throws {
        let transport = RESTFakeTransport(RESTFakeAnswer(status: 307,
            headers: ["Location": "https://db.example.com/base.json?auth=\(Self.token)"]))
        let client = try client(transport)
        #expect(await error { _ = try await client.get() } == .tooManyRedirects(DatabaseClient.maxRedirects))
        #expect(transport.requests.count == DatabaseClient.maxRedirects + 1)
    }

    @Test func redirectsKeepMethodBodyAndCredential() async throws {
        let transport = RESTFakeTransport { request, index in
            switch index {
            case 0: return RESTFakeAnswer(status: 307, headers: ["Location": "https://shard-1.example.com/base/x.json?print=silent&auth=stale"])
            case 1: return RESTFakeAnswer(status: 308, headers: ["Location": "/moved/x.json?print=silent"])
            default: return RESTFakeAnswer(status: 204)
            }
        }
        let client = try client(transport)
        try await client.set(["a": 1], at: "x")
        let requests = transport.requests
        #expect(requests.count == 3)
        #expect(requests.map { $0.url?.absoluteString ?? "" } == [
            "https://db.example.com/base/x.json?print=silent&auth=\(Self.token)",
            "https://shard-1.example.com/base/x.json?print=silent&auth=\(Self.token)",
            "https://shard-1.example.com/moved/x.json?print=silent&auth=\(Self.token)",
        ])
        for request in requests {
            #expect(request.httpMethod == "PUT")
            #expect(request.httpBody == Data(#"{"a":1}"#.utf8))
            #expect(request.value(forHTTPHeaderField: "X-Firebase-ETag") == "true")
        }
        let bearer = RESTFakeTransport { _, index in
            index == 0 ? RESTFakeAnswer(status: 307, headers: ["Location": "https://shard-1.example.com/base.json"])
                : RESTFakeAnswer(status: 200, body: "1")
        }
        let bearerClient = try self.client(bearer, credentials: .fixed(.bearer(Self.token)))
        #expect(try await bearerClient.get().value == 1)
        #expect(bearer.requests.map { $0.value(forHTTPHeaderField: "Authorization") } == Array(repeating: "Bearer \(Self.token)", count: 2))
    }

    @Test func unusableRedirects() async throws {
        for location in ["ftp://elsewhere.example.com/x.json", "http://db.example.com/base.json", "https://", "mailto:x@y"] {
            let client = try client(RESTFakeTransport(RESTFakeAnswer(status: 307, headers: ["Location": location])))
            guard case .invalidResponse? = await error({ _ = try await client.get() }) else {
                Issue.record("\(location) was followed"); continue
            }
        }
        // Other 3xx statuses are not followed.
        let moved = try client(RESTFakeTransport(RESTFakeAnswer(status: 302, headers: ["Location": "https://x.example.com/"])))
        guard case .http(302, _, _)? = await error({ _ = try await moved.get() }) else { Issue.record("302 followed"); return }
    }

    @Test func pushAnswersThatNameNoKey() async throws {
        for body in [#"{"name": 5}"#, #"{"name": "a/b"}"#, #"{}"#, #"[1]"#, #""-Nabc""#, "", "null", #"{"name": ""}"#] {
            let client = try client(RESTFakeTransport(RESTFakeAnswer(status: 200, body: body)))
            guard case .invalidResponse? = await error({ _ = try await client.push(1) }) else {
                Issue.record("push accepted \(body)"); continue
            }
        }
        let good = try client(RESTFakeTransport(RESTFakeAnswer(status: 200, body: #"{"name":"-Nabc"}"#)))
        #expect(try await good.push(1) == "-Nabc")
    }

    @Test func transportFailuresCarryNoToken() async throws {
        let failing = RESTFakeTransport { request, _ in
            throw URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: request.url!,
                                                  NSLocalizedDescriptionKey: "timed out for \(request.url!.absoluteString)"])
        }
        let client = try client(failing)
        guard case .transport(let reason)? = await error({ _ = try await client.get() }) else {
            Issue.record("not a transport error"); return
        }
        #expect(reason.contains("timed out"))
        let other = RESTFakeTransport { _, _ in throw RESTTransportFailure(detail: "socket closed, token \(Self.token)") }
        guard case .transport(let otherReason)? = await error({ _ = try await self.client(other).get() }) else {
            Issue.record("not a transport error"); return
        }
        #expect(otherReason == "socket closed, token <redacted>")
    }

    @Test func deeplyNestedAndInvalidBytes() async throws {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let bodies: [[UInt8]] = [Array(deep.utf8), [0xFF, 0xFE, 0x22], Array(#"{"a.b": 1}"#.utf8), Array(#"{"a": 1} trailing"#.utf8),
                                 Array("\u{0}".utf8), Array(#"{"a":"\u0000"}"#.utf8), Array("1e999".utf8)]
        for bytes in bodies {
            let client = try client(RESTFakeTransport(RESTFakeAnswer(status: 200, bytes: bytes)))
            guard case .invalidResponse? = await error({ _ = try await client.get() }) else {
                Issue.record("accepted \(bytes.prefix(20))"); continue
            }
        }
    }

    /// Random statuses, headers and bodies: every call ends, a failure is a
    /// `DatabaseError` without the token (``error(_:)`` checks), an error
    /// status always fails, and a 2xx answer fails only as an invalid
    /// response.
    @Test(arguments: SplitMix64.testSeeds)
    func randomAnswersNeverCrash(seed: UInt64) async throws {
        let replay = TestSeed(seed, test: "randomAnswersNeverCrash")
        var rng = SplitMix64(seed: seed)
        let fragments = ["{", "}", "[", "]", "\"", ":", ",", "a", "\"k\"", "1", "-", "e9", "null", "true", ".priority",
                         "\".value\"", "\\u00e9", "\\", " ", "é", "\u{0}", "<html>", "{\"error\":", "\"name\""]
        let statuses = [200, 200, 200, 204, 301, 307, 400, 401, 403, 404, 412, 500, 503]
        for round in 0..<200 {
            let body = (0..<Int.random(in: 0...30, using: &rng)).map { _ in fragments.randomElement(using: &rng)! }.joined()
            let status = statuses.randomElement(using: &rng)!
            var headers: [String: String] = [:]
            if Bool.random(using: &rng) { headers["ETag"] = "tag" }
            if Bool.random(using: &rng) { headers["Location"] = ["https://db.example.com/x.json", "::", ""].randomElement(using: &rng)! }
            let client = try client(RESTFakeTransport(RESTFakeAnswer(status: status, headers: headers, body: body)))
            let query = RESTQueryFixtures.query(RESTQueryFixtures.orders.randomElement(using: &rng)!, children: [], using: &rng)
            let errors = [
                await error { _ = try await client.get("x", query: query) },
                await error { _ = try await client.getWithETag("x") },
                await error { _ = try await client.getShallow("x") },
                await error { _ = try await client.push(1) },
                await error { try await client.set(1, ifMatch: "tag") },
            ]
            let context = "round \(round), status \(status), headers \(headers), body \(body.debugDescription); \(replay)"
            if status >= 400 {
                #expect(errors.allSatisfy { $0 != nil }, "an error status succeeded: \(context)")
            }
            if (200..<300).contains(status) {
                for case let failure? in errors {
                    guard case .invalidResponse = failure else {
                        Issue.record("a 2xx answer failed with \(failure): \(context)"); continue
                    }
                }
            }
        }
    }
}

struct RESTTransportFailure: Error, CustomStringConvertible {
    let detail: String
    var description: String { detail }
}
