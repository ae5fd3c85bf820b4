// StreamOpener+Database.swift — the real stream.

extension StreamOpener {
    /// Opens a ``DatabaseStream`` of the query over `transport`.
    /// - Parameters:
    ///   - transport: Opens the streams' connections; by default a
    ///     ``PlatformStreamTransport`` made once and shared by every
    ///     stream this opener opens.
    ///   - configuration: The streams' timing and limits.
    /// One-time reads go through the REST API.
    public static func database(transport: any StreamTransport = PlatformStreamTransport(),
                                configuration: StreamConfiguration = StreamConfiguration()) -> StreamOpener {
        StreamOpener({ reference, query in
            let stream = DatabaseStream(reference: reference, query: query, transport: transport,
                                        configuration: configuration)
            // The stream yields straight into the consumer's sequence, and
            // stops when the consumer leaves or asks; a stop never comes
            // before the start.
            let (messages, continuation) = IsolatedStream.makeStream(of: StreamMessage.self)
            let starting = Task { await stream.start(delivering: continuation) }
            let stop: @Sendable () -> Void = {
                Task {
                    await starting.value
                    await stream.stop()
                }
            }
            continuation.onTermination = { stop() }
            return OpenedStream(messages: messages, stop: stop)
        }, read: { reference, query throws(DatabaseError) in
            try await DatabaseClient(reference).get(query: query)
        })
    }
}
