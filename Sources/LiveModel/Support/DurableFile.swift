// DurableFile.swift — files that survive a crash whole: read at once, and
// replaced by writing a temporary file, syncing it and renaming it over.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading, appending and atomically replacing files, for the stores that
/// must never leave a torn file behind (a server's data file and journal,
/// a collection's disk cache).
package enum DurableFile {
    /// What failed, with the path and the system's reason.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The file's bytes, followed by `padding` zero bytes; nil when there
    /// is no file at `path`. Any other failure throws: a file that exists
    /// but cannot be read is never taken for a missing one (whoever reads
    /// it would otherwise write over it).
    /// - Parameters:
    ///   - path: The file to read.
    ///   - padding: Zero bytes to add after the text.
    ///   - followingLinks: Whether `path` may be a symbolic link; when
    ///     false, a link is refused (`O_NOFOLLOW`).
    ///   - pipes: Whether `path` may be a pipe (read to its end);
    ///     otherwise anything but a regular file is refused.
    /// - Throws: ``Failure`` naming the file and the system's reason.
    /// - Complexity: O(size of the file); read into storage of its size.
    package static func read(_ path: String, padding: Int = 0, followingLinks: Bool = true,
                             pipes: Bool = false) throws(Failure) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure(description: "Cannot read \(path): \(errnoText())")
        }
        defer { posixClose(fd) }
        // Read into storage of the file's size: a large file is not copied
        // as an array grows.
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw Failure(description: "Cannot read \(path): \(errnoText())") }
        guard (status.st_mode & S_IFMT) == S_IFREG || (pipes && (status.st_mode & S_IFMT) == S_IFIFO) else {
            throw Failure(description: "Cannot read \(path): it is not a regular file")
        }
        let size = max(0, Int(status.st_size))
        var count = 0
        var failure: Int32 = 0
        // Read straight into the array's storage, which is not zeroed first:
        // at a file's size that would be a pass over all of it for nothing.
        var bytes = [UInt8](unsafeUninitializedCapacity: max(1, size + padding)) { storage, initialized in
            let base = storage.baseAddress!
            var ended = false
            while count < size && !ended && failure == 0 {
                let read = posixRead(fd, base + count, size - count)
                if read < 0 && errno == EINTR { continue }
                if read < 0 { failure = errno } else if read == 0 { ended = true } else { count += read }
            }
            // The padding, and the rest of a file that shrank meanwhile.
            (base + count).initialize(repeating: 0, count: size + padding - count)
            initialized = size + padding
        }
        if failure != 0 { throw Failure(description: "Cannot read \(path): \(String(cString: strerror(failure)))") }
        var probe = [UInt8](repeating: 0, count: 1 << 16)
        while count >= size {
            // Past the size the file had when opened: it may have grown meanwhile.
            let read = probe.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress, $0.count) }
            if read < 0 && errno == EINTR { continue }
            if read < 0 { throw Failure(description: "Cannot read \(path): \(errnoText())") }
            if read == 0 { break }
            bytes.insert(contentsOf: probe[0..<read], at: count)
            count += read
        }
        // The text, then zero bytes up to the end: `padding` of them.
        bytes.removeSubrange((count + padding)...)
        return bytes
    }

    /// Replaces `path` with the bytes `next` hands out, a piece at a time
    /// (`next` appends to its buffer and returns false after the last
    /// piece): they go to a new temporary file beside it
    /// (`<path>.tmp.XXXXXX`, created exclusively, so two writers never
    /// share one), which is synced and renamed over `path`, and the
    /// directory is synced. A crash at any moment leaves either the old
    /// file or the new one, whole.
    /// - Parameters:
    ///   - path: The file to replace.
    ///   - mode: The new file's permissions; nil keeps those of the file it
    ///     replaces, and makes a new file `0600` (readable by its owner
    ///     alone).
    ///   - next: Appends the next piece to its buffer; false after the last.
    /// - Returns: The device and inode of the file written (now at `path`).
    /// - Throws: ``Failure`` naming the file and the reason; `path` is then
    ///   unchanged and the temporary file removed.
    @discardableResult
    package static func replace(_ path: String, mode: mode_t? = nil,
                                with next: (inout [UInt8]) -> Bool) throws(Failure) -> (device: UInt64, inode: UInt64) {
        let kept: mode_t
        if let mode { kept = mode } else { kept = try modeToKeep(path) }
        var template = Array((path + ".tmp.XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Failure(description: "Cannot write beside \(path): \(errnoText())") }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var done = false
        defer {
            posixClose(fd)
            if !done { unlink(temporary) }
        }
        guard fchmod(fd, kept) == 0 else { throw Failure(description: "Cannot set the mode of \(temporary): \(errnoText())") }
        var chunk: [UInt8] = []
        var more = true
        while more {
            more = next(&chunk)
            try writeAll(fd, chunk, to: temporary)
            chunk.removeAll(keepingCapacity: true)
        }
        guard fsync(fd) == 0 else { throw Failure(description: "Cannot sync \(temporary): \(errnoText())") }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw Failure(description: "Cannot read the status of \(temporary): \(errnoText())") }
        guard rename(temporary, path) == 0 else { throw Failure(description: "Cannot replace \(path): \(errnoText())") }
        done = true
        syncDirectory(of: path)
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// Replaces `path` with `bytes`, as ``replace(_:mode:with:)`` does.
    /// - Throws: ``Failure``; `path` is then unchanged.
    package static func replace(_ path: String, mode: mode_t? = nil, bytes: [UInt8]) throws(Failure) {
        var handed = false
        try replace(path, mode: mode) { chunk in
            if !handed { chunk.append(contentsOf: bytes) }
            handed = true
            return false
        }
    }

    /// The permissions of the file at `path`, or `0600` when there is none.
    private static func modeToKeep(_ path: String) throws(Failure) -> mode_t {
        var existing = stat()
        if stat(path, &existing) == 0 { return existing.st_mode & 0o7777 }
        guard errno == ENOENT else { throw Failure(description: "Cannot replace \(path): \(errnoText())") }
        return 0o600
    }

    /// Makes `path` and the directories above it that are missing, each
    /// with `mode`.
    /// - Throws: ``Failure`` when one cannot be made.
    package static func makeDirectory(_ path: String, mode: mode_t) throws(Failure) {
        var made = path.hasPrefix("/") ? "" : "."
        for part in path.split(separator: "/") {
            made += "/" + part
            if mkdir(made, mode) != 0 && errno != EEXIST {
                throw Failure(description: "Cannot make the directory \(made): \(errnoText())")
            }
        }
    }

    /// Makes `path` (and the directories above it that are missing) `0700`,
    /// and checks that whoever else uses the machine cannot have put
    /// anything in it: it must be a directory owned by this process's user
    /// that neither its group nor others may write to.
    /// - Throws: ``Failure`` when it cannot be made, or is not such a
    ///   directory (the failure says what to do).
    package static func makePrivateDirectory(_ path: String) throws(Failure) {
        try makeDirectory(path, mode: 0o700)
        try checkPrivateDirectory(path)
    }

    /// Checks `path` as ``makePrivateDirectory(_:)`` does, without making it.
    /// - Throws: ``Failure`` when it is missing or not private.
    package static func checkPrivateDirectory(_ path: String) throws(Failure) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw Failure(description: "Cannot use the directory \(path): \(errnoText())") }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw Failure(description: "Cannot use \(path): it is not a directory")
        }
        guard info.st_uid == geteuid() else {
            throw Failure(description: """
                Refusing the directory \(path): it belongs to user \(info.st_uid), not to this process's user \(geteuid()); \
                another user could have put files in it. Use a directory of your own.
                """)
        }
        guard info.st_mode & 0o022 == 0 else {
            throw Failure(description: """
                Refusing the directory \(path): its group or others may write to it (mode \(String(info.st_mode & 0o777, radix: 8))); \
                another user could put files in it. Make it private (chmod 700).
                """)
        }
    }

    /// Writes all of `bytes` to `fd` (the file at `path`, for the error).
    /// - Throws: ``Failure`` when the system refuses.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], to path: String) throws(Failure) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { posixWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { throw Failure(description: "Cannot write \(path): \(errnoText())") }
            offset += written
        }
    }

    /// Syncs the directory holding `path`, so a rename in it is durable.
    package static func syncDirectory(of path: String) {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        let fd = open(directory.isEmpty ? "/" : directory, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            _ = fsync(fd)
            posixClose(fd)
        }
    }

    /// The system's reason for the last failure.
    package static func errnoText() -> String { String(cString: strerror(errno)) }

    /// Closes `fd`.
    package static func close(_ fd: Int32) { posixClose(fd) }
}

// The POSIX calls, named apart from methods called `close`, `read` and `write`.
#if canImport(Glibc)
private func posixClose(_ fd: Int32) { _ = Glibc.close(fd) }
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Glibc.read(fd, buffer, count) }
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { Glibc.write(fd, buffer, count) }
#else
private func posixClose(_ fd: Int32) { _ = Darwin.close(fd) }
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { Darwin.read(fd, buffer, count) }
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { Darwin.write(fd, buffer, count) }
#endif
