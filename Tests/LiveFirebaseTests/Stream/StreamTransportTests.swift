// StreamTransportTests.swift — each real stream transport against a
// LiveServer on loopback: incremental bytes, redirects reported, closing.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import LiveFirebase
import LiveModel
import LiveServer
import Testing
#if canImport(AsyncHTTPClient)
import NIOHTTP1
#endif

@Suite(.serialized) struct StreamTransportTests {
    private func streamRequest(_ url: String) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        return request
    }

    @Test("the response head, then bytes as they are sent, on a connection that stays open; stopping closes it", arguments: TransportKind.available)
    func incremental(_ kind: TransportKind) async throws {
        try await withServer { server in
            try await streamWrite(server, "PUT", "/t", #"{"a": 1}"#)
            let transport = kind.stream()
            var iterator = transport.open(streamRequest("\(server.url)/t.json")).makeAsyncIterator()
            guard case .response(let status, let headers)? = try await iterator.next() else {
                Issue.record("no response head"); return
            }
            #expect(status == 200 && headers["content-type"] == "text/event-stream", "lower-cased names: \(headers)")
            var parser = SSEParser()
            var items: [SSEItem] = []
            while items.isEmpty, case .bytes(let bytes)? = try await iterator.next() {
                items += try parser.feed(bytes)
            }
            #expect(items == [.event(ServerSentEvent(name: "put", text: #"{"path":"/","data":{"a":1}}"#))])
            // The next event arrives while the request is still going: the body is not buffered to its end.
            try await streamWrite(server, "PUT", "/t/b", "2")
            items = []
            while items.isEmpty, case .bytes(let bytes)? = try await iterator.next() {
                items += try parser.feed(bytes)
            }
            #expect(items == [.event(ServerSentEvent(name: "put", text: #"{"path":"/b","data":2}"#))])
            #expect(server.listeners().count == 1)
        }
    }

    @Test("dropping the sequence cancels the request; the server sees the stream close", arguments: TransportKind.available)
    func cancel(_ kind: TransportKind) async throws {
        try await withServer { server in
            let transport = kind.stream()
            let task = Task {
                for try await event in transport.open(streamRequest("\(server.url)/c.json")) {
                    if case .bytes = event { return }
                }
            }
            try await task.value
            #expect(await eventually { server.listeners().isEmpty }, "the connection is closed")
            let opened = Task {
                for try await _ in transport.open(streamRequest("\(server.url)/c.json")) {}
            }
            #expect(await eventually { server.listeners().count == 1 })
            opened.cancel()
            #expect(await eventually { server.listeners().isEmpty }, "cancelling the consumer closes it too")
        }
    }

    @Test("a redirect is reported, not followed; an error status comes with its body", arguments: TransportKind.available)
    func redirectAndError(_ kind: TransportKind) async throws {
        try await withServer({ $0.tokens = ["transport-token-1"] }) { server in
            let second = try await server.addPort()
            server.setFaults([.redirect(port: second)])
            let transport = kind.stream()
            var events: [TransportEvent] = []
            for try await event in transport.open(streamRequest("\(server.url)/r.json?auth=transport-token-1")) {
                events.append(event)
            }
            guard case .response(307, let headers)? = events.first else { Issue.record("\(events)"); return }
            #expect(headers["location"] == "http://127.0.0.1:\(second)/r.json?auth=transport-token-1")
            server.setFaults([])

            var body: [UInt8] = []
            var status = 0
            for try await event in transport.open(streamRequest("\(server.url)/r.json?auth=wrong")) {
                switch event {
                case .response(let s, _): status = s
                case .bytes(let b): body += b
                }
            }
            #expect(status == 401)
            #expect(StreamMachine.serverMessage(body) == "Permission denied")
        }
    }

    @Test("a refused connection throws, described without the URL", arguments: TransportKind.available)
    func refused(_ kind: TransportKind) async throws {
        let port = try await withServer { $0.port }  // a port that was just free, and is again
        let transport = kind.stream()
        do {
            for try await _ in transport.open(streamRequest("http://127.0.0.1:\(port)/x.json?auth=secret-in-url")) {}
            Issue.record("no error")
        } catch {
            let text = StreamRedactor().describe(error)
            #expect(!text.contains("secret-in-url"), "\(text)")
            #expect(text.contains("connect"), "the failure is named: \(text)")
        }
    }
}

#if canImport(AsyncHTTPClient)
@Suite struct HTTPClientStreamTransportTests {
    @Test("a request without an http or https URL fails at once, naming the URL without its token")
    func unsupportedScheme() async throws {
        let transport = HTTPClientStreamTransport()
        do {
            for try await _ in transport.open(URLRequest(url: URL(string: "ftp://example.invalid/x.json?auth=secret-token")!)) {}
            Issue.record("no error")
        } catch let error as TransportRequestError {
            #expect(error.description.contains("ftp://example.invalid/x.json"))
            #expect(!error.description.contains("secret-token"), "\(error)")
        }
    }

    @Test("response headers arrive with lower-case names, repeated ones joined")
    func headers() {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/event-stream")
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "set-cookie", value: "b=2")
        #expect(HTTPClientStreamTransport.headers(headers) == ["content-type": "text/event-stream", "set-cookie": "a=1, b=2"])
    }
}
#endif
