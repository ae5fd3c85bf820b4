// RESTExchange.swift — a REST request as the server core reads it, and the
// response it gives.

import LiveModel
import NIOHTTP1

/// What the core needs of an HTTP request.
struct RESTRequest: Sendable {
    var method: String
    var uri: String
    var headers: HTTPHeaders
    /// The body, followed by ``padding`` zero bytes (which let the C core
    /// check it where it lies, without a copy).
    var body: [UInt8]
    var padding = 0

    /// The body's length, without the padding.
    var bodyLength: Int { body.count - padding }

    /// The token from `auth=`, `access_token=` or `Authorization: Bearer`.
    func token(_ parameters: [String: String]) -> String? {
        if let token = parameters["auth"] ?? parameters["access_token"] { return token }
        guard let header = headers.first(name: "authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }

    /// Whether the client asks for a stream.
    var wantsStream: Bool {
        headers[canonicalForm: "accept"].contains { $0.lowercased().hasPrefix("text/event-stream") }
    }
}

/// A complete response.
struct RESTResponse: Sendable {
    var status: HTTPResponseStatus
    var headers: [(String, String)] = []
    var body: [UInt8] = []
    /// A body written as it is sent (a read of a large location), instead
    /// of ``body``.
    var text: JSONTextChunks?
    /// The body's length when it is not sent (a HEAD of ``text``).
    var textLength: Int?

    /// `value` as JSON.
    static func json(_ value: JSONValue, status: HTTPResponseStatus = .ok) -> RESTResponse {
        json(bytes: value.jsonBytes(), status: status)
    }

    /// JSON text already written.
    static func json(bytes: [UInt8], status: HTTPResponseStatus = .ok) -> RESTResponse {
        RESTResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")], body: bytes)
    }

    /// JSON text written as it is sent.
    static func json(text: JSONTextChunks) -> RESTResponse {
        RESTResponse(status: .ok, headers: [("Content-Type", "application/json; charset=utf-8")], text: text)
    }

    /// `{"error": message}` with the error's status.
    static func error(_ error: StoreError) -> RESTResponse {
        json(.object(["error": .string(error.message)]), status: HTTPResponseStatus(statusCode: error.status))
    }
}
