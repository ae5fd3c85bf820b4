// ServerCore.swift — the state of a LiveServer: the data, the streams, the
// tokens and the faults, behind one lock.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Logging
import LiveModel
import NIOConcurrencyHelpers
import NIOCore

/// Everything a ``LiveServer`` holds. Every request and event passes through
/// its lock, so writes are applied, journalled and told to listeners in one
/// order; listeners never slow writers down (see ``Listener``).
final class ServerCore: @unchecked Sendable {
    let configuration: LiveServerConfiguration
    let logger: Logger
    /// Which browsers and host names may reach the data.
    let access: AccessPolicy
    /// The connections open, bounded.
    let connections: ConnectionLimit
    let lock = NIOLock()

    // Guarded by `lock`.
    var store: Store
    var pushIDs = PushIDGenerator()
    let journal: Journal?
    var listeners = ListenerRegistry()
    /// The order indexes kept for queries no stream keeps a window of.
    var reads: ReadIndexes
    var nextListenerID = 1
    var tokens: Set<String>?
    /// Tokens refused even in open mode (revoked, or whose access ended).
    var refused = Set<String>()
    var globalFaults: [StreamFault] = []
    /// Whether a compaction runs in the background.
    var compacting = false
    /// The compactions running in the background (at most one).
    let compactions = DispatchGroup()
    /// The order indexes being built for reads (tests wait for them).
    let indexBuilds = DispatchGroup()
    /// The digest of the data read from the data file, computed after the
    /// start (tests wait for it).
    let digestWarmUp = DispatchGroup()
    /// Called on the compaction's thread before it writes (tests hold it).
    var compactionGate: (@Sendable () -> Void)?

    init(configuration: LiveServerConfiguration, logger: Logger) throws(StoreError) {
        self.configuration = configuration
        self.logger = logger
        access = AccessPolicy(configuration)
        connections = ConnectionLimit(capacity: configuration.maxConnections > 0
                                      ? configuration.maxConnections : Self.connectionCapacity())
        tokens = configuration.tokens
        reads = ReadIndexes(capacity: configuration.queryIndexLimit)
        if let file = configuration.dataFile {
            let journal = Journal(file: file)
            store = try journal.load()
            self.journal = journal
            // The digests of the data's large objects, computed once now,
            // away from the lock, on a copy that shares their memos (see
            // `DigestMemo`): otherwise the first ETag, and the first
            // `if-match` write, at a location of a million children would
            // read all of them, the write under the lock.
            let root = store.root
            DispatchQueue.global(qos: .utility).async(group: digestWarmUp) { _ = root.digest }
        } else {
            store = Store()
            journal = nil
        }
    }

    /// The most connections the process's descriptor limit allows, keeping
    /// 128 descriptors for files and the listening sockets; at most 16,384.
    static func connectionCapacity() -> Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < 1 << 20 else { return 16_384 }
        return min(16_384, max(16, Int(limit.rlim_cur) - 128))
    }

    /// Whether `token` may use the data now (under the lock).
    func mayUse(_ token: String?) -> Bool { lock.withLock { isAuthorized(token) } }

    /// The current time in milliseconds since 1970, for server timestamps.
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    // MARK: Auth (under `lock`)

    /// Open mode accepts everyone (but refused tokens); token mode exactly
    /// the tokens it was given. `owner`, the Firebase emulator's admin
    /// token, is one like any other: accepted in token mode only when given.
    func isAuthorized(_ token: String?) -> Bool {
        if let token, refused.contains(token) { return false }
        guard let tokens else { return true }
        guard let token else { return false }
        return tokens.contains(token)
    }

    static let permissionDenied = StoreError(status: 401, message: "Permission denied")

    // MARK: Tokens and faults at run time

    func addToken(_ token: String) {
        lock.withLock {
            refused.remove(token)
            if tokens != nil { tokens!.insert(token) }
        }
    }

    /// Refuses `token` from now on; its streams get `event` and close.
    func refuse(_ token: String, telling event: FramedEvent) {
        lock.withLock {
            tokens?.remove(token)
            refused.insert(token)
            for listener in listeners.inOrder where listener.token == token {
                listener.sendControl(event, thenClose: true)
                listeners.remove(listener.id)
            }
        }
    }

    func setFaults(_ faults: [StreamFault]) {
        lock.withLock {
            globalFaults = faults
            for listener in listeners.byID.values { listener.faults = faults }
        }
    }

    func setFaults(_ faults: [StreamFault], listener id: Int) -> Bool {
        lock.withLock {
            guard let listener = listeners[id] else { return false }
            listener.faults = faults
            return true
        }
    }

    func listenerInfos() -> [ListenerInfo] {
        lock.withLock {
            listeners.inOrder.map {
                ListenerInfo(id: $0.id, path: $0.path.description, hasQuery: $0.query != nil, eventsSent: $0.eventsSent)
            }
        }
    }

    func sendKeepAlives() {
        lock.withLock { for listener in listeners.byID.values { listener.sendControl(.keepAlive) } }
    }

    /// Writes the data as it is now (a value: taking it is O(1)) as the
    /// snapshot on another thread, without the lock, so that requests and
    /// keep-alives go on meanwhile; then, under the lock, drops the journal
    /// lines the snapshot holds. One at a time. Under `lock`.
    func compactInBackground(_ journal: Journal) {
        guard !compacting else { return }
        compacting = true
        let snapshot = store, mark = journal.journalBytes
        compactions.enter()
        DispatchQueue.global(qos: .utility).async { [self] in
            defer { compactions.leave() }
            compactionGate?()
            var written = true
            do throws(StoreError) { try journal.writeSnapshot(snapshot) } catch {
                written = false
                logger.error("\(error.message)")
            }
            lock.withLock {
                compacting = false
                guard written else { return }
                do throws(StoreError) { try journal.dropPrefix(mark) } catch { logger.error("\(error.message)") }
            }
        }
    }

    /// Returns once no compaction runs in the background.
    func finishCompaction() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            compactions.notify(queue: .global()) { done.resume() }
        }
    }

    /// Folds the journal into the snapshot (on shutdown). An empty journal
    /// leaves the snapshot as it is: it already holds the data, and a large
    /// file is not written again for nothing.
    func compact() {
        lock.withLock {
            guard let journal, journal.journalBytes > 0 else { return }
            do throws(StoreError) { try journal.compact(store) } catch { logger.error("\(error.message)") }
        }
    }

    /// Folds the journal into the snapshot and releases the data file, so
    /// that another server may use it (at shutdown).
    func close() {
        compact()
        lock.withLock { journal?.close() }
    }
}
