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

    /// The numbers of the writes shown and not yet confirmed or reverted.
    public var pendingWrites: [Int] { firebase.pendingWrites }

    /// Waits until no write is pending, at most `seconds`.
    /// - Returns: Whether none is pending.
    @discardableResult
    public func finishWrites(seconds: Double) async -> Bool {
        guard !firebase.pendingWrites.isEmpty else { return true }
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
