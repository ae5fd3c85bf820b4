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
    /// Reads a query's children once, where the source can (paging from
    /// the end asks whether a child ties with the oldest one loaded).
    let read: (@Sendable (DatabaseReference, DatabaseQuery) async throws(DatabaseError) -> Snapshot)?

    /// An opener that calls `open` with the collection's location and
    /// query each time the collection (re)opens its stream: on start, on a
    /// new page and on a new query; and `read`, when given, to read a
    /// query's children once (without it, the collection asks what it holds).
    /// - Complexity: O(1).
    public init(_ open: @escaping @Sendable (DatabaseReference, DatabaseQuery) -> OpenedStream,
                read: (@Sendable (DatabaseReference, DatabaseQuery) async throws(DatabaseError) -> Snapshot)? = nil) {
        self.open = open
        self.read = read
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
