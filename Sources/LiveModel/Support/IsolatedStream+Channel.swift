// IsolatedStream+Channel.swift — the buffer between an isolated stream's
// producer and its consumer.
import Synchronization

extension IsolatedStream {
    /// The values in flight, the waiting consumer and the end, under one lock.
    final class Channel: Sendable {
        private struct State {
            var buffer: [Element] = []
            /// The first unread value of `buffer`.
            var head = 0
            var waiter: CheckedContinuation<Element?, Never>?
            var finished = false
            var terminated = false
            var onTermination: (@Sendable () -> Void)?

            /// The next value (`.some(nil)` at the end), or nil to wait.
            mutating func take() -> Element?? {
                if head < buffer.count {
                    let value = buffer[head]
                    head += 1
                    if head == buffer.count {
                        buffer.removeAll(keepingCapacity: buffer.count <= 1024)
                        head = 0
                    }
                    return .some(value)
                }
                return finished || terminated ? .some(nil) : nil
            }
        }

        private let state = Mutex(State())
        /// How long the consumer reads before it lets its actor go once.
        let turn: Duration

        init(turn: Duration) { self.turn = turn }

        func yield(_ value: Element) {
            let waiter: CheckedContinuation<Element?, Never>? = state.withLock { s in
                guard !s.finished, !s.terminated else { return nil }
                if let w = s.waiter {
                    s.waiter = nil
                    return w
                }
                s.buffer.append(value)
                return nil
            }
            waiter?.resume(returning: value)
        }

        func finish() {
            let (waiter, handler) = state.withLock { s -> (CheckedContinuation<Element?, Never>?, (@Sendable () -> Void)?) in
                guard !s.finished, !s.terminated else { return (nil, nil) }
                s.finished = true
                let handler = s.onTermination
                s.onTermination = nil
                let w = s.waiter
                s.waiter = nil
                return (w, handler)
            }
            waiter?.resume(returning: nil)
            handler?()
        }

        /// Ends the sequence from the consumer's side: buffered values are
        /// dropped and a waiting consumer reads nil.
        func terminate() {
            let (waiter, handler) = state.withLock { s -> (CheckedContinuation<Element?, Never>?, (@Sendable () -> Void)?) in
                guard !s.terminated else { return (nil, nil) }
                s.terminated = true
                s.buffer.removeAll()
                s.head = 0
                let handler = s.onTermination
                s.onTermination = nil
                let w = s.waiter
                s.waiter = nil
                return (w, handler)
            }
            waiter?.resume(returning: nil)
            handler?()
        }

        var terminationHandler: (@Sendable () -> Void)? { state.withLock { $0.onTermination } }

        func setTerminationHandler(_ handler: (@Sendable () -> Void)?) {
            let ended = state.withLock { s -> Bool in
                if s.finished || s.terminated { return true }
                s.onTermination = handler
                return false
            }
            if ended { handler?() }
        }

        /// The next value (`.some(nil)` at the end), or nil when none is buffered.
        func take() -> Element?? { state.withLock { $0.take() } }

        /// The next value; waits on `actor` when none is buffered.
        func next(isolation actor: isolated (any Actor)?) async -> Element? {
            if let ready = take() { return ready }
            return await withTaskCancellationHandler(operation: {
                await withCheckedContinuation(isolation: actor) { (continuation: CheckedContinuation<Element?, Never>) in
                    let ready: Element?? = state.withLock { s in
                        if let value = s.take() { return value }
                        precondition(s.waiter == nil, "IsolatedStream: two consumers wait for the next value at once")
                        s.waiter = continuation
                        return nil
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            }, onCancel: {
                terminate()
            }, isolation: actor)
        }
    }
}
