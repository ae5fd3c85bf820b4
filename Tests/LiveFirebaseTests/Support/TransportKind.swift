// TransportKind.swift — the real transports (URLSession, AsyncHTTPClient),
// so that each transport test runs against every one available here.

import LiveFirebase
import Testing

enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession, httpClient

    /// The kinds this platform builds (AsyncHTTPClient is Linux's).
    static var available: [TransportKind] {
        #if canImport(AsyncHTTPClient)
        allCases
        #else
        [.urlSession]
        #endif
    }

    var testDescription: String { rawValue }

    func stream() -> any StreamTransport {
        #if canImport(AsyncHTTPClient)
        if self == .httpClient { return HTTPClientStreamTransport() }
        #endif
        return URLSessionStreamTransport()
    }

    func http() -> any HTTPTransport {
        #if canImport(AsyncHTTPClient)
        if self == .httpClient { return HTTPClientHTTPTransport() }
        #endif
        return URLSessionHTTPTransport()
    }
}
