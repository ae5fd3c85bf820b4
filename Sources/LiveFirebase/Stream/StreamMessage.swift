// StreamMessage.swift — what a database stream tells its consumer.
import LiveModel

/// What a ``DatabaseStream`` tells its consumer, in order.
///
/// A stream opens with ``connected``, then a ``put(_:)`` at `/` holding the
/// whole value of the location (or the query's window), then a ``put(_:)``
/// or ``patch(_:)`` for every change. When the connection is lost it reports
/// ``disconnected(_:retryAfter:)`` and comes back by itself; the server
/// then sends the whole value again in a `put` at `/`, which the consumer
/// turns into the difference against what it holds. ``ended(_:)`` is
/// always the last message.
public enum StreamMessage: Sendable {
    /// The server accepted the stream; a `put` at `/` with the whole value
    /// follows.
    case connected
    /// The first `put` of a connection is arriving: sent every
    /// ``DatabaseStream/progressStep`` bytes while it comes, and once when it
    /// is whole and parsed (``LoadProgress/isComplete``), just before it.
    case receiving(LoadProgress)
    /// Replace the value at the payload's path (a `put` at `/` replaces
    /// everything, and follows every connect).
    case put(StreamPayload)
    /// Merge the payload's members into the value at its path.
    case patch(StreamPayload)
    /// The connection failed or was lost; the stream reconnects by itself
    /// after `retryAfter`.
    case disconnected(DatabaseError, retryAfter: Duration)
    /// The server revoked or refused the credential; the stream asks the
    /// credentials provider for a new one (`forceRefresh`) and reconnects
    /// at once.
    case renewingCredential
    /// The stream is over: nil when it was stopped, otherwise why it cannot
    /// go on (permission denied or cancelled by the server, a revoked
    /// credential that cannot be renewed, a refused request, too many
    /// redirects, an event past the size limit).
    case ended(DatabaseError?)
}

extension StreamMessage: CustomStringConvertible {
    /// The kind of message, the payload's path and the error; never the
    /// payload's data.
    public var description: String {
        switch self {
        case .connected: return "connected"
        case .receiving(let progress):
            return "receiving the first put: \(progress.bytes) bytes, \(progress.children) children"
                + (progress.isComplete ? ", complete" : "")
        case .put(let payload): return "put at \(payload.path)"
        case .patch(let payload): return "patch at \(payload.path)"
        case .disconnected(let error, let delay): return "disconnected (\(error)); reconnecting in \(delay)"
        case .renewingCredential: return "renewing the credential"
        case .ended(let error?): return "ended: \(error)"
        case .ended(nil): return "stopped"
        }
    }
}
