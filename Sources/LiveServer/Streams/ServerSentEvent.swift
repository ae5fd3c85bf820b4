// ServerSentEvent.swift — the events of a Realtime Database stream, framed
// as server-sent events.

import LiveModel

/// One event of a stream: `put`, `patch`, `keep-alive`, `cancel` or
/// `auth_revoked`, framed as `event: <name>\ndata: <json>\n\n`.
struct ServerSentEvent: Sendable, Equatable {
    let name: String
    /// The `data:` line: one line of JSON.
    let data: String
    /// The framed bytes, made once however many listeners get them.
    let bytes: [UInt8]

    init(name: String, data: String) {
        self.name = name
        self.data = data
        bytes = Array("event: \(name)\ndata: \(data)\n\n".utf8)
    }

    /// `put` of `data` at `path` (relative to the listened location).
    static func put(_ path: Path, _ data: JSONValue) -> ServerSentEvent {
        ServerSentEvent(name: "put", data: payload(path, data.jsonText()))
    }

    /// `put` of the JSON text `data` at `path`.
    static func put(_ path: Path, json data: [UInt8]) -> ServerSentEvent {
        ServerSentEvent(name: "put", data: payload(path, String(decoding: data, as: UTF8.self)))
    }

    /// `patch` at `path`: each member (a relative path) replaces what is there.
    static func patch(_ path: Path, _ members: JSONObject) -> ServerSentEvent {
        ServerSentEvent(name: "patch", data: payload(path, JSONValue.object(members).jsonText()))
    }

    static let keepAlive = ServerSentEvent(name: "keep-alive", data: "null")
    static let cancel = ServerSentEvent(name: "cancel", data: JSONValue.string("Permission denied").jsonText())
    static let authRevoked = ServerSentEvent(name: "auth_revoked",
                                             data: JSONValue.string("credential is no longer valid").jsonText())

    /// A `put` whose data is not JSON, for fault injection.
    static let malformed = ServerSentEvent(name: "put", data: #"{"path": "/", "data": {"#)

    private static func payload(_ path: Path, _ dataText: String) -> String {
        #"{"path":"# + JSONValue.string(path.description).jsonText() + #","data":"# + dataText + "}"
    }
}
