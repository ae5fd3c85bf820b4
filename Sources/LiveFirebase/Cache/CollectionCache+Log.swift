// CollectionCache+Log.swift — a collection's file as a log: its children
// written whole, then the children changed since appended, read back as
// one `put`.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LiveModel

/// A cache file as the collection that wrote or read it last knows it:
/// what it holds, how long it is, and how much of it is the children
/// written whole. An append checks that the file is still this one.
struct CacheFile: Sendable, Equatable {
    let identity: String
    /// Its length.
    var bytes: Int
    /// The length of its header and whole children: the rest is changes.
    let wholeBytes: Int
    /// Which file it is (device and inode): another writer's file is never
    /// appended to.
    let device: UInt64
    let inode: UInt64

    /// Bytes of changes appended after the children written whole.
    var changeBytes: Int { bytes - wholeBytes }
}

/// What a save did.
enum CacheSave: Sendable, Equatable {
    /// The file holds what was saved.
    case saved(CacheFile)
    /// The children take more than the cache's limit: the file was deleted.
    case tooLarge
    /// Changes were not appended (the file changed under the writer, or
    /// they would make it too long): the children are to be written whole.
    case needsWhole
}

extension CollectionCache {
    static let format = 2

    /// The header line of `identity`'s file.
    static func header(_ identity: String) -> [UInt8] {
        JSONValue.object(["format": .number(Double(format)), "identity": .string(identity)]).jsonBytes(sortedKeys: true)
            + [UInt8(ascii: "\n")]
    }

