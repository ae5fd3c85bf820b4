// RESTFakeTransport.swift — an HTTPTransport that answers from a closure and
// records the requests it was given.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LiveFirebase

/// A canned answer.
struct RESTFakeAnswer: Sendable {
    var status: Int
    var headers: [String: String] = [:]
    var body: Data = Data()

    init(status: Int, headers: [String: String] = [:], body: String) {
        self.status = status
        self.headers = headers
        self.body = Data(body.utf8)
    }

    init(status: Int, headers: [String: String] = [:], bytes: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = Data(bytes)
    }
}

/// Answers each request with `answer(request, index)`, where index counts
/// the requests from 0; records every request.
final class RESTFakeTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [URLRequest] = []
    private let answer: @Sendable (URLRequest, Int) throws -> RESTFakeAnswer

    init(_ answer: @escaping @Sendable (URLRequest, Int) throws -> RESTFakeAnswer) {
        self.answer = answer
    }

    /// Always the same answer.
    convenience init(_ fixed: RESTFakeAnswer) {
        self.init { _, _ in fixed }
    }

    var requests: [URLRequest] { lock.withLock { recorded } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let index = lock.withLock {
            recorded.append(request)
            return recorded.count - 1
        }
        let reply = try answer(request, index)
        let response = HTTPURLResponse(url: request.url!, statusCode: reply.status, httpVersion: "HTTP/1.1",
                                       headerFields: reply.headers)!
        return (reply.body, response)
    }
}

/// Records the requests a real transport sends.
final class RESTRecordingTransport: HTTPTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [URLRequest] = []
    private var failed = 0
    private let inner: any HTTPTransport

    init(_ inner: any HTTPTransport = PlatformHTTPTransport.shared) { self.inner = inner }

    var requests: [URLRequest] { lock.withLock { recorded } }
    /// How many requests failed without an answer (the transport threw).
    var failures: Int { lock.withLock { failed } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        lock.withLock { recorded.append(request) }
        do { return try await inner.send(request) } catch {
            lock.withLock { failed += 1 }
            throw error
        }
    }
}
