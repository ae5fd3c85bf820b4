// JoinedCollection.swift — keys listed at one location joined with their
// data at another (FirebaseUI's index arrays).
import LiveCollection
import LiveModel

/// A collection of the keys listed at an index location (for example
/// `/users/alice/groups`, `{"g1": true, "g7": true}`), in the index query's
/// order, each joined with its data at a data location (`/groups/g1`).
///
/// Every key of the index is a row: its data is ``JoinedChild/State/loading``
/// until it arrives, ``JoinedChild/State/missing`` while the data location
/// has nothing for it, and follows the data live. Rows are never dropped for
/// missing data, so positions always match the index.
///
/// Each listed key has its own stream on its data; the index has one.
@MainActor
public final class JoinedCollection<Model: LiveModelProtocol> {
    /// The index location, whose children's keys are listed.
    public let index: DatabaseReference
    /// The data location, whose children hold each key's data.
    public let data: DatabaseReference
    /// The rows, in index order.
    public let collection: SortedCollection<JoinedChild<Model>>

    private let view: QueryView
    private let opener: StreamOpener
    private var indexStream: OpenedStream?
    private var dataStreams: [Key: OpenedStream] = [:]
    private var values: [Key: JSONValue] = [:]
    /// Each listed key's sort value in the index query.
    private var sortValues: [Key: SortValue] = [:]
    private var generation = 0
    private var loadWaiters: [CheckedContinuation<Void, Never>] = []
    private var indexLoaded = false

    /// The keys listed at `index` under `query`, joined with their data
    /// at `data`; not started yet.
    /// - Parameters:
    ///   - index: The location whose children's keys are listed.
    ///   - query: Which keys to list, in which order; every key, in key
    ///     order, by default.
    ///   - data: The location whose child of each listed key holds its data.
    ///   - opener: How the streams are opened (the real database by default).
    /// - Throws: ``DatabaseError/invalidQuery(_:)`` for a query Firebase refuses.
    public init(index: DatabaseReference, query: DatabaseQuery = DatabaseQuery(order: .key),
                data: DatabaseReference, opener: StreamOpener = .database()) throws(DatabaseError) {
        self.index = index
        self.data = data
        self.opener = opener
        view = QueryView(query: try query.checked())
        collection = SortedCollection(order: query.order)
    }

    /// Number of rows whose data has not arrived yet.
    /// - Complexity: O(n) for n rows.
    public var loadingCount: Int {
        collection.models.filter { if case .loading = $0.state { return true } else { return false } }.count
    }

    /// Starts listening; returns once the index and the data of every listed
    /// key have arrived (missing data counts as arrived).
    public func start() async {
        guard indexStream == nil else { return }
        generation += 1
        let current = generation
        let opened = opener.open(index, view.query)
        indexStream = opened
        Task { [weak self] in
            for await message in opened.messages {
                guard let self, self.generation == current else { return }
                self.handleIndex(message)
            }
        }
        for key in dataStreams.keys { openData(key) }
        await withCheckedContinuation { loadWaiters.append($0) }
    }

    /// Stops every stream; the rows stay.
    public func stop() {
        generation += 1
        indexStream?.stop()
        indexStream = nil
        for (_, stream) in dataStreams { stream.stop() }
        for key in dataStreams.keys { dataStreams[key] = nil }
        indexLoaded = false
        resumeIfLoaded(force: true)
    }

    private func handleIndex(_ message: StreamMessage) {
        guard case .put(let payload) = message else {
            if case .patch(let payload) = message { applyIndex(view.apply(payload)) }
            return
        }
        applyIndex(view.apply(payload))
        if payload.path.isRoot { indexLoaded = true }
        resumeIfLoaded()
    }

    private func applyIndex(_ events: [ChildEvent]) {
        collection.performBatch {
            for event in events {
                switch event.kind {
                case .removed:
                    collection.remove(event.key)
                    dataStreams.removeValue(forKey: event.key)?.stop()
                    values[event.key] = nil
                    sortValues[event.key] = nil
                case .added, .moved, .changed:
                    let row = collection.model(for: event.key) ?? JoinedChild(identifier: event.key, state: .loading)
                    sortValues[event.key] = event.snapshot.sortValue
                    try? collection.add(row, sortValue: event.snapshot.sortValue)
                    if dataStreams[event.key] == nil { openData(event.key) }
                }
            }
        }
    }

    private func openData(_ key: Key) {
        let reference: DatabaseReference
        do { reference = try data.child(DatabasePath([key])) } catch {
            setRow(key, JoinedChild(identifier: key, state: .failed(error)))
            return
        }
        let opened = opener.open(reference, DatabaseQuery())
        dataStreams[key] = opened
        let current = generation
        Task { [weak self] in
            for await message in opened.messages {
                guard let self, self.generation == current, self.dataStreams[key] != nil else { return }
                self.handleData(key, message)
            }
        }
    }

    private func handleData(_ key: Key, _ message: StreamMessage) {
        let payload: StreamPayload
        switch message {
        case .put(let p), .patch(let p): payload = p
        default: return
        }
        var value = values[key] ?? .null
        for update in payload.updates {
            let path = payload.path.keys + update.path.keys
            value = value.replacing(path[...], with: update.value.value)
        }
        values[key] = value
        setRow(key, JoinedChild(identifier: key, dictionary: value))
        resumeIfLoaded()
    }

    private func setRow(_ key: Key, _ row: JoinedChild<Model>) {
        guard let sortValue = sortValues[key], collection.model(for: key) != nil else { return }
        try? collection.add(row, sortValue: sortValue)
    }

    private func resumeIfLoaded(force: Bool = false) {
        guard !loadWaiters.isEmpty, force || (indexLoaded && loadingCount == 0) else { return }
        let waiters = loadWaiters
        loadWaiters.removeAll()
        for w in waiters { w.resume() }
    }
}
