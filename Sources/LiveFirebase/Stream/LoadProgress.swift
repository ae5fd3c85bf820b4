// LoadProgress.swift — how far the first `put` of a connection (the whole
// value of the location) has arrived, and what it cost once it is whole.

/// The first `put` of a connection as it arrives: a stream tells it in
/// ``StreamMessage/receiving(_:)`` every ``DatabaseStream/progressStep``
/// bytes while the event comes, and once more when it is whole and parsed,
/// just before the ``StreamMessage/put(_:)`` itself.
///
/// Times are measured on the stream's clock from the first byte the
/// connection received after it opened.
public struct LoadProgress: Sendable, Hashable {
    /// Bytes of the response body received so far (the event's framing
    /// included).
    public var bytes: Int
    /// Children of the value received so far, counted from the bytes
    /// without parsing them (members of the `data` object, or elements of
    /// an array).
    public var children: Int
    /// From the first byte to the latest (to the last byte of the event
    /// once ``isComplete``).
    public var transfer: Duration
    /// How long the whole event took to parse after its last byte (`nil`
    /// until ``isComplete``).
    public var parse: Duration?

    /// Progress with these figures; it is complete when `parse` is given.
    public init(bytes: Int, children: Int, transfer: Duration, parse: Duration? = nil) {
        self.bytes = bytes
        self.children = children
        self.transfer = transfer
        self.parse = parse
    }

    /// Whether the event is whole and parsed: its `put` follows.
    public var isComplete: Bool { parse != nil }

    /// Bytes per second so far (0 before any time has passed).
    public var bytesPerSecond: Double {
        let seconds = transfer.inSeconds
        return seconds > 0 ? Double(bytes) / seconds : 0
    }
}

/// Counts the children of a `put` payload (`{"path": …, "data": {…}}`) in
/// the raw bytes of an event stream, chunk by chunk, without parsing: the
/// values at depth two of the JSON object, outside strings.
struct ChildTally: Sendable {
    private(set) var bytes = 0
    private(set) var children = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Inside the `data` container, before its first child.
    private var awaitingFirst = false

    /// Reads one chunk. - Complexity: O(`chunk.count`).
    mutating func feed(_ chunk: [UInt8]) {
        bytes += chunk.count
        for byte in chunk {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                countFirst()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                countFirst()
                depth += 1
                if depth == 2 { awaitingFirst = true }
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 2 { awaitingFirst = false }
                depth = max(0, depth - 1)
            case UInt8(ascii: ","):
                if depth == 2 { children += 1 }
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                break
            default:
                countFirst()
            }
        }
    }

    private mutating func countFirst() {
        guard awaitingFirst, depth == 2 else { return }
        awaitingFirst = false
        children += 1
    }
}
