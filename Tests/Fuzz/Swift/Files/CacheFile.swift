// CacheFile.swift — checks the reader of a collection's cached children (CollectionCache.load).

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import LiveModel
@testable import LiveFirebase
@testable import LiveServer

func checkCache(_ text: ArraySlice<UInt8>, header: [UInt8], cut: Int, shared: Bool) {
    let identity = #"["","https://db.example.com/rooms",["$key",null,null,null]]"#
    withDirectory { dir in
        let cache = CollectionCache(directory: dir + "/cache")
        do { try cache.makeDirectory() } catch { fail("cannot make the cache directory: \(error)") }
        let file = cache.path(for: identity)
        let cutText = header + text.prefix(cut)
        let context = { "cache file \(shown(cutText))" }

        // The model: the header line exactly, then a put at the root, then
        // patches, every line whole (a torn last one is not
        // a line) at the root, each member one child; the children are the
        // put's with each patch applied, by key, compared by digest.
        func expected(_ bytes: [UInt8]) -> [Key: ValueDigest]? {
            var lines: [ArraySlice<UInt8>] = []
            var start = 0
            while let end = bytes[start...].firstIndex(of: newline) {
                lines.append(bytes[start..<end])
                start = end + 1
            }
            guard lines.count >= 2, Array(lines[0]) + [newline] == CollectionCache.header(identity),
                  let whole = try? StreamPayload.parse(json: lines[1], kind: .put, order: .key),
                  whole.path.isRoot else { return nil }
            var children = digests(whole.data)
            for line in lines.dropFirst(2) {
                guard let change = try? StreamPayload.parse(json: line, kind: .patch, order: .key),
                      change.path.isRoot else { return nil }
                for update in change.updates {
                    guard update.path.keys.count == 1, let key = update.path.keys.first else { return nil }
                    children[key] = update.value.exists ? update.value.digest() : nil
                }
            }
            return children
        }
        write(cutText, to: file)
        if shared {
            // Others may write to the directory: nothing in it is read.
            chmod(dir + "/cache", 0o770)
            if cache.load(identity, order: .key) != nil { fail("a cache file was read from a directory others may write to: \(context())") }
            chmod(dir + "/cache", 0o700)
        }
        let loaded = cache.load(identity, order: .key)
        let model = expected(cutText)
        trace("cache of \(cutText.count) bytes: " + (loaded.map { "read \($0.payload.data.childrenCount) children" } ?? "not read"))
        guard let loaded else {
            if let model { fail("the cache read nothing, not \(model.count) children: \(context())") }
            return
        }
        guard let model else { fail("the cache read \(loaded.payload.data.childrenCount) children, not nothing: \(context())") }
        if digests(loaded.payload.data) != model {
            fail("the cache read other children than its lines say: \(context())")
        }
        if loaded.file.bytes > cutText.count || cutText[loaded.file.bytes - 1] != newline {
            fail("the cache's length \(loaded.file.bytes) does not end a whole line: \(context())")
        }
    }
}

/// The digests of the children of `value` by key (the last of a key given
/// twice), leaving out those that do not exist.
private func digests(_ value: Snapshot) -> [Key: ValueDigest] {
    var out: [Key: ValueDigest] = [:]
    for child in value.children {
        guard let key = child.key else { continue }
        out[key] = child.exists ? child.digest() : nil
    }
    return out
}
