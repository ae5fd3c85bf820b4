// FirebaseCollection+Offline.swift — going offline and back, writes that
// wait for a connection, and writes kept from an earlier run.
import LiveCollection
import LiveModel

extension FirebaseCollection {
    /// Drops the connection, by choice, until ``goOnline()``: the status is
    /// ``CollectionStatus/offline``, the data stays, and writes made
    /// meanwhile show at once and wait, in order (on disk, with a
    /// ``cache``). A write already on its way is still answered.
    ///
    /// Calls that wait for the server (``start()``, ``setQuery(_:)``,
    /// ``loadNextPage()``) wait until the collection is back online.
    /// - Complexity: O(1), and a save of the cache.
    public func goOffline() {
        guard !isOffline else { return }
        flightRecorder?.note(.gap("goOffline"))
        isOffline = true
        writeRetry?.cancel()
        writeRetry = nil
        writesWaitForConnection = false
        guard let stream else { return }
        stream.stop()
        self.stream = nil
        generation += 1
        consumer = nil
        listensWhenOnline = true
        // Not listening: what it holds is not shared as the server's.
        view.isConfirmed = false
        status = .offline
        saveCacheSoon(now: true)
    }

    /// Connects again after ``goOffline()``: a collection that was listening
    /// resyncs (the smallest change, as after any reconnect), then the
    /// writes made meanwhile are sent, each once, in the order they were
    /// made; one that was not listening sends them at once.
    /// - Complexity: O(1); the resync and the writes follow.
    public func goOnline() {
        guard isOffline else { return }
        flightRecorder?.note(.gap("goOnline"))
        isOffline = false
        guard listensWhenOnline else { return resumeWrites(orSend: true) }
        listensWhenOnline = false
        // The server's value first, so a write's confirmation finds the
        // data it was sent over.
        if !writeQueue.isEmpty { waitForConnection(backoff: false) }
        open()
    }

    /// Why the queue of writes could not be kept on disk (it is kept in
    /// memory then), or why a write kept from an earlier run was skipped;
    /// nil when the queue is on disk, or there is no ``cache``.
    /// - Complexity: O(1).
    public var writeQueueError: DatabaseError? { writeQueue.failure }

    /// Shows the writes the ``cache`` kept from an earlier run, once, over
    /// what is shown (they are sent when a connection works: after the
    /// server's value, or a backoff).
    func restoreWrites() {
        guard !writesRestored else { return }
        writesRestored = true
        guard !writeQueue.isEmpty else { return }
        // One change, over what is shown.
        collection.performBatch { restore(writeQueue.entries) }
        waitForConnection(backoff: false)
    }

    private func restore(_ entries: [WriteQueue.Entry]) {
        for entry in entries {
            do throws(DatabaseError) {
                let (updates, hasServerValues) = try localUpdates(of: entry.write)
                applyLocally(view.applyLocal(updates, id: entry.id, hasServerValues: hasServerValues))
            } catch {
                // Not a value this version can show: still sent, and its
                // answer shows the server's data.
                _ = view.applyLocal([], id: entry.id)
            }
            tellWrite(entry.id, .pending)
        }
    }

    /// Holds writes until a connection works: the collection is live again
    /// (``resumeWrites()``), or after a backoff growing from 1 s to 60 s
    /// over failures in a row (`backoff: false`: the first step).
    func waitForConnection(backoff: Bool = true) {
        writesWaitForConnection = true
        if backoff { writeFailures += 1 }
        let seconds = 1 << min(max(writeFailures - 1, 0), 6)
        writeRetry?.cancel()
        let wait = writeRetryWait, delay = Duration.seconds(min(seconds, 60))
        if writeQueue.file != nil {
            // On disk, the writes outlive the collection: a collection
            // nobody holds goes (and lets go of the queue's file).
            writeRetry = Task { [weak self] in
                await wait(delay)
                guard !Task.isCancelled, let self else { return }
                self.writeRetry = nil
                self.resumeWrites()
            }
        } else {
            // In memory only, the collection stays until they are sent.
            writeRetry = Task {
                await wait(delay)
                guard !Task.isCancelled else { return }
                self.writeRetry = nil
                self.resumeWrites()
            }
        }
    }

    /// Sends the writes that waited for a connection (with `orSend`, the
    /// queue's next write in any case).
    func resumeWrites(orSend: Bool = false) {
        guard writesWaitForConnection else { return orSend ? sendWrites() : () }
        writesWaitForConnection = false
        writeRetry?.cancel()
        writeRetry = nil
        sendWrites()
    }
}

extension DatabaseError {
    /// How a ``DatabaseError/transport(_:)`` reason begins when no
    /// connection was made, so the request was never sent.
    static let notSentPrefix = "not sent: "

    /// Whether the server could not be reached or could not serve (a 502,
    /// 503 or 504), or no credential could be had for the request, so that
    /// a write is kept and sent again rather than reverted.
    var isConnectionFailure: Bool {
        switch self {
        case .transport, .credentialsUnavailable: return true
        case .http(let status, _, _): return [502, 503, 504].contains(status)
        default: return false
        }
    }

    /// Whether a request that failed so may have reached the server: false
    /// only when no connection was made, or no credential was had.
    var mayHaveReachedServer: Bool {
        switch self {
        case .transport(let reason): return !reason.hasPrefix(Self.notSentPrefix)
        case .credentialsUnavailable: return false
        default: return true
        }
    }
}
