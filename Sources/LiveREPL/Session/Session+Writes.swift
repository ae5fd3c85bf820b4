// Session+Writes.swift — writes through the collection: shown at once, then
// confirmed or reverted by the server.

import LiveCollection
import LiveFirebase
import LiveModel

extension Session {
    /// Starts a write: the collection shows it at once (the command's
    /// change, with the write `pending`); its confirmation or revert comes
    /// later, as a change of its own.
    func write(_ command: Command) throws(REPLError) {
        guard client != nil else { throw .needsServer(command.name) }
        do {
            switch command {
            case .set(let path, let value, let etag): try firebase.write(.set(path, value, ifMatch: etag))
            case .update(let path, let values): try firebase.write(.update(path, values))
            case .push(let path, let value): _ = try firebase.pushWrite(value, at: path)
            case .remove(let path, let etag): try firebase.write(.remove(path, ifMatch: etag))
            default: return
            }
        } catch {
            throw .database(error)
        }
    }

    /// Drops the connection to the server (`offline`) or restores it
    /// (`online`: the collection resyncs, then the writes that waited are
    /// sent); the resync's change and the writes' answers come between
    /// commands.
    /// - Returns: What happened, in words.
    /// - Throws: ``REPLError/needsServer(_:)`` in a session without a server.
    func connect(online: Bool) throws(REPLError) -> [String] {
        guard client != nil else { throw .needsServer(online ? "online" : "offline") }
        let waiting = firebase.pendingWrites.count
        if online {
            guard firebase.isOffline else { return ["already online"] }
            firebase.goOnline()
            return ["online: resyncing" + (waiting > 0 ? "; \(waiting) writes to send, in order" : "")]
        }
        guard !firebase.isOffline else { return ["already offline"] }
        firebase.goOffline()
        return ["offline: writes show at once and wait for online"
            + (firebase.cache != nil ? " (kept on disk in the cache)" : "")]
    }

    /// Refuses `command` while offline: it needs the server's answer.
    func requireOnline(_ command: String) throws(REPLError) {
        if firebase.isOffline { throw .offline(command) }
    }

    /// Whether writes not yet answered are kept on disk (a cache holds the
    /// queue), to be sent at the next start.
    /// - Complexity: O(1).
    public var keepsWrites: Bool { firebase.cache != nil && firebase.writeQueueError == nil }

    /// Why writes are kept in memory only although a cache was given (its
    /// directory refused, the queue held by another process, unreadable),
    /// or nil.
    public var writeQueueProblem: String? { firebase.cache == nil ? nil : firebase.writeQueueError?.description }

    /// The numbers of the writes shown and not yet confirmed or reverted.
    public var pendingWrites: [Int] { firebase.pendingWrites }

    /// Waits until no write is pending, at most `seconds`.
    /// - Returns: Whether none is pending.
    @discardableResult
    public func finishWrites(seconds: Double) async -> Bool {
        guard !firebase.pendingWrites.isEmpty else { return true }
        // Offline, they wait for online (kept on disk with a cache).
        guard !firebase.isOffline else { return false }
        let waiter = SyncWaiter()
        let watch = firebase.observeWrites { [unowned self] _, _ in
            if firebase.pendingWrites.isEmpty { waiter.finish(true) }
        }
        defer { watch.cancel() }
        let timer = Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded(.up))))
            waiter.finish(false)
        }
        defer { timer.cancel() }
        return await waiter.wait()
    }
}
