// RESTLoggingTests.swift — the client logs each request at debug level, its
// URL redacted, and never a token.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import LiveFirebase
import LiveModel
import Testing

@Suite struct RESTLoggingTests {
    static let token = "LOGGED-SECRET-42"

    @Test func requestsAreLoggedWithoutTokens() async throws {
        let capture = RESTLogCapture()
        let transport = RESTFakeTransport { request, index in
            switch index {
            case 0: return RESTFakeAnswer(status: 401, body: #"{"error":"Auth token is expired: LOGGED-SECRET-42"}"#)
            case 1: return RESTFakeAnswer(status: 307, headers: ["Location": "https://shard.example.com/x.json?auth=LOGGED-SECRET-42"])
            case 2: throw URLError(.networkConnectionLost, userInfo: [NSURLErrorFailingURLErrorKey: request.url!])
            default: return RESTFakeAnswer(status: 200, body: "1")
            }
        }
        let reference = try DatabaseReference(url: "https://db.example.com",
                                              credentials: .provider { _ in .accessToken(Self.token) })
        let client = DatabaseClient(reference, transport: transport, logger: capture.logger())
        await #expect(throws: DatabaseError.self) { _ = try await client.get("x") }
        #expect(try await client.get("x").value == 1)
        let messages = capture.messages
        #expect(messages.count >= 4)
        for message in messages {
            #expect(!message.contains(Self.token), "\(message)")
            #expect(message.hasPrefix("debug "), "\(message)")
        }
        #expect(messages.contains { $0.contains("GET https://db.example.com/x.json?format=export&access_token=<redacted> → 401") })
        #expect(messages.contains { $0.contains("fresh") })
        // The stale auth= of the redirect is dropped for the credential in use.
        #expect(messages.contains { $0.contains("GET https://shard.example.com/x.json?access_token=<redacted> failed") })
        #expect(messages.contains { $0.contains("the connection was lost") })
    }
}
