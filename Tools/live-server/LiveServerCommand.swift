// LiveServerCommand.swift — live-server: runs a LiveServer until SIGINT or SIGTERM.

import ArgumentParser
import LiveServer
import Logging
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct LiveServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live-server",
        abstract: "A local Firebase Realtime Database server (REST and streaming) for development and tests.",
        discussion: """
            Prints its URL on the first line of standard output, then serves until SIGINT or SIGTERM. \
            Point firebase-admin at it with FIREBASE_DATABASE_EMULATOR_HOST=<host>:<port>.
            """,
        version: PackageVersion.current)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port (0 picks a free one).")
    var port = 9000

    @Option(name: .customLong("data"), help: "A data file to load at start and keep every acknowledged write in.")
    var dataFile: String?

    @Option(name: .customLong("token"),
            help: """
                An accepted token (repeatable); then only these are accepted (give --token owner for admin SDKs \
                that follow the emulator convention). Without any, everyone may read and write.
                """)
    var tokens: [String] = []

    @Option(name: .customLong("keep-alive"), help: "Seconds between keep-alive events on streams.")
    var keepAlive: Double = 30

    @Option(name: .customLong("buffer-limit"), help: "Bytes a stream may fall behind before it is disconnected.")
    var bufferLimit = 8 << 20

    @Option(name: .customLong("request-timeout"),
            help: "Seconds a connection may wait for its next request to arrive whole before it is closed.")
    var requestTimeout: Double = 60

    @Option(name: .customLong("max-connections"),
            help: "The most connections served at once, streams included (0: from the descriptor limit).")
    var maxConnections = 0

    @Option(name: .customLong("query-indexes"),
            help: "The most indexes kept for reads with a limit or bounds, one per location and order (0: none).")
    var queryIndexes = 4

    @Flag(name: .customLong("allow-remote-open"),
          help: "Serve a non-loopback address without tokens: everyone who can reach it may read and write.")
    var allowRemoteOpen = false

    @Flag(name: .customLong("console"),
          help: """
                Serve the data console at /_/console (browse, edit, watch, query). Without tokens, only on a \
                loopback address.
                """)
    var console = false

    func validate() throws {
        // At most a day: a larger interval would overflow the timer's nanoseconds.
        guard keepAlive > 0, keepAlive <= 86_400 else {
            throw ValidationError("--keep-alive must be more than 0 and at most 86400 seconds.")
        }
        guard requestTimeout > 0, requestTimeout <= 86_400 else {
            throw ValidationError("--request-timeout must be more than 0 and at most 86400 seconds.")
        }
        guard maxConnections >= 0 else { throw ValidationError("--max-connections must be 0 or more.") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard bufferLimit > 0 else { throw ValidationError("--buffer-limit must be positive.") }
        guard queryIndexes >= 0 else { throw ValidationError("--query-indexes must be 0 or more.") }
    }

    func run() async throws {
        // A write past the file size limit (`ulimit -f`) fails with EFBIG
        // and is refused, instead of killing the server.
        signal(SIGXFSZ, SIG_IGN)
        var configuration = LiveServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.dataFile = dataFile
        configuration.tokens = tokens.isEmpty ? nil : Set(tokens)
        configuration.keepAliveInterval = .milliseconds(Int64(keepAlive * 1000))
        configuration.listenerBufferLimit = bufferLimit
        configuration.requestTimeout = .milliseconds(Int64(requestTimeout * 1000))
        configuration.maxConnections = maxConnections
        configuration.queryIndexLimit = queryIndexes
        configuration.allowsRemoteOpenAccess = allowRemoteOpen
        configuration.servesConsole = console
        let server: LiveServer
        do {
            server = try await LiveServer.start(configuration)
        } catch {
            throw ValidationError(error.description)
        }
        // Caught before anyone learns the URL: a signal sent as soon as it is read is never lost.
        try Termination.install()
        // Straight to the descriptor: whoever started the server reads this line at once.
        let line = Array((server.url + "\n").utf8)
        _ = line.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
        await Termination.wait()
        try await server.shutdown()
    }
}
