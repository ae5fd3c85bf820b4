// ObservedFirebaseState.swift — what a screen shows beside a Firebase
// collection's rows (connection, first load, cache, writes waiting, pages,
// the last error) as Observation state.
import LiveCollection
import LiveModel
import LiveSections
import Observation

/// A ``FirebaseCollection``'s state as `@Observable` properties, for the
/// parts of a screen around its rows: a spinner before the first load, a
/// banner while offline or showing cached data, a count of writes not
/// confirmed yet, a "load more" row, an error.
///
/// ```swift
/// let state = ObservedFirebaseState(players)
/// SectionedList(teams, phase: state.listPhase) { player in
///     Text(player.name)
/// } empty: {
///     Text("No players yet")
/// } loading: {
///     ProgressView()
/// } failed: { message in
///     Text(message)
/// }
/// if state.pendingWrites > 0 { Text("\(state.pendingWrites) changes not saved yet") }
/// ```
///
/// Each property changes only when its value does, so a view reading
/// ``pendingWrites`` is not redrawn when the status changes. It follows the
/// collection through the collection's own observers (status, writes,
/// value, progress), on the main actor, for as long as it lives; it keeps
/// the collection alive.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@MainActor
@Observable
public final class ObservedFirebaseState<Source: ModelDataSource> {
    /// Where listening stands.
    public private(set) var status: CollectionStatus
    /// Whether rows have been shown: a first load from the server, or what
    /// a cache kept. Stays true through reconnects and while offline.
    public private(set) var hasLoaded: Bool
    /// Writes made through the collection and not answered yet (shown,
    /// sent or waiting for a connection).
    public private(set) var pendingWrites: Int
    /// The last error met: the connection's (status `reconnecting` or
    /// `failed`), a refused write's, a cache save's (seen at the
    /// collection's next change or status), or a page's. It stays until
    /// ``clearError()`` or the next error.
    public private(set) var lastError: DatabaseError?
    /// How far a large first value has arrived; nil outside a first load.
    public private(set) var progress: LoadProgress?
    /// Pages asked for (1 outside the paged modes).
    public private(set) var pages: Int
    /// Whether ``loadNextPage()`` can bring more children.
    public private(set) var hasMorePages: Bool
    /// Whether a page asked for through ``loadNextPage()`` is loading.
    public private(set) var isLoadingPage = false

    /// The collection followed.
    @ObservationIgnored public let collection: FirebaseCollection<Source>
    @ObservationIgnored private var tokens: [ObservationToken] = []
    /// The collection's cache error last taken in, so that one error is
    /// taken once (and ``clearError()`` stays cleared).
    @ObservationIgnored private var cacheErrorSeen: DatabaseError?

    /// Follows `collection` from now on, starting from its state now.
    /// - Complexity: O(w) for w writes waiting (so is each write's change).
    public init(_ collection: FirebaseCollection<Source>) {
        self.collection = collection
        status = collection.status
        hasLoaded = collection.firstLoad != nil || collection.status == .cached || collection.status == .live
        pendingWrites = collection.pendingWrites.count
        switch collection.status {
        case .reconnecting(let error), .failed(let error): lastError = error
        default: lastError = collection.cacheError
        }
        cacheErrorSeen = collection.cacheError
        progress = collection.loadProgress
        pages = collection.pages
        hasMorePages = collection.hasMorePages
        tokens = [
            collection.observeStatus { [weak self] in self?.statusChanged($0) },
            collection.observeWrites { [weak self] in self?.writeChanged($0, $1) },
            collection.observeValue { [weak self] in self?.valueChanged() },
            collection.observeProgress { [weak self] progress in self?.set(\.progress, progress) },
        ]
    }

    /// What a list shows instead of its rows, or its rows: loading until
    /// the first rows, a failure when the collection failed before any,
    /// then the rows (an empty list included). For `SectionedList`.
    public var listPhase: ListPhase {
        if hasLoaded { return .ready }
        if case .failed(let error) = status { return .failed(error.description) }
        return .loading
    }

    /// Forgets ``lastError`` (the app has shown it).
    public func clearError() { set(\.lastError, nil) }

    /// Loads the next page (``FirebaseCollection/loadNextPage()``), with
    /// ``isLoadingPage`` true meanwhile; a failure is also ``lastError``.
    /// While one loads, another call returns 0 at once (a "load more" row
    /// that appears twice asks once).
    /// - Returns: The number of rows the page added.
    @discardableResult
    public func loadNextPage() async throws(DatabaseError) -> Int {
        guard !isLoadingPage else { return 0 }
        set(\.isLoadingPage, true)
        defer {
            set(\.isLoadingPage, false)
            valueChanged()
        }
        do {
            return try await collection.loadNextPage()
        } catch {
            set(\.lastError, error)
            throw error
        }
    }

    private func statusChanged(_ status: CollectionStatus) {
        set(\.status, status)
        switch status {
        case .live, .cached: set(\.hasLoaded, true)
        case .reconnecting(let error), .failed(let error): set(\.lastError, error)
        case .stopped, .connecting, .offline: break
        }
        valueChanged()
    }

    private func writeChanged(_ id: Int, _ state: WriteState) {
        // The queue may be told before or after it takes the write in or
        // out: the write's own state decides for it.
        var pending = Set(collection.pendingWrites)
        switch state {
        case .pending: pending.insert(id)
        case .confirmed: pending.remove(id)
        case .reverted(let error):
            pending.remove(id)
            set(\.lastError, error)
        }
        set(\.pendingWrites, pending.count)
    }

    private func valueChanged() {
        if collection.firstLoad != nil { set(\.hasLoaded, true) }
        set(\.pages, collection.pages)
        set(\.hasMorePages, collection.hasMorePages)
        set(\.progress, collection.loadProgress)
        if collection.cacheError != cacheErrorSeen {
            cacheErrorSeen = collection.cacheError
            if let error = collection.cacheError { set(\.lastError, error) }
        }
    }

    /// Sets a property only when its value changes, so that views reading
    /// it are not redrawn for nothing.
    private func set<Value: Equatable>(_ property: ReferenceWritableKeyPath<ObservedFirebaseState, Value>, _ value: Value) {
        if self[keyPath: property] != value { self[keyPath: property] = value }
    }
}
