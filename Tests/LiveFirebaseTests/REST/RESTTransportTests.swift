// RESTTransportTests.swift — the URLSession transport: it hands redirects
// back instead of following them, and a closed port is a transport error.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

@Suite struct RESTTransportTests {
    @Test func redirectsAreReturnedNotFollowed() async throws {
        try await withServer { server in
            let other = try await server.addPort()
            server.setFaults([.redirect(port: other)])
            var request = URLRequest(url: URL(string: server.url + "/x.json?auth=abc")!)
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            request.timeoutInterval = 10
            let (_, response) = try await URLSessionHTTPTransport().send(request)
            #expect(response.statusCode == 307)
            #expect(response.value(forHTTPHeaderField: "Location")?.contains(":\(other)/x.json") == true)
        }
    }

    @Test func aClosedPortIsATransportError() async throws {
        // A port that was just free: nothing listens on it.
        let port = try await withServer { server in server.port }
        let client = DatabaseClient(try DatabaseReference(url: "http://127.0.0.1:\(port)",
                                                          credentials: .fixed(.idToken("SECRET-TOKEN"))))
        do {
            _ = try await client.get("x")
            Issue.record("a closed port answered")
        } catch {
            guard case .transport(let reason) = error else { throw error }
            #expect(!reason.isEmpty)
            #expect(!error.description.contains("SECRET-TOKEN"))
        }
    }
}
