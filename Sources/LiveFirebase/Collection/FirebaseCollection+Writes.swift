// FirebaseCollection+Writes.swift — writes made through the collection:
// shown at once, sent in order, then confirmed or reverted.
import Foundation
import LiveCollection
import LiveModel

extension FirebaseCollection {
    /// Writes `value` at `path` (relative to the location; `null` removes):
    /// shown at once, then sent; returns once the server took it.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` for a value the database
    ///   cannot store (nothing is shown); the server's refusal, such as
    ///   ``DatabaseError/etagMismatch(currentETag:currentValue:)`` or
    ///   ``DatabaseError/permissionDenied(_:)``, after the write was
    ///   reverted.
    public func set(_ value: JSONValue, at path: DatabasePath = .root, ifMatch etag: String? = nil)
        async throws(DatabaseError)
    {
        try await result(of: write(.set(path, value, ifMatch: etag)))
    }

    /// Writes several paths below `path` at once (each key relative to it;
    /// `null` removes); see ``set(_:at:ifMatch:)``.
    public func update(_ values: [DatabasePath: JSONValue], at path: DatabasePath = .root) async throws(DatabaseError) {
        try await result(of: write(.update(path, values)))
    }

    /// Removes the data at `path`; see ``set(_:at:ifMatch:)``.
    public func remove(at path: DatabasePath, ifMatch etag: String? = nil) async throws(DatabaseError) {
        try await result(of: write(.remove(path, ifMatch: etag)))
    }

    /// Adds `value` below `path` at a new push id, made here (so the child
    /// shows at once, under its final key) and written with a `set`.
    /// - Returns: The new child's key.
    /// - Throws: as ``set(_:at:ifMatch:)``.
    @discardableResult
    public func push(_ value: JSONValue, at path: DatabasePath = .root) async throws(DatabaseError) -> Key {
        let (key, id) = try pushWrite(value, at: path)
        try await result(of: id)
        return key
    }

    /// Makes a push id below `path` and starts writing `value` there.
    /// - Returns: The key and the write's number.
    public func pushWrite(_ value: JSONValue, at path: DatabasePath = .root) throws(DatabaseError) -> (Key, Int) {
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
    /// ``result(of:)``.
    /// - Returns: The write's number.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` for a value the database
    ///   cannot store; nothing is shown or sent then.
    /// - Complexity: O((u + k) log n) for u children changed and a limit of k.
    @discardableResult
    public func write(_ write: DatabaseWrite) throws(DatabaseError) -> Int {
        let replacements = try write.replacements()
        for (path, value) in replacements { try RESTValueCheck.check(value, at: path.description) }
        let now = Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
        var updates: [(path: [Key], value: Snapshot)] = []
        for (path, value) in replacements {
            let estimated = ServerValue.estimate(value, over: currentValue(at: path), now: now)
            let snapshot: Snapshot
            do { snapshot = try Snapshot.parse(json: estimated.jsonText(), order: view.query.order) } catch {
                throw .invalidValue("the value at \(path): \(error.description)")
            }
            updates.append((path.keys, snapshot))
        }
        let id = nextWriteID
        nextWriteID += 1
        writeQueue.append((id, write))
        pendingWriteIDs.append(id)
        applyLocally(view.applyLocal(updates, id: id))
        tellWrite(id, .pending)
        sendWrites()
        return id
    }

    /// Waits for write `id` (from ``write(_:)``) to be confirmed; returns
    /// at once for one confirmed recently.
    /// - Throws: The error that reverted it.
    public func result(of id: Int) async throws(DatabaseError) {
        if let done = finishedWrites[id] {
            if let error = done { throw error }
            return
        }
        guard pendingWriteIDs.contains(id) else { return }
        let error: DatabaseError? = await withCheckedContinuation { writeWaiters[id, default: []].append($0) }
        if let error { throw error }
    }

    /// The numbers of the writes shown and not yet confirmed or reverted,
    /// oldest first.
    public var pendingWrites: [Int] { pendingWriteIDs }

    /// Calls `handler` with each write's number and state: `.pending` when
    /// it is shown, then `.confirmed` or `.reverted`.
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

    /// Sends the next queued write, unless one is on its way.
    private func sendWrites() {
        guard !sendingWrite, !writeQueue.isEmpty else { return }
        sendingWrite = true
        let (id, write) = writeQueue.removeFirst()
        let sender = writer, reference = reference
        Task { [weak self] in
            var failure: DatabaseError?
            do throws(DatabaseError) { try await sender.send(reference, write) } catch { failure = error }
            guard let self else { return }
            self.sendingWrite = false
            self.finishWrite(id, failure)
            self.sendWrites()
        }
    }

    private func finishWrite(_ id: Int, _ failure: DatabaseError?) {
        applyLocally(failure == nil ? view.acknowledge(id) : view.revert(id))
        pendingWriteIDs.removeAll { $0 == id }
        finishedWrites[id] = .some(failure)
        finishedWrites[id - Self.finishedWritesKept] = nil
        tellWrite(id, failure.map { .reverted($0) } ?? .confirmed)
        for waiter in writeWaiters.removeValue(forKey: id) ?? [] { waiter.resume(returning: failure) }
        // Saved once nothing unconfirmed is shown.
        if pendingWriteIDs.isEmpty { saveCacheSoon() }
    }

    /// Outcomes kept for ``result(of:)`` after a write finished.
    static var finishedWritesKept: Int { 1024 }

    /// Applies the events of a local write, its confirmation or its revert:
    /// one change.
    private func applyLocally(_ events: [ChildEvent]) {
        guard !events.isEmpty else { return }
        if events.contains(where: { $0.key != events[0].key }) {
            collection.performBatch { applyEach(events) }
        } else {
            applyEach(events)
        }
        tell(events, loaded: false)
        cacheChanges &+= 1
    }

    private func tellWrite(_ id: Int, _ state: WriteState) {
        for handler in writeObservers { handler(id, state) }
    }
}
