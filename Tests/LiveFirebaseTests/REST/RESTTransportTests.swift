// RESTTransportTests.swift — each real REST transport: it hands redirects
// back instead of following them, returns bodies and heads whole, and a
// closed port is a transport error.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing

@Suite struct RESTTransportTests {
    @Test(arguments: TransportKind.available)
    func redirectsAreReturnedNotFollowed(_ kind: TransportKind) async throws {
        try await withServer { server in
            let other = try await server.addPort()
            server.setFaults([.redirect(port: other)])
            var request = URLRequest(url: URL(string: server.url + "/x.json?auth=abc")!)
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            request.timeoutInterval = 10
            let (_, response) = try await kind.http().send(request)
            #expect(response.statusCode == 307)
            #expect(response.value(forHTTPHeaderField: "Location")?.contains(":\(other)/x.json") == true)
        }
    }

    @Test("a body goes out and comes back whole, with the response's head", arguments: TransportKind.available)
    func roundTrip(_ kind: TransportKind) async throws {
        try await withServer { server in
            let transport = kind.http()
            let value = String(repeating: "ü", count: 300_000)
            var put = URLRequest(url: URL(string: server.url + "/big.json")!)
            put.httpMethod = "PUT"
            put.httpBody = Data(JSONValue.string(value).jsonText().utf8)
            let (_, written) = try await transport.send(put)
            #expect(written.statusCode == 200)
            var get = URLRequest(url: URL(string: server.url + "/big.json")!)
            get.setValue("true", forHTTPHeaderField: "X-Firebase-ETag")
            let (data, response) = try await transport.send(get)
            #expect(response.statusCode == 200)
            #expect(try JSONValue(parsing: String(decoding: data, as: UTF8.self)) == .string(value))
            #expect(response.value(forHTTPHeaderField: "ETag")?.isEmpty == false, "\(response.allHeaderFields)")
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
            #expect(reason.contains("connect"), "the failure is named: \(reason)")
            #expect(!error.description.contains("SECRET-TOKEN"))
        }
    }
}
