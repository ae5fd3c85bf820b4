// CollectionCache.swift — where collections keep what they hold between
// runs: one log per location and query, bounded in size.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LiveModel

/// A directory where ``FirebaseCollection``s keep the children of their
/// query between runs, so that a collection started again shows them at
/// once, before the server answers (see ``FirebaseCollection/init(reference:query:mode:dataSource:opener:cache:writer:sharedCache:)``).
///
/// - **One file per location and query** (`<hash>.cache`): a log. A header
///   line naming them, then the children as a stream `put` at `/`, then one
///   line per save since: a stream `patch` at `/` of the children that
///   changed (`null` for one that left), appended and synced (one that
///   fails is cut back); the file is written anew —
///   beside, synced, renamed over — when the changes appended would take
///   more than the children alone, or another writer changed it. A crash or
///   a kill at any moment leaves the last complete state readable: a torn
///   last line is ignored.
/// - **Bounded**: the size of a save is known before it is written. A
///   query whose children alone take more than ``limitBytes`` is not kept
///   (its file is deleted, the others stay, and nothing more is written
///   for it until it holds fewer children). After each save, while the
///   files take more than ``limitBytes``, the least recently used one (by
///   modification time: a file is touched each time it is read) is
///   deleted. Only this cache's own files (`<16 hex digits>.cache`) are
///   ever deleted.
/// - **Private**: the children's data, as the server sent it, in plain
///   text, readable by the user alone (the directory is made `0700`, the
///   files `0600`). Give each signed-in user a ``scope`` (or a directory of
///   their own): one user's children are never shown to another. When the
///   server refuses a collection (permission denied, a revoked
///   credential), its file is deleted.
/// - **What is saved** is what the server confirmed: never the cached
///   children before the server's value came, nor a new query's empty view.
public struct CollectionCache: Sendable, Equatable {
    /// The directory; made (with the directories above it) when missing.
    public let directory: String
    /// Who the cached data belongs to (a user id, say): part of each file's
    /// identity, so a collection reads only files saved under its scope.
    public let scope: String
    /// The most bytes its files may take together.
    public let limitBytes: Int
    /// How long after a change a collection saves again: changes within it
    /// are saved together.
    public let interval: Duration

    /// A cache in `directory`, of at most `limitBytes` (64 MB by default),
    /// saving at most once per `interval` (one second by default), for the
    /// user `scope` (none by default).
    public init(directory: String, limitBytes: Int = 64 << 20, interval: Duration = .seconds(1), scope: String = "") {
        self.directory = directory
        self.limitBytes = limitBytes
        self.interval = interval
        self.scope = scope
    }

    /// What identifies a collection's file: the scope, the location and the
    /// query, every part of it (a key tie-break and whether a bound is
    /// inclusive too, which the stream's parameters cannot say).
    func identity(_ reference: DatabaseReference, _ query: DatabaseQuery) -> String {
        JSONValue.array([.string(scope), .string("\(reference)"), query.json]).jsonText()
    }

    /// What identifies the queue of writes made through collections of
    /// `reference`: the scope and the location.
    func writesIdentity(_ reference: DatabaseReference) -> String {
        JSONValue.array([.string(scope), .string("\(reference)"), .string("writes")]).jsonText()
    }

    /// The file for `identity`: a 64-bit FNV-1a hash of it, in hex (the
    /// header line holds the identity itself, so a collision reads as a
    /// miss), with `suffix`.
    func path(for identity: String, suffix: String = ".cache") -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identity.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return directory + "/" + String(repeating: "0", count: 16 - hex.count) + hex + suffix
    }

    /// Makes the directory when missing, and checks that it is private.
    /// - Throws: ``DurableFile/Failure`` when it cannot be made, or belongs
    ///   to another user, or others may write to it.
    func makeDirectory() throws(DurableFile.Failure) {
        try DurableFile.makePrivateDirectory(directory)
    }

    /// Deletes the file of `identity`, if any.
    func remove(_ identity: String) {
        unlink(path(for: identity))
    }

    /// Deletes the least recently used files other than `keeping` (the one
    /// just saved) while the cache is over its limit.
    func evict(keeping: String) {
        guard let entries = Self.files(in: directory) else { return }
        var total = entries.reduce(0) { $0 + $1.bytes }
        for entry in entries.sorted(by: { $0.used < $1.used }) where total > limitBytes && entry.path != keeping {
            if unlink(entry.path) == 0 { total -= entry.bytes }
        }
    }

    /// The `.cache` files in `directory`, with their sizes and modification times.
    private static func files(in directory: String) -> [(path: String, bytes: Int, used: Double)]? {
        guard let dir = opendir(directory) else { return nil }
        defer { closedir(dir) }
        var found: [(path: String, bytes: Int, used: Double)] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            // This cache's files only: 16 hex digits, then `.cache`.
            let stem = name.dropLast(".cache".count)
            guard name.hasSuffix(".cache"), stem.count == 16,
                  stem.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { continue }
            let path = directory + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            #if canImport(Darwin)
            let used = Double(info.st_mtimespec.tv_sec) + Double(info.st_mtimespec.tv_nsec) / 1e9
            #else
            let used = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9
            #endif
            found.append((path, Int(info.st_size), used))
        }
        return found
    }
}
