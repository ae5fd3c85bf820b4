// IsolatedStream+Channel.swift — the buffer between an isolated stream's
// producer and its consumer.
import Foundation

extension IsolatedStream {
    /// The values in flight, the waiting consumer and the end, under one lock.
    ///
    /// Unchecked `Sendable`: every stored state is read and written with
    /// `lock` held; `turn` is immutable.
    final class Channel: @unchecked Sendable {
        private struct State {
            /// Values not read yet from `head` on; a value read is cleared at
            /// once, so the buffer holds nothing the consumer has taken.
            var buffer: [Element?] = []
            var head = 0
            var waiter: CheckedContinuation<Element?, Never>?
            var finished = false
            var terminated = false
            var onTermination: (@Sendable () -> Void)?

            /// The next value (`.some(nil)` at the end), or nil to wait.
            /// - Complexity: amortized O(1).
            mutating func take() -> Element?? {
                if head < buffer.count {
                    let value = buffer[head].unsafelyUnwrapped
                    buffer[head] = nil
                    head += 1
                    if head == buffer.count {
                        buffer.removeAll(keepingCapacity: buffer.count <= 1024)
                        head = 0
                    } else if head >= 1024, head * 2 >= buffer.count {
                        // Half read: the slots before `head` go.
                        buffer.removeFirst(head)
                        head = 0
                    }
                    return .some(value)
                }
                return finished || terminated ? .some(nil) : nil
            }

            /// Ends the sequence; returns the waiter and the handler to call
            /// once the lock is released.
            mutating func end(dropping: Bool) -> (CheckedContinuation<Element?, Never>?, (@Sendable () -> Void)?) {
                if dropping {
                    terminated = true
                    buffer.removeAll()
                    head = 0
                } else {
                    finished = true
                }
                let handler = onTermination
                onTermination = nil
                let waiter = self.waiter
                self.waiter = nil
                return (waiter, handler)
            }
        }

        private let lock = NSLock()
        private var state = State()
        /// How long the consumer reads before it lets its actor go once.
        let turn: Duration

        init(turn: Duration) { self.turn = turn }

        private func locked<R>(_ body: (inout State) -> R) -> R {
            lock.lock()
            defer { lock.unlock() }
            return body(&state)
        }

        func yield(_ value: Element) {
            let waiter: CheckedContinuation<Element?, Never>? = locked { s in
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
            let (waiter, handler) = locked { s in
                s.finished || s.terminated ? (nil, nil) : s.end(dropping: false)
            }
            waiter?.resume(returning: nil)
            handler?()
        }

        /// Ends the sequence from the consumer's side: buffered values are
        /// dropped and a waiting consumer reads nil.
        func terminate() {
            let (waiter, handler) = locked { s in
                s.terminated ? (nil, nil) : s.end(dropping: true)
            }
            waiter?.resume(returning: nil)
            handler?()
        }

        var terminationHandler: (@Sendable () -> Void)? { locked { $0.onTermination } }

        func setTerminationHandler(_ handler: (@Sendable () -> Void)?) {
            let ended = locked { s -> Bool in
                if s.finished || s.terminated { return true }
                s.onTermination = handler
                return false
            }
            if ended { handler?() }
        }

        /// The next value (`.some(nil)` at the end), or nil when none is buffered.
        func take() -> Element?? { locked { $0.take() } }

        /// The next value; waits on `actor` when none is buffered.
        func next(isolation actor: isolated (any Actor)?) async -> Element? {
            if let ready = take() { return ready }
            return await withTaskCancellationHandler(operation: {
                await withCheckedContinuation(isolation: actor) { (continuation: CheckedContinuation<Element?, Never>) in
                    let ready: Element?? = locked { s in
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
