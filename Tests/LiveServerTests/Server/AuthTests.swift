// AuthTests.swift — which tokens a server accepts, by host and mode, over
// REST and streams: `owner` is no master key.

@testable import LiveServer
import Testing

@Suite("LiveServer auth", .serialized)
struct AuthTests {
    /// How a request carries its token.
    enum Carrier: CaseIterable { case query, accessToken, bearer }

    /// The statuses of a GET, a PUT and a stream with `token` (nil: none).
    struct Statuses: Equatable, CustomStringConvertible {
        var get: Int, put: Int, stream: Int
        static func all(_ status: Int) -> Statuses { Statuses(get: status, put: status, stream: status) }
        var description: String { "GET \(get), PUT \(put), stream \(stream)" }
    }

    static func statuses(_ server: LiveServer, _ token: String?, _ carrier: Carrier) async throws -> Statuses {
        var query = "", headers: [String: String] = [:]
        if let token {
            switch carrier {
            case .query: query = "?auth=\(token)"
            case .accessToken: query = "?access_token=\(token)"
            case .bearer: headers["Authorization"] = "Bearer \(token)"
            }
        }
        let p = server.port
        let get = try await request(p, "GET", "/auth.json" + query, headers: headers).status
        let put = try await request(p, "PUT", "/auth/x.json" + query, headers: headers, body: "1").status
        let stream = try await EventReader(port: p, "/auth.json" + query, headers: headers).status
        return Statuses(get: get, put: put, stream: stream)
    }

    /// Checks every carrier of every token against the expected statuses.
    static func expect(_ server: LiveServer, _ expected: [String?: Int], _ context: String) async throws {
        for (token, status) in expected {
            for carrier in Carrier.allCases where token != nil || carrier == .query {
                let got = try await statuses(server, token, carrier)
                #expect(got == .all(status), "\(context): token \(token ?? "none") by \(carrier): \(got)")
            }
        }
    }

    @Test("open mode on loopback: everyone, owner included, may read, write and listen")
    func openLoopback() async throws {
        try await withServer { server in
            try await Self.expect(server, [nil: 200, "owner": 200, "anyone": 200], "open, loopback")
        }
    }

    @Test("tokens on loopback: exactly the given tokens; owner and others get 401")
    func tokensLoopback() async throws {
        try await withServer({ $0.tokens = ["alice"] }) { server in
            try await Self.expect(server, [nil: 401, "alice": 200, "owner": 401, "mallory": 401], "tokens, loopback")
        }
    }

    @Test("tokens beyond loopback: exactly the given tokens; owner and others get 401")
    func tokensRemote() async throws {
        try await withServer({ $0.host = "0.0.0.0"; $0.tokens = ["s3cret"] }) { server in
            try await Self.expect(server, [nil: 401, "s3cret": 200, "owner": 401, "wrong": 401], "tokens, 0.0.0.0")
        }
    }

    @Test("owner named as a token is accepted, on loopback and beyond, and can be revoked like any other")
    func ownerNamed() async throws {
        for host in ["127.0.0.1", "0.0.0.0"] {
            try await withServer({ $0.host = host; $0.tokens = ["alice", "owner"] }) { server in
                try await Self.expect(server, [nil: 401, "alice": 200, "owner": 200, "mallory": 401], "owner named, \(host)")
                server.revoke(token: "owner")
                try await Self.expect(server, ["alice": 200, "owner": 401], "owner revoked, \(host)")
            }
        }
    }

    @Test("open mode beyond loopback starts only when allowed, and then serves everyone")
    func openRemote() async throws {
        var configuration = LiveServerConfiguration()
        configuration.host = "0.0.0.0"
        await #expect(throws: LiveServerError.self) { _ = try await LiveServer.start(configuration) }
        try await withServer({ $0.host = "0.0.0.0"; $0.allowsRemoteOpenAccess = true }) { server in
            try await Self.expect(server, [nil: 200, "owner": 200, "anyone": 200], "open, 0.0.0.0, allowed")
        }
    }

    @Test("loopback hosts are localhost, ::1 and IPv4 addresses in 127/8; names and other addresses are not")
    func loopbackHosts() {
        func isLoopback(_ host: String) -> Bool {
            var configuration = LiveServerConfiguration()
            configuration.host = host
            return configuration.isLoopbackHost
        }
        for host in ["127.0.0.1", "127.1.2.3", "127.255.255.255", "localhost", "::1"] {
            #expect(isLoopback(host), "\(host)")
        }
        for host in ["0.0.0.0", "10.0.0.1", "::", "127.example.com", "127.0.0", "127.0.0.256", "127.0.0.+1",
                     "127.0.0.1.nip.io", "128.0.0.1", ""] {
            #expect(!isLoopback(host), "\(host)")
        }
    }
}
