// RESTAuthTests.swift — credentials against a LiveServer with tokens:
// each placement, refusal, a provider refreshed after revocation, and ns=.

import Foundation
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

@Suite struct RESTAuthTests {
    @Test func everyPlacementIsAccepted() async throws {
        try await withServer({ $0.tokens = ["token-1"] }) { server in
            for credential in [Credential.idToken("token-1"), .accessToken("token-1"), .bearer("token-1")] {
                let client = try restClient(server, credentials: .fixed(credential))
                try await client.set("ok", at: "x")
                #expect(try await client.get("x").value == "ok", "\(credential)")
            }
        }
    }

    @Test func noTokenOrAWrongOneIsPermissionDenied() async throws {
        try await withServer({ $0.tokens = ["token-1"] }) { server in
            for credentials in [Credentials.none, .fixed(.idToken("WRONG-SECRET")), .fixed(.bearer("WRONG-SECRET"))] {
                let client = try restClient(server, credentials: credentials)
                do {
                    _ = try await client.get("x")
                    Issue.record("read without a valid token")
                } catch let error as DatabaseError {
                    guard case .permissionDenied(let message) = error else { throw error }
                    #expect(message == "Permission denied")
                    #expect(!error.description.contains("WRONG-SECRET"))
                    #expect(!String(reflecting: error).contains("WRONG-SECRET"))
                }
                await #expect(throws: DatabaseError.permissionDenied("Permission denied")) {
                    try await client.set(1, at: "x")
                }
            }
        }
    }

    @Test func aProviderIsAskedAgainAfterRevocation() async throws {
        try await withServer({ $0.tokens = ["first"] }) { server in
            let provider = RESTTokenProvider(tokens: ["first", "second"])
            let client = try restClient(server, credentials: .provider { force in try provider.next(forceRefresh: force) })
            try await client.set(1, at: "x")
            #expect(provider.calls == [false])
            server.revoke(token: "first")
            server.addToken("second")
            #expect(try await client.get("x").value == 1)
            #expect(provider.calls == [false, false, true])
            try await client.set(2, at: "x")
            #expect(provider.calls == [false, false, true, false])
        }
    }

    @Test func aProviderIsAskedAgainOnlyOnce() async throws {
        try await withServer({ $0.tokens = ["first"] }) { server in
            let provider = RESTTokenProvider(tokens: ["never-accepted", "also-refused"])
            let client = try restClient(server, credentials: .provider { force in try provider.next(forceRefresh: force) })
            do {
                _ = try await client.get("x")
                Issue.record("read with refused tokens")
            } catch let error as DatabaseError {
                guard case .permissionDenied = error else { throw error }
                #expect(!error.description.contains("refused"))
            }
            #expect(provider.calls == [false, true])
        }
    }

    @Test func aFailingProviderIsReported() async throws {
        try await withServer({ $0.tokens = ["first"] }) { server in
            let client = try restClient(server, credentials: .provider { _ in throw RESTProviderFailure() })
            do {
                _ = try await client.get("x")
                Issue.record("read without a credential")
            } catch let error as DatabaseError {
                guard case .credentialsUnavailable(let reason) = error else { throw error }
                #expect(reason.contains("signed out"))
            }
        }
    }

    @Test func aNamespaceIsSentAndAccepted() async throws {
        try await withServer({ $0.tokens = ["token-1"] }) { server in
            let transport = RESTRecordingTransport()
            let reference = DatabaseReference(database: try DatabaseURL(server.url + "?ns=my-app"), path: "/rooms",
                                              credentials: .fixed(.idToken("token-1")))
            let client = DatabaseClient(reference, transport: transport)
            try await client.set(["a": 1], at: "r1")
            #expect(try await client.get("r1").value == ["a": 1])
            let urls = transport.requests.compactMap { $0.url?.absoluteString }
            #expect(urls.count == 2)
            for url in urls {
                #expect(url.contains("ns=my-app"), "\(url)")
                #expect(url.hasSuffix("&auth=token-1"))
            }
        }
    }
}

/// Hands out tokens in turn: the same one until asked to refresh.
final class RESTTokenProvider: @unchecked Sendable {
    private let lock = NSLock()
    private let tokens: [String]
    private var index = 0
    private var recorded: [Bool] = []

    init(tokens: [String]) { self.tokens = tokens }

    var calls: [Bool] { lock.withLock { recorded } }

    func next(forceRefresh: Bool) throws -> Credential {
        lock.withLock {
            recorded.append(forceRefresh)
            if forceRefresh { index = min(index + 1, tokens.count - 1) }
            return .idToken(tokens[index])
        }
    }
}

struct RESTProviderFailure: Error, CustomStringConvertible {
    var description: String { "the user signed out" }
}