    /// The line of one save: a `patch` at `/` whose members are the
    /// children changed and their values now (`null` for one that left),
    /// so that a save is read whole or not at all.
    static func changeLine(_ changes: [(key: Key, value: Snapshot)]) -> [UInt8] {
        var line = Array(#"{"path":"/","data":{"#.utf8)
        for (key, value) in changes {
            if line.last != UInt8(ascii: "{") { line.append(UInt8(ascii: ",")) }
            line += JSONValue.string(key.string).jsonBytes()
            line.append(UInt8(ascii: ":"))
            if !value.appendText(to: &line) { line += "null".utf8 }
        }
        line += "}}\n".utf8
        return line
    }

    /// The saved children of `identity` as a `put` at `/` parsed with
    /// `order`, and the file as read; nil when none are saved (or the file
    /// is not this identity's, or its children are not whole). The changes
    /// appended are applied to the children; a torn last line is ignored.
    /// Touches the file, for the eviction order.
    /// - Complexity: O(size of the file).
    func load(_ identity: String, order: QueryOrder) -> (payload: StreamPayload, file: CacheFile)? {
        let path = path(for: identity)
        // The file's identity before and after the read: one replaced
        // meanwhile is not taken for the one read.
        guard (try? DurableFile.checkPrivateDirectory(directory)) != nil,
              let before = Self.status(of: path),
              let bytes = try? DurableFile.read(path, followingLinks: false),
              let info = Self.status(of: path), info == before, info.size == bytes.count else { return nil }
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            lines.append(bytes[start..<newline])
            start = newline + 1
        }
        // The header, then the children whole; a torn last line (no
        // newline) is not among the lines.
        guard lines.count >= 2, Array(lines[0]) + [UInt8(ascii: "\n")] == Self.header(identity),
              let whole = try? StreamPayload.parse(json: lines[1], kind: .put, order: order),
              whole.path.isRoot else { return nil }
        let wholeBytes = lines[1].endIndex + 1
        let file = CacheFile(identity: identity, bytes: start, wholeBytes: wholeBytes,
                             device: info.device, inode: info.inode)
        _ = utime(path, nil)
        guard lines.count > 2 else { return (whole, file) }
        // The changes, the last of each child holding.
        var changed: [Key: Snapshot] = [:]
        var keys: [Key] = []
        for line in lines[2...] {
            guard let change = try? StreamPayload.parse(json: line, kind: .patch, order: order),
                  change.path.isRoot else { return nil }
            for update in change.updates {
                guard update.path.keys.count == 1, let key = update.path.keys.first else { return nil }
                if changed.updateValue(update.value, forKey: key) == nil { keys.append(key) }
            }
        }
        var merged = Array(#"{"path":"/","data":{"#.utf8)
        func member(_ key: Key, _ value: Snapshot) {
            if merged.last != UInt8(ascii: "{") { merged.append(UInt8(ascii: ",")) }
            merged += JSONValue.string(key.string).jsonBytes()
            merged.append(UInt8(ascii: ":"))
            _ = value.appendText(to: &merged)
        }
        // Of a key given twice, the last holds.
        let base = Array(whole.data.children)
        var last: [Key: Int] = [:]
        for (i, child) in base.enumerated() { if let key = child.key { last[key] = i } }
        for (i, child) in base.enumerated() {
            guard let key = child.key, last[key] == i, child.exists, changed[key] == nil else { continue }
            member(key, child)
        }
        for key in keys {
            guard let value = changed[key], value.exists else { continue }
            member(key, value)
        }
        merged += "}}".utf8
        guard let payload = try? StreamPayload.parse(json: merged, kind: .put, order: order) else { return nil }
        return (payload, file)
    }

    /// Writes `children` (a query's window, in any order) as `identity`'s
    /// file, when they take no more than ``limitBytes`` (otherwise its file
    /// is deleted and nothing is written), then evicts what is over the limit.
    /// - Throws: ``DatabaseError/cache(_:)`` when the directory or the file
    ///   cannot be written; what was saved before stays.
    /// - Complexity: O(size of the children's text), written a chunk at a time.
    func save(_ children: [Snapshot], for identity: String) throws(DatabaseError) -> CacheSave {
        let path = path(for: identity)
        let header = Self.header(identity)
        // Known before anything is written: the header, the put around
        // the children, and each child's key and text.
        var size = header.count + 24
        for child in children { size += (child.key?.string.utf8.count ?? 0) + child.textCount + 4 }
        guard size <= limitBytes else {
            unlink(path)
            return .tooLarge
        }
        var next = 0, first = true, written = 0
        let fileID: (device: UInt64, inode: UInt64)
        let chunkBytes = 1 << 20
        do {
            try DurableFile.makePrivateDirectory(directory)
            fileID = try DurableFile.replace(path, mode: 0o600) { chunk in
                defer { written += chunk.count }
                if first {
                    first = false
                    chunk += header
                    chunk += #"{"path":"/","data":{"#.utf8
                }
                while next < children.count, chunk.count < chunkBytes {
                    let child = children[next]
                    next += 1
                    guard let key = child.key else { continue }
                    if chunk.last != UInt8(ascii: "{") { chunk.append(UInt8(ascii: ",")) }
                    chunk += JSONValue.string(key.string).jsonBytes()
                    chunk.append(UInt8(ascii: ":"))
                    if !child.appendText(to: &chunk) { chunk += "null".utf8 }
                }
                if next < children.count { return true }
                chunk += "}}\n".utf8
                return false
            }
        } catch {
            throw .cache(error.description)
        }
        evict(keeping: path)
        return .saved(CacheFile(identity: identity, bytes: written, wholeBytes: written,
                                device: fileID.device, inode: fileID.inode))
    }

    /// Appends `changes` (children and their values now; absent for one
    /// that left) to `file` as one line, synced, then evicts what is over
    /// the limit. ``CacheSave/needsWhole`` when the file is not `file` any more
    /// (another writer replaced, changed or deleted it), or the changes
    /// would make it longer than ``limitBytes`` or than twice its
    /// children written whole.
    /// - Throws: ``DatabaseError/cache(_:)`` when the file cannot be
    ///   written; it is cut back to what it held.
    /// - Complexity: O(size of the changes).
    func append(_ changes: [(key: Key, value: Snapshot)], to file: CacheFile) throws(DatabaseError) -> CacheSave {
        guard !changes.isEmpty else { return .saved(file) }
        let record = Self.changeLine(changes)
        guard file.bytes + record.count <= limitBytes, file.changeBytes + record.count <= file.wholeBytes else {
            return .needsWhole
        }
        let path = path(for: file.identity)
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return .needsWhole }
        defer { DurableFile.close(fd) }
        // One writer at a time, and only to the file as this one left it.
        guard flock(fd, LOCK_EX) == 0 else { return .needsWhole }
        var info = stat()
        guard fstat(fd, &info) == 0, UInt64(info.st_dev) == file.device, UInt64(info.st_ino) == file.inode,
              Int(info.st_size) == file.bytes else { return .needsWhole }
        do {
            try DurableFile.appendSynced(fd, record, to: path, length: file.bytes)
        } catch {
            throw .cache(error.description)
        }
        // Deleted meanwhile (evicted by another collection's save): what was
        // appended went with it.
        guard let now = Self.status(of: path), now.device == file.device, now.inode == file.inode else {
            return .needsWhole
        }
        var saved = file
        saved.bytes += record.count
        evict(keeping: path)
        return .saved(saved)
    }

    /// The device, inode and size of the file at `path`, not following a link.
    static func status(of path: String) -> (device: UInt64, inode: UInt64, size: Int)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (UInt64(info.st_dev), UInt64(info.st_ino), Int(info.st_size))
    }
}
