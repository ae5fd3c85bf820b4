// StreamOpener+Database.swift — the real stream.

extension StreamOpener {
    /// Opens a ``DatabaseStream`` of the query over `transport`.
    public static func database(transport: any StreamTransport = PlatformStreamTransport(),
                                configuration: StreamConfiguration = StreamConfiguration()) -> StreamOpener {
        StreamOpener { reference, query in
            let stream = DatabaseStream(reference: reference, query: query, transport: transport,
                                        configuration: configuration)
            let (messages, continuation) = AsyncStream.makeStream(of: StreamMessage.self)
            let forwarding = Task {
                for await message in await stream.start() { continuation.yield(message) }
                continuation.finish()
            }
            continuation.onTermination = { _ in
                forwarding.cancel()
                Task { await stream.stop() }
            }
            return OpenedStream(messages: messages) { Task { await stream.stop() } }
        }
    }
}
