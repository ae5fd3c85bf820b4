// StreamFault.swift — faults a LiveServer injects into streams, for tests.

/// A fault injected into streams (``LiveServer/setFaults(_:)`` for every
/// stream, ``LiveServer/setFaults(_:listener:)`` for one). Event counts
/// include the first `put`, not keep-alives.
public enum StreamFault: Sendable, Hashable {
    /// Close the stream cleanly once this many events were sent.
    case dropAfter(events: Int)
    /// After this many events, send the first half of the next one and close.
    case dropMidEvent(afterEvents: Int)
    /// After this many events, send one malformed event (then go on).
    case malformedEvent(afterEvents: Int)
    /// Hold every event back this long.
    case delay(milliseconds: Int)
    /// Send nothing more, keep-alives included, leaving the connection open.
    /// A stream that lost a data event to it stays silent when the fault
    /// is lifted, as a dead connection does (what it would send next no
    /// longer follows from what it sent); one that lost only keep-alives
    /// goes on.
    case silence
    /// Answer new stream requests with a 307 redirect to this port on the
    /// same host (open one with ``LiveServer/addPort()``).
    case redirect(port: Int)
}

/// A stream as ``LiveServer/listeners()`` reports it.
public struct ListenerInfo: Sendable, Hashable {
    /// Identifies the stream for ``LiveServer/setFaults(_:listener:)``.
    public let id: Int
    /// The location it listens to.
    public let path: String
    /// Whether it has a query.
    public let hasQuery: Bool
    /// Events sent so far (the first `put` included).
    public let eventsSent: Int
}
