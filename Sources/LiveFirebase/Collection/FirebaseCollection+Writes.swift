// FirebaseCollection+Writes.swift — writes made through the collection:
// shown at once, sent in order, then confirmed or reverted.
import Foundation
import LiveCollection
import LiveModel

extension FirebaseCollection {
    /// Writes `value` at `path` (relative to the location; `null` removes):
    /// shown at once, then sent; returns once the server took it (offline,
    /// or while the server cannot be reached, that is once it can be).
    /// - Throws: ``DatabaseError/invalidValue(_:)`` for a value the database
    ///   cannot store (nothing is shown); the server's refusal, such as
    ///   ``DatabaseError/etagMismatch(currentETag:currentValue:)`` or
    ///   ``DatabaseError/permissionDenied(_:)``, after the write was
    ///   reverted.
    /// - Complexity: as ``write(_:)``, then one request.
    public func set(_ value: JSONValue, at path: DatabasePath = .root, ifMatch etag: String? = nil)
        async throws(DatabaseError)
    {
        try await confirmation(of: write(.set(path, value, ifMatch: etag)))
    }

    /// Writes several paths below `path` at once (each key relative to it;
    /// `null` removes); see ``set(_:at:ifMatch:)-(JSONValue,_,_)``.
    /// - Complexity: as ``write(_:)``, then one request.
    public func update(_ values: [DatabasePath: JSONValue], at path: DatabasePath = .root) async throws(DatabaseError) {
        try await confirmation(of: write(.update(path, values)))
    }

    /// Removes the data at `path`; see ``set(_:at:ifMatch:)-(JSONValue,_,_)``.
    /// - Complexity: as ``write(_:)``, then one request.
    public func remove(at path: DatabasePath, ifMatch etag: String? = nil) async throws(DatabaseError) {
        try await confirmation(of: write(.remove(path, ifMatch: etag)))
    }

    /// Adds `value` below `path` at a new push id, made here (so the child
    /// shows at once, under its final key) and written with a `set`.
    /// - Returns: The new child's key.
    /// - Throws: as ``set(_:at:ifMatch:)-(JSONValue,_,_)``.
    /// - Complexity: as ``write(_:)``, then one request.
    @discardableResult
    public func push(_ value: JSONValue, at path: DatabasePath = .root) async throws(DatabaseError) -> Key {
        let (key, id) = try pushWrite(value, at: path)
        try await confirmation(of: id)
        return key
    }

    /// Makes a push id below `path` and starts writing `value` there, as
    /// ``write(_:)`` does.
    /// - Returns: The new child's key and the write's number.
    /// - Complexity: as ``write(_:)``.
    public func pushWrite(_ value: JSONValue, at path: DatabasePath = .root) throws(DatabaseError) -> (key: Key, id: Int) {
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        let key = pushIDs.next(now: now)
        let child: DatabasePath
        do { child = try path.child(key) } catch { throw .invalidValue("a push below \(path): \(error.description)") }
        return (key, try write(.set(child, value)))
    }

    /// Shows `write` at once (its server values estimated here) as one
    /// change, with its child events, and queues it to be sent: writes go
    /// one at a time, in the order they were made.
    ///
    /// When the server takes it, nothing changes on screen unless the
    /// server's data differs (a server value, a concurrent write); when it
    /// refuses, what the write changed shows the server's data again as
    /// one change. Observe with ``observeWrites(_:)``, or wait with
    /// ``outcome(of:)``.
    ///
    /// Writes keep going after ``stop()`` (they do not need the stream),
    /// and the collection stays alive while one is being sent. Writes that
    /// wait for a connection keep it alive too when they are held in
    /// memory; with a ``cache`` they are on disk, and a collection nobody
    /// holds goes (its next start, or another collection of the same
    /// location and cache, sends them).
    /// - Returns: The write's number: 1 for the collection's first write,
    ///   then counting up.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` for a value the database
    ///   cannot store, or an update naming two paths of which one holds the
    ///   other; nothing is shown or sent then.
    /// - Complexity: O((u + k) log n) for u children changed and a limit of
    ///   k; a write of the whole location changes every child (u = n).
    @discardableResult
    public func write(_ write: DatabaseWrite) throws(DatabaseError) -> Int {
        restoreWrites()
        let (updates, hasServerValues) = try localUpdates(of: write)
        let id = nextWriteID
        nextWriteID += 1
        writeQueue.append(id, write)
        if flightRecorder != nil { recordWrite(id, write) }
        applyLocally(view.applyLocal(updates, id: id, hasServerValues: hasServerValues))
        tellWrite(id, .pending)
        sendWrites()
        return id
    }

    /// What `write` replaces, as the view shows it: its server values
    /// estimated over what is shown.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` for a value the
    ///   database cannot store.
    func localUpdates(of write: DatabaseWrite) throws(DatabaseError)
        -> (updates: [(path: [Key], value: Snapshot)], hasServerValues: Bool)
    {
        let replacements = try write.replacements()
        for (path, value) in replacements { try RESTValueCheck.check(value, at: path.description) }
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        var updates: [(path: [Key], value: Snapshot)] = []
        var hasServerValues = false
        for (path, value) in replacements {
            let estimated = ServerValue.estimate(value, over: currentValue(at: path), now: now)
            if estimated != value { hasServerValues = true }
            let snapshot: Snapshot
            do { snapshot = try Snapshot.parse(json: estimated.jsonText(), order: view.query.order) } catch {
                throw .invalidValue("the value at \(path): \(error.description)")
            }
            updates.append((path.keys, snapshot))
        }
        return (updates, hasServerValues)
    }

