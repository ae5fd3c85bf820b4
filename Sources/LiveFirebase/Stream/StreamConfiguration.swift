// StreamConfiguration.swift — the timing and limits of a database stream.

/// How a ``DatabaseStream`` watches its connection and reconnects.
///
/// The defaults suit the Realtime Database, which sends a `keep-alive`
/// event every 30 seconds. Tests shorten the durations.
public struct StreamConfiguration: Sendable, Hashable {
    /// How the backoff delay is spread, so that many clients that lost the
    /// same server do not come back at the same instant.
    public enum Jitter: Sendable, Hashable {
        /// Exactly the backoff delay.
        case none
        /// Half the delay, plus a random part up to the other half.
        case equal
        /// A random delay between zero and the backoff delay.
        case full
    }

    /// How long the stream may stay silent (no byte at all, keep-alives
    /// included) before it is considered dead, closed and reopened. It also
    /// bounds the wait for the server's answer to a request.
    public var keepAliveTimeout: Duration
    /// The backoff delay before the first reconnect after a failure; each
    /// further failure doubles it. A server's `retry:` field replaces it
    /// (kept between 0.1 s and ``maxBackoff``).
    public var initialBackoff: Duration
    /// The longest backoff delay.
    public var maxBackoff: Duration
    /// How the backoff delay is randomised.
    public var jitter: Jitter
    /// The most redirects followed in a row before the stream ends with
    /// ``DatabaseError/tooManyRedirects(_:)``.
    public var maxRedirects: Int
    /// The largest event accepted, in bytes; a larger one ends the stream
    /// with ``DatabaseError/invalidResponse(_:)`` instead of exhausting
    /// memory. The first `put` carries the whole value of the location, so
    /// this bounds the size of what can be watched.
    public var maxEventBytes: Int

    /// The defaults: a 60 s keep-alive timeout, backoff from 0.25 s doubling
    /// up to 30 s with equal jitter, 5 redirects, events up to 256 MiB.
    public init(keepAliveTimeout: Duration = .seconds(60),
                initialBackoff: Duration = .milliseconds(250),
                maxBackoff: Duration = .seconds(30),
                jitter: Jitter = .equal,
                maxRedirects: Int = 5,
                maxEventBytes: Int = 256 << 20) {
        self.keepAliveTimeout = keepAliveTimeout
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
        self.jitter = jitter
        self.maxRedirects = maxRedirects
        self.maxEventBytes = maxEventBytes
    }
}
