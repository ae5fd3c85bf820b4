// LiveServer.swift — a local Firebase Realtime Database server on loopback.

import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// A Realtime Database server speaking Firebase's REST and streaming
/// protocol: the embedded default of the REPL, the peer of the Firebase
/// adapter's tests, and a stand-in for the Firebase emulator in yours.
///
/// ```swift
/// let server = try await LiveServer.start()
/// // point a client at server.url, e.g. http://127.0.0.1:53122
/// try await server.shutdown()
/// ```
public final class LiveServer: Sendable {
    /// The settings the server was started with.
    public let configuration: LiveServerConfiguration
    /// The port of the first listening socket.
    public let port: Int
    let core: ServerCore
    private let group: MultiThreadedEventLoopGroup
    private let channels: NIOLockedValueBox<[any Channel]>
    private let keepAlive: RepeatedTask

    /// The base URL clients use, such as `http://127.0.0.1:53122`.
    public var url: String { "http://\(configuration.host):\(port)" }

    /// Loads the data file (if any), binds the port and starts serving.
    /// - Parameters:
    ///   - configuration: Where to listen, what to store, whom to serve.
    ///   - logger: Where the server logs failures that no request is told
    ///     of, such as folding the journal into the data file.
    /// - Returns: The running server; ``port`` and ``url`` say where it
    ///   listens.
    /// - Throws: ``LiveServerError``: open mode, or the console without
    ///   tokens, asked for on an address beyond loopback; an unreadable
    ///   data file; or a port that cannot be bound.
    public static func start(_ configuration: LiveServerConfiguration = LiveServerConfiguration(),
                             logger: Logger = Logger(label: "LiveServer")) async throws(LiveServerError) -> LiveServer {
        if configuration.tokens == nil && !configuration.allowsRemoteOpenAccess && !configuration.isLoopbackHost {
            throw .openModeOffLoopback(host: configuration.host)
        }
        if configuration.servesConsole && configuration.tokens == nil && !configuration.isLoopbackHost {
            throw .consoleOffLoopback(host: configuration.host)
        }
        let core: ServerCore
        do {
            core = try ServerCore(configuration: configuration, logger: logger)
        } catch {
            throw .dataFile(error.message)
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: configuration.threads > 0 ? configuration.threads : System.coreCount)
        do {
            let channel = try await bind(core, group: group, port: configuration.port)
            return LiveServer(configuration: configuration, core: core, group: group, channel: channel)
        } catch {
            try? await group.shutdownGracefully()
            throw .bind(host: configuration.host, port: configuration.port, reason: "\(error)")
        }
    }

    private init(configuration: LiveServerConfiguration, core: ServerCore, group: MultiThreadedEventLoopGroup,
                 channel: any Channel) {
        self.configuration = configuration
        self.core = core
        self.group = group
        self.port = channel.localAddress?.port ?? configuration.port
        self.channels = NIOLockedValueBox([channel])
        let amount = TimeAmount(clamping: configuration.keepAliveInterval)
        keepAlive = group.next().scheduleRepeatedTask(initialDelay: amount, delay: amount) { [core] _ in
            core.sendKeepAlives()
        }
    }

    private static func bind(_ core: ServerCore, group: MultiThreadedEventLoopGroup, port: Int) async throws -> any Channel {
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    // At the limit, the connection that has waited longest for
                    // its request makes room; if none waits, this one is refused.
                    switch core.connections.admit(channel) {
                    case .admitted: break
                    case .full:
                        try channel.pipeline.syncOperations.addHandler(RefusingHandler(capacity: core.connections.capacity))
                        return
                    case .closed:
                        channel.close(promise: nil)
                        return
                    }
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(HTTPHandler(core: core))
                }
            }
            .bind(host: core.configuration.host, port: port)
            .get()
    }

    /// Listens on one more port (a free one) with the same data, for
    /// ``StreamFault/redirect(port:)``.
    /// - Returns: The new port.
    /// - Throws: ``LiveServerError/bind(host:port:reason:)`` when no port
    ///   can be bound.
    public func addPort() async throws(LiveServerError) -> Int {
        do {
            let channel = try await Self.bind(core, group: group, port: 0)
            channels.withLockedValue { $0.append(channel) }
            return channel.localAddress?.port ?? 0
        } catch {
            throw .bind(host: configuration.host, port: 0, reason: "\(error)")
        }
    }

    /// Stops listening, closes every connection, folds the journal into
    /// the data file and releases it (another server may then use it).
    public func shutdown() async throws {
        keepAlive.cancel()
        for channel in channels.withLockedValue({ $0 }) { try? await channel.close() }
        // Every connection too, before the data file is folded and let go:
        // a client keeping one alive would otherwise still be answered by
        // a server going away.
        for connection in core.connections.closeAll() { try? await connection.close() }
        await core.finishCompaction()
        core.close()
        try await group.shutdownGracefully()
    }

    // MARK: Auth at run time

    /// Accepts `token` (in token mode), or stops refusing it.
    public func addToken(_ token: String) { core.addToken(token) }

    /// Revokes `token`: its streams get `auth_revoked` and close, and it is
    /// refused from now on.
    public func revoke(token: String) { core.refuse(token, telling: .authRevoked) }

    /// Ends the access of `token`: its streams get `cancel` and close, and
    /// it is refused from now on.
    public func endAccess(token: String) { core.refuse(token, telling: .cancel) }

    // MARK: Faults

    /// Applies `faults` to every stream, open and future (empty: none).
    public func setFaults(_ faults: [StreamFault]) { core.setFaults(faults) }

    /// Applies `faults` to one open stream; false if it is gone.
    @discardableResult
    public func setFaults(_ faults: [StreamFault], listener id: Int) -> Bool { core.setFaults(faults, listener: id) }

    /// The open streams.
    public func listeners() -> [ListenerInfo] { core.listenerInfos() }
}

/// Why a ``LiveServer`` could not start.
public enum LiveServerError: Error, Sendable, CustomStringConvertible {
    /// The data file could not be read; the message says why.
    case dataFile(String)
    /// Open mode (no tokens) on a non-loopback address without
    /// ``LiveServerConfiguration/allowsRemoteOpenAccess``.
    case openModeOffLoopback(host: String)
    /// The data console asked for on a non-loopback address without tokens.
    case consoleOffLoopback(host: String)
    /// The address could not be bound.
    case bind(host: String, port: Int, reason: String)

    /// What went wrong, in one English sentence.
    public var description: String {
        switch self {
        case .dataFile(let message): return message
        case .openModeOffLoopback(let host):
            return "Refusing to serve \(host) in open mode: give tokens, or allow remote open access explicitly."
        case .consoleOffLoopback(let host):
            return "Refusing to serve the console on \(host) without tokens: it is served on loopback only, unless tokens are required."
        case .bind(let host, let port, let reason): return "Cannot listen on \(host):\(port): \(reason)"
        }
    }
}

extension TimeAmount {
    /// `duration`, between a millisecond and a year (a larger one would
    /// overflow the nanoseconds; a timer set to zero or less would spin).
    init(clamping duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let clamped = min(max(seconds, 0), 365 * 86_400)
        self = .nanoseconds(max(1_000_000, clamped * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}
