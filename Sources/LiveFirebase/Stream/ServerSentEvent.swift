// ServerSentEvent.swift — one event of a server-sent event stream, as the
// parser dispatches it.

/// A dispatched server-sent event: its name, its data and the last event
/// ID, as the WHATWG event-stream rules define them.
///
/// The data stays bytes: a Realtime Database `put` can hold the whole value
/// of a location (tens of megabytes), which the payload parser reads
/// without a detour through `String`.
package struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The `event:` field, or `"message"` when the event had none.
    package var name: String
    /// The `data:` lines joined with LF (without a final LF).
    package var data: [UInt8]
    /// The last event ID seen on the stream (`id:`), or nil when none was
    /// set or it was set to the empty string.
    package var id: String?

    package init(name: String = "message", data: [UInt8], id: String? = nil) {
        self.name = name
        self.data = data
        self.id = id
    }

    /// An event with textual data (UTF-8).
    package init(name: String = "message", text: String, id: String? = nil) {
        self.init(name: name, data: Array(text.utf8), id: id)
    }

    /// The data as text (invalid UTF-8 repaired).
    package var text: String { String(decoding: data, as: UTF8.self) }

    /// The name and the size of the data, never the data: an event can be
    /// large, and nothing in it belongs in a log.
    package var description: String { "\(name) (\(data.count) bytes)" }
}

/// What an ``SSEParser`` reads from a stream: events, and the server's
/// reconnection time.
package enum SSEItem: Sendable, Hashable {
    /// A complete event.
    case event(ServerSentEvent)
    /// A `retry:` field: the reconnection time the server asks for.
    case retry(milliseconds: Int)
}

/// Why an ``SSEParser`` stopped.
package enum SSEParserError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One event (its pending line and data together) grew past the limit.
    case eventTooLarge(limit: Int)

    package var description: String {
        switch self {
        case .eventTooLarge(let limit): return "an event is larger than the limit of \(limit) bytes"
        }
    }
}
