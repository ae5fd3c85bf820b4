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
        let whole = header + text
        let cutText = header + text.prefix(cut)
        let context = { "cache file \(shown(cutText))" }

        // The model: read when the first line is a header naming the identity, format 1.
        func expected(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
            guard let newline = bytes.firstIndex(of: newline),
                  case .object(let members)? = try? JSONValue(parsingUTF8: bytes[..<newline]),
                  members["identity"] == .string(identity), members["format"] == .number(1) else { return nil }
            return bytes[(newline + 1)...]
        }
        write(cutText, to: file)
        if shared {
            // Others may write to the directory: nothing in it is read.
            chmod(dir + "/cache", 0o770)
            if cache.load(identity) != nil { fail("a cache file was read from a directory others may write to: \(context())") }
            chmod(dir + "/cache", 0o700)
        }
        let loaded = cache.load(identity)
        let model = expected(cutText)
        trace("cache of \(cutText.count) bytes: " + (loaded.map { "read \($0.count) bytes, "
              + ((try? StreamPayload.parse(json: $0, kind: .put, order: .key)) != nil ? "a payload" : "not a payload") } ?? "not read"))
        if loaded.map(Array.init) != model.map(Array.init) {
            fail("the cache read \(loaded.map { shown($0) } ?? "nothing"), not \(model.map { shown($0) } ?? "nothing"): \(context())")
        }
        // A payload cut short never parses as one, however the file was cut.
        guard let cutPayload = loaded, let wholePayload = expected(whole),
              (try? StreamPayload.parse(json: wholePayload, kind: .put, order: .key)) != nil else { return }
        let lost = wholePayload.dropFirst(cutPayload.count)
        let space: Set<UInt8> = [0x20, 0x0A, 0x0D, 0x09]
        if lost.contains(where: { !space.contains($0) }), (try? StreamPayload.parse(json: cutPayload, kind: .put, order: .key)) != nil {
            fail("a cached payload cut short parses: \(shown(cutPayload)) of \(shown(wholePayload))")
        }
    }
}