    /// Waits until write `id` (from ``write(_:)``) is answered.
    /// - Returns: ``WriteState/confirmed`` or ``WriteState/reverted(_:)``
    ///   (at once for one of the last 1024 answered); nil for a number
    ///   this collection never gave, or one answered longer ago.
    /// - Complexity: O(w) for w writes pending, then the wait.
    public func outcome(of id: Int) async -> WriteState? {
        if let done = finishedWrites[id] { return done.map { .reverted($0) } ?? .confirmed }
        guard writeQueue.entry(id) != nil else { return nil }
        let error: DatabaseError? = await withCheckedContinuation { writeWaiters[id, default: []].append($0) }
        return error.map { .reverted($0) } ?? .confirmed
    }

    /// Waits for write `id`; throws the error that reverted it.
    private func confirmation(of id: Int) async throws(DatabaseError) {
        if case .reverted(let error)? = await outcome(of: id) { throw error }
    }

    /// The numbers of the writes not yet confirmed or reverted, oldest first
    /// (with a ``cache``, those of an earlier run too, shown once the
    /// collection starts or writes).
    /// - Complexity: O(w) for w writes pending.
    public var pendingWrites: [Int] { writeQueue.entries.map(\.id) }

    /// Calls `handler` with each write's number and state: `.pending` when
    /// it is shown, then `.confirmed` or `.reverted`.
    /// - Complexity: O(1); each state costs one call per observer.
    public func observeWrites(_ handler: @escaping (Int, WriteState) -> Void) -> ObservationToken {
        let id = writeObservers.add(handler)
        return ObservationToken { [weak self] in self?.writeObservers.remove(id) }
    }

    /// The value now shown at `path` (relative to the location).
    private func currentValue(at path: DatabasePath) -> JSONValue? {
        guard let key = path.keys.first else { return nil }
        let child = view.shown(key)
        guard child.exists else { return nil }
        return child.value[path: DatabasePath(uncheckedKeys: Array(path.keys.dropFirst()))]
    }

    /// Sends the next queued write, unless one is on its way, the
    /// collection is offline or writes wait for a connection.
    ///
    /// The write is noted as attempted (on disk, with a cache) before it is
    /// sent. A connection failure keeps it first in the queue, to be sent
    /// again (as ``WriteAttempt/again`` when it may have reached the
    /// server) once the connection is back; any other answer finishes it.
    func sendWrites() {
        guard !sendingWrite, !isOffline, !writesWaitForConnection, let next = writeQueue.entries.first else { return }
        let attempt: WriteAttempt = next.attempted ? .again : .first
        // Not sent unless a crash after it would know it may have arrived:
        // the disk failing holds the writes (``writeQueueError`` says why).
        guard writeQueue.setAttempted(next.id, true) else { return waitForConnection() }
        sendingWrite = true
        // The server's data from before it was sent cannot hold it.
        view.sending(next.id)
        let sender = writer, reference = reference
        // The collection stays alive until its queue is sent: a write shown
        // is never dropped because nobody holds the collection any more.
        Task {
            var failure: DatabaseError?
            do throws(DatabaseError) { try await sender.send(reference, next.write, attempt) } catch { failure = error }
            self.sendingWrite = false
            if let failure, failure.isConnectionFailure {
                if attempt == .first, !failure.mayHaveReachedServer { _ = self.writeQueue.setAttempted(next.id, false) }
                self.waitForConnection()
                return
            }
            self.writeFailures = 0
            self.finishWrite(next.id, failure)
            self.sendWrites()
        }
    }

    private func finishWrite(_ id: Int, _ failure: DatabaseError?) {
        if flightRecorder != nil { recordOutcome(id, failure) }
        applyLocally(failure == nil ? view.acknowledge(id) : view.revert(id))
        writeQueue.remove(id)
        finishedWrites[id] = .some(failure)
        finishedWrites[id - Self.finishedWritesKept] = nil
        tellWrite(id, failure.map { .reverted($0) } ?? .confirmed)
        for waiter in writeWaiters.removeValue(forKey: id) ?? [] { waiter.resume(returning: failure) }
        // Saved once nothing unconfirmed is shown.
        if writeQueue.isEmpty { saveCacheSoon() }
    }

    /// Outcomes kept for ``outcome(of:)`` after a write finished.
    static var finishedWritesKept: Int { 1024 }

    /// Applies the events of a local write, its confirmation or its revert:
    /// one change.
    func applyLocally(_ events: [ChildEvent]) {
        guard !events.isEmpty else { return }
        if events.contains(where: { $0.key != events[0].key }) {
            collection.performBatch { applyEach(events) }
        } else {
            applyEach(events)
        }
        tell(events, loaded: false)
        noteCacheChanges(events)
    }

    func tellWrite(_ id: Int, _ state: WriteState) {
        for handler in writeObservers { handler(id, state) }
    }
}
