// LiveServerConfiguration.swift — how a LiveServer listens, stores and streams.

/// The settings of a ``LiveServer``.
public struct LiveServerConfiguration: Sendable {
    /// The address to listen on; loopback by default.
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one (read it from ``LiveServer/port``).
    public var port = 0
    /// A file that holds the data across restarts (with a journal beside it,
    /// `<file>.journal`); nil keeps everything in memory. A plain JSON file
    /// works as initial data.
    public var dataFile: String?
    /// The accepted tokens; nil is open mode (everyone may read and write).
    /// With tokens, exactly these are accepted: `owner`, which admin SDKs
    /// send to the Firebase emulator, only when it is one of them.
    public var tokens: Set<String>?
    /// Open mode serves loopback only unless this is set: then everyone who
    /// can reach ``host`` may read and write.
    public var allowsRemoteOpenAccess = false
    /// Interval between `keep-alive` events on every stream.
    public var keepAliveInterval: Duration = .seconds(30)
    /// Bytes a stream may have waiting to be sent; past it the listener is
    /// disconnected (it can reconnect and resync).
    public var listenerBufferLimit = 8 << 20
    /// The most order indexes kept for `GET`s with a limit or bounds that
    /// no stream keeps a window of: one per (location of 1,000 children or
    /// more, order) read, the least recently read going first; 0 keeps
    /// none. The first such read
    /// in an order at a location reads every child, as without an index,
    /// while the index is built beside it (O(n log n)); the next ones,
    /// whatever their bounds and limit, cost O(log² n + k) for k children
    /// answered. An index holds each child's key and sort value: about
    /// 80 bytes a child (80 MB for a million).
    public var queryIndexLimit = 4
    /// Largest request body accepted; a larger one is refused (413) from
    /// its `Content-Length`, before it is read.
    public var maxRequestBytes = 256 << 20
    /// How long a connection may wait for its next request to arrive whole
    /// (from when it opens, or from its last response) before it is
    /// closed. Streams, once open, are not bound by it.
    public var requestTimeout: Duration = .seconds(60)
    /// The most connections served at once (streams included); 0 sizes it
    /// from the process's descriptor limit (that limit less 128, at most
    /// 16,384). At the limit, the connection that has waited longest for
    /// its request is closed to make room; when every connection is busy,
    /// a new one is answered 503.
    public var maxConnections = 0
    /// Event-loop threads; 0 uses one per core.
    public var threads = 0
    /// Whether the data console is served at `/_/console`: a page that
    /// browses, edits and watches the data and runs queries through the
    /// REST and streaming API, with the same tokens as any client. Off by
    /// default; without tokens it is allowed on a loopback ``host`` only.
    public var servesConsole = false

    /// The default settings: loopback, a free port, in memory, open mode.
    public init() {}

    /// Whether ``host`` is a loopback address, which only this machine can
    /// reach: `localhost`, `::1` or an IPv4 address in 127.0.0.0/8 (a name
    /// such as `127.example.com` is not one).
    var isLoopbackHost: Bool {
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127"
            && octets.allSatisfy { octet in octet.allSatisfy { ("0"..."9").contains($0) } && UInt8(octet) != nil }
    }
}
