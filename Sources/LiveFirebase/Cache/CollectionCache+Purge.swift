// CollectionCache+Purge.swift — forgetting one user: every file a scope
// keeps in a cache's directory (sign-out).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LiveModel

extension CollectionCache {
    /// Deletes everything this cache's ``scope`` keeps in its directory:
    /// the children of every query and the writes still queued (they are
    /// never sent). Call it at sign-out, once that user's collections are
    /// gone; files of other scopes stay.
    /// - Returns: How many files were deleted.
    /// - Throws: ``DatabaseError/cache(_:)`` when a collection still open
    ///   holds one of the scope's write queues (then nothing is deleted),
    ///   or a file cannot be deleted.
    /// - Complexity: O(f) file headers read, for f files in the directory.
    @discardableResult
    public func purge() throws(DatabaseError) -> Int {
        guard let dir = opendir(directory) else {
            if errno == ENOENT { return 0 }
            throw .cache("Cannot read the directory \(directory): \(DurableFile.errnoText())")
        }
        var names: [String] = []
        while let entry = readdir(dir) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            })
        }
        closedir(dir)
        // The scope's files; its queues locked first, so that nothing is
        // deleted while a collection of it is still open.
        var files: [String] = []
        var locks: [FileLock] = []
        for name in names {
            let isQueue = name.hasSuffix(".writes")
            guard isQueue || name.hasSuffix(".cache") else { continue }
            let stem = name.dropLast(isQueue ? ".writes".count : ".cache".count)
            guard stem.count == 16, stem.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { continue }
            let path = directory + "/" + name
            guard Self.scope(ofFile: path) == scope else { continue }
            if isQueue {
                do { locks.append(try FileLock(path + ".lock")) } catch {
                    throw .cache("nothing was deleted: \(path) is in use (\(error.description)); stop the collections of this scope first")
                }
            }
            files.append(path)
        }
        var deleted = 0
        var failures: [String] = []
        for path in files {
            if unlink(path) == 0 { deleted += 1 } else if errno != ENOENT {
                failures.append("Cannot delete \(path): \(DurableFile.errnoText())")
            }
        }
        for lock in locks { unlink(lock.path) }
        locks.removeAll()
        DurableFile.syncDirectory(of: directory + "/x")
        guard failures.isEmpty else { throw .cache(failures.joined(separator: "; ")) }
        return deleted
    }

    /// The scope named in the header line of a cache or queue file; nil
    /// when it cannot be read.
    private static func scope(ofFile path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        // A header is short: the scope, the location and the query.
        var bytes = [UInt8](repeating: 0, count: 64 << 10)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0, let newline = bytes[..<count].firstIndex(of: UInt8(ascii: "\n")),
              let header = try? JSONValue(parsingUTF8: bytes[..<newline]),
              let identity = header["identity"]?.stringValue,
              case .array(let parts)? = try? JSONValue(parsing: identity) else { return nil }
        return parts.first?.stringValue
    }
}
