// IsolatedStream.swift — an unbounded asynchronous sequence whose consumer
// reads on its own actor.

/// An unbounded sequence of values sent from any thread to one consumer,
/// read on the consumer's own actor.
///
/// It has the shape of `AsyncStream` (``makeStream(of:turn:)``, a
/// ``Continuation`` that yields and finishes, a termination handler) with
/// one difference that matters on a per-event path: a consumer on an actor
/// (the main actor, say) reads each value without leaving that actor.
/// `AsyncStream`'s iterator leaves the actor and comes back on every value,
/// even one already buffered; here a buffered value is taken under a lock,
/// and only a consumer that finds nothing waits, to be resumed on its actor
/// when a value comes.
///
/// A consumer that always finds a value buffered still lets its actor run
/// other work: once it has read for a turn (``defaultTurn`` unless the
/// stream was made with another) without waiting, its iterator
/// suspends once (`Task.yield()`) before handing over the next value, so
/// that a backlog of values costs the actor's other jobs (a main actor's
/// frames, say) at most about a turn plus one value's handling.
///
/// One consumer at a time: two tasks waiting for the next value at once is a
/// programming error, as with `AsyncStream`.
///
/// The sequence terminates (its ``Continuation/onTermination`` runs, once)
/// when the producer finishes it, when the consumer's task is cancelled (it
/// then reads nil), or when the sequence and every iterator made from it
/// are released. Values yielded after that are dropped.
///
/// Before macOS 15 and iOS 18, `for await` calls the iterator's `next()`
/// rather than `next(isolation:)`, and the consumer leaves its actor on
/// every value, as with `AsyncStream`.
public struct IsolatedStream<Element: Sendable>: AsyncSequence, Sendable {
    /// The sequence never throws.
    public typealias Failure = Never

    private let consumer: Consumer

    /// A sequence and the continuation that feeds it.
    /// - Parameters:
    ///   - elementType: The type of the values, which the call can usually
    ///     infer.
    ///   - turn: How long the consumer reads buffered values before it lets
    ///     its actor run other work once; `.zero` lets it go before every
    ///     buffered value but the first of a turn.
    public static func makeStream(of elementType: Element.Type = Element.self, turn: Duration = defaultTurn)
        -> (stream: IsolatedStream, continuation: Continuation) {
        let channel = Channel(turn: turn)
        return (IsolatedStream(consumer: Consumer(channel)), Continuation(channel: channel))
    }

    /// How long a consumer reads buffered values before it lets its actor
    /// run other work once, unless the stream was made with another turn:
    /// a quarter of a 60 Hz frame.
    public static var defaultTurn: Duration { .milliseconds(4) }

    /// An iterator for the one consumer of the sequence.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(consumer: consumer) }

    /// Reads the values of an ``IsolatedStream``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let consumer: Consumer
        /// When the consumer last started to run without waiting.
        private var turnStarted: ContinuousClock.Instant?

        fileprivate init(consumer: Consumer) { self.consumer = consumer }

        /// The next value, or nil once the sequence is finished (and every
        /// value yielded before was read) or terminated.
        /// - Complexity: O(1).
        public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
            let channel = consumer.channel
            if Task.isCancelled {
                channel.terminate()
                return nil
            }
            if let ready = channel.take() {
                let now = ContinuousClock.now
                guard let started = turnStarted else {
                    turnStarted = now
                    return ready
                }
                if started.duration(to: now) >= channel.turn {
                    await Task.yield()
                    turnStarted = .now
                }
                return ready
            }
            let value = await channel.next(isolation: actor)
            turnStarted = .now
            return value
        }

        /// The next value, as ``next(isolation:)`` without an actor: the
        /// consumer leaves its actor to wait.
        /// - Complexity: O(1).
        public mutating func next() async -> Element? {
            await next(isolation: nil)
        }
    }

    /// Sends values to an ``IsolatedStream``, from any thread.
    public struct Continuation: Sendable {
        fileprivate let channel: Channel

        /// Buffers `value` for the consumer, or hands it to the consumer
        /// waiting for it. Dropped once the sequence has finished or
        /// terminated. - Complexity: amortized O(1).
        public func yield(_ value: Element) { channel.yield(value) }

        /// Ends the sequence: the consumer reads what is buffered, then nil.
        public func finish() { channel.finish() }

        /// Called once when the sequence terminates (see ``IsolatedStream``).
        /// Set it before the sequence can terminate; if it already has, it
        /// is called at once.
        public var onTermination: (@Sendable () -> Void)? {
            get { channel.terminationHandler }
            nonmutating set { channel.setTerminationHandler(newValue) }
        }
    }

    /// Held by the sequence and its iterators only: when the last of them is
    /// released, nobody can read any more, and the sequence terminates.
    fileprivate final class Consumer: Sendable {
        let channel: Channel
        init(_ channel: Channel) { self.channel = channel }
        deinit { channel.terminate() }
    }
}
