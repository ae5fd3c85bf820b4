// FramedEvent.swift — the events of a Realtime Database stream, framed
// as server-sent events.

import LiveModel

/// One event of a stream: `put`, `patch`, `keep-alive`, `cancel` or
/// `auth_revoked`, framed as `event: <name>\ndata: <json>\n\n`.
struct FramedEvent: Sendable, Equatable {
    let name: String
    /// The framed bytes, made once however many listeners get them.
    let bytes: [UInt8]

    /// The `data:` line: one line of JSON.
    var data: String {
        let start = "event: ".utf8.count + name.utf8.count + "\ndata: ".utf8.count
        return String(decoding: bytes[start..<(bytes.count - 2)], as: UTF8.self)
    }

    init(name: String, data: String) {
        self.init(name: name) { $0.append(contentsOf: data.utf8) }
    }

    /// The event whose data line `writeData` appends (one line of JSON),
    /// framed as it is written: a large value is not copied again.
    private init(name: String, writingData writeData: (inout [UInt8]) -> Void) {
        var bytes = Array("event: \(name)\ndata: ".utf8)
        writeData(&bytes)
        bytes.append(contentsOf: "\n\n".utf8)
        self.name = name
        self.bytes = bytes
    }

    /// `put` of `data` at `path` (relative to the listened location).
    static func put(_ path: DatabasePath, _ data: JSONValue) -> FramedEvent {
        put(path) { data.write(to: &$0, sortedKeys: false) }
    }

    /// `put` at `path` of the JSON text `writeData` appends.
    static func put(_ path: DatabasePath, writing writeData: (inout [UInt8]) -> Void) -> FramedEvent {
        FramedEvent(name: "put") { payload(path, into: &$0, writeData) }
    }

    /// `patch` at `path`: each member (a relative path) replaces what is
    /// there; a nil node is `null`, which removes it. Written straight from
    /// the nodes. Member names must differ.
    static func patch(_ path: DatabasePath, _ members: [(name: String, node: DataNode?)], export: Bool) -> FramedEvent {
        FramedEvent(name: "patch") { out in
            payload(path, into: &out) { out in
                out.append(UInt8(ascii: "{"))
                for (i, member) in members.enumerated() {
                    if i > 0 { out.append(UInt8(ascii: ",")) }
                    JSONValue.writeString(member.name, to: &out)
                    out.append(UInt8(ascii: ":"))
                    if let node = member.node { node.write(to: &out, export: export) } else { out.append(contentsOf: "null".utf8) }
                }
                out.append(UInt8(ascii: "}"))
            }
        }
    }

    static let keepAlive = FramedEvent(name: "keep-alive", data: "null")
    static let cancel = FramedEvent(name: "cancel", data: JSONValue.string("Permission denied").jsonText())
    static let authRevoked = FramedEvent(name: "auth_revoked",
                                             data: JSONValue.string("credential is no longer valid").jsonText())

    /// A `put` whose data is not JSON, for fault injection.
    static let malformed = FramedEvent(name: "put", data: #"{"path": "/", "data": {"#)

    /// The framed bytes of a `put` at `path` before and after its data, for
    /// data written as the connection takes it (``JSONTextChunks``).
    static func putFrame(_ path: DatabasePath) -> (prefix: [UInt8], suffix: [UInt8]) {
        var prefix = Array("event: put\ndata: ".utf8)
        payloadStart(path, into: &prefix)
        return (prefix, Array("}\n\n".utf8))
    }

    /// Appends `{"path": path, "data": …}`, the data written by `writeData`.
    private static func payload(_ path: DatabasePath, into out: inout [UInt8], _ writeData: (inout [UInt8]) -> Void) {
        payloadStart(path, into: &out)
        writeData(&out)
        out.append(UInt8(ascii: "}"))
    }

    /// Appends `{"path": path, "data":`.
    private static func payloadStart(_ path: DatabasePath, into out: inout [UInt8]) {
        out.append(contentsOf: #"{"path":"#.utf8)
        JSONValue.writeString(path.description, to: &out)
        out.append(contentsOf: #","data":"#.utf8)
    }
}
