// FileLock.swift — an exclusive lock on a file, between processes and within
// one, that a child process being started never holds.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on a file (made `0600` when missing), held from a
/// successful `init` until the lock is released: at `deinit`, or when the
/// process ends however it ends.
///
/// Between processes it is a POSIX record lock (`fcntl(F_SETLK)`), which a
/// child process being started by another thread never inherits: a lock
/// released here is free at once, even while that child has not yet
/// replaced its image. (`flock` locks are shared with such a child until it
/// does, so a lock released and taken again at once could be refused.)
/// Within the process, where record locks do not exclude, a registry of the
/// files locked here does; a file is named by its directory's real path, so
/// two spellings of one path are one file.
///
/// Nothing else in the process may open the lock file: closing any
/// descriptor of it would release a record lock.
package final class FileLock {
    /// The file locked, as resolved.
    package let path: String
    private let fd: Int32

    /// Why a lock was not taken.
    package enum Failure: Error, CustomStringConvertible {
        /// Another process, or another `FileLock` of this process, holds it.
        case held(String)
        /// The lock file cannot be opened (or is a symbolic link); the
        /// system's reason.
        case cannotOpen(String, reason: String)

        package var description: String {
            switch self {
            case .held(let path): return "another process holds the lock \(path)"
            case .cannotOpen(let path, let reason): return "cannot open the lock \(path): \(reason)"
            }
        }
    }

    /// Takes the lock on `path` without waiting. A symbolic link at `path`
    /// is refused, never followed.
    /// - Throws: ``Failure``: held elsewhere, or the file cannot be opened.
    package init(_ path: String) throws(Failure) {
        let resolved = FileLock.resolve(path)
        guard FileLock.held.insert(resolved) else { throw .held(resolved) }
        let fd = open(resolved, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            FileLock.held.remove(resolved)
            throw .cannotOpen(resolved, reason: reason)
        }
        var range = flock()
        range.l_type = Int16(F_WRLCK)
        range.l_whence = Int16(SEEK_SET)
        guard fcntl(fd, F_SETLK, &range) == 0 else {
            let busy = errno == EACCES || errno == EAGAIN
            let reason = String(cString: strerror(errno))
            _ = close(fd)
            FileLock.held.remove(resolved)
            throw busy ? .held(resolved) : .cannotOpen(resolved, reason: reason)
        }
        self.path = resolved
        self.fd = fd
    }

    deinit {
        _ = close(fd)
        FileLock.held.remove(path)
    }

    /// `path` with its directory's real path, when it can be resolved.
    private static func resolve(_ path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard let real = realpath(directory, nil) else { return path }
        defer { free(real) }
        let base = String(cString: real)
        return (base == "/" ? "" : base) + "/" + name
    }

    /// The files locked in this process.
    private static let held = HeldFiles()
}

/// A set of paths behind a mutex.
private final class HeldFiles: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var paths: Set<String> = []

    init() { pthread_mutex_init(mutex, nil) }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Adds `path`; false when it was there.
    func insert(_ path: String) -> Bool {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return paths.insert(path).inserted
    }

    func remove(_ path: String) {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        paths.remove(path)
    }
}
