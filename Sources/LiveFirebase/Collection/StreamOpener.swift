// StreamOpener.swift — how a Firebase collection opens the stream of its query.
import LiveModel

/// An open stream: its messages, and how to stop it.
public struct OpenedStream: Sendable {
    /// The stream's messages, in order; the last is ``StreamMessage/ended(_:)``.
    /// A collection reads them on the main actor without leaving it.
    public let messages: IsolatedStream<StreamMessage>
    /// Stops the stream (it then ends with `ended(nil)`).
    public let stop: @Sendable () -> Void

    /// An open stream reading `messages`, stopped by `stop`.
    public init(messages: IsolatedStream<StreamMessage>, stop: @escaping @Sendable () -> Void) {
        self.messages = messages
        self.stop = stop
    }
}

/// Opens the stream of a query at a location. ``database(transport:configuration:)``
/// is the real one; ``offline`` never connects, for collections fed only by
/// ``FirebaseCollection/receive(_:)``.
public struct StreamOpener: Sendable {
    let open: @Sendable (DatabaseReference, DatabaseQuery) -> OpenedStream

    /// An opener that calls `open` with the collection's location and
    /// query each time the collection (re)opens its stream: on start, on a
    /// new page and on a new query.
    public init(_ open: @escaping @Sendable (DatabaseReference, DatabaseQuery) -> OpenedStream) {
        self.open = open
    }

    /// A stream that never sends anything until stopped: the collection
    /// holds only what it is given through ``FirebaseCollection/receive(_:)``.
    public static let offline = StreamOpener { _, _ in
        let (messages, continuation) = IsolatedStream.makeStream(of: StreamMessage.self)
        return OpenedStream(messages: messages) {
            continuation.yield(.ended(nil))
            continuation.finish()
        }
    }
}
