// DigestWarmUpTests.swift — the digests of a data file's large objects,
// computed after the start away from the lock, serve ETags and conditional
// writes that are the same as those of the data computed afresh.

import Foundation
import LiveModel
@testable import LiveServer
import Testing

@Suite("LiveServer digests of the data file after the start")
struct DigestWarmUpTests {
    @Test("a large object's digest is known after the start; its ETags and if-match writes (412 with its value) follow writes below it")
    func warmUp() async throws {
        let file = PersistenceTests.temporaryFile()
        defer { for suffix in ["", ".journal", ".lock"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        let count = SnapshotReader.countedAfter + 100
        let members = (0..<count).map { #""k\#($0)":{"n":\#($0),"t":"item \#($0)"}"# }
        try (#"{"big":{"# + members.joined(separator: ",") + "}}").write(toFile: file, atomically: true, encoding: .utf8)
        try await withServer({ $0.dataFile = file }) { server in
            await withCheckedContinuation { done in
                server.core.digestWarmUp.notify(queue: .global()) { done.resume() }
            }
            let big = server.core.lock.withLock { server.core.store.get("big") }
            guard case .table(_, let state) = big.value else {
                Issue.record("the large object was not kept in a table")
                return
            }
            #expect(state.table.digestMemo.known != nil)
            #expect(state.memo.known != nil)
            // The same data as a body: its tag, computed afresh.
            func expectedTag() -> String {
                let node = server.core.lock.withLock { server.core.store.get("big") }
                return Store.etag(of: (try? DataNode(json: node.json(export: true))) ?? .empty)
            }
            _ = try await request(server.port, "PUT", "/big/k1.json", body: #"{"n": -1}"#)
            _ = try await request(server.port, "DELETE", "/big/k2.json")
            let read = try await request(server.port, "GET", "/big.json", headers: ["X-Firebase-ETag": "true"])
            let tag = try #require(read.headers["etag"])
            #expect(tag == expectedTag())
            let staleTag = (tag.hasPrefix("0") ? "1" : "0") + tag.dropFirst()
            let stale = try await request(server.port, "PUT", "/big.json", headers: ["if-match": staleTag], body: "3")
            #expect(stale.status == 412 && stale.headers["etag"] == tag)
            // With the current value, written as it is sent, away from the lock.
            let current = server.core.lock.withLock { server.core.store.get("big") }.json(export: false)
            let same = stale.json == current  // (not printed: it is large)
            #expect(same)
            let absent = try await request(server.port, "PUT", "/absent.json", headers: ["if-match": tag], body: "1")
            #expect(absent.status == 412 && absent.json == .null && absent.headers["etag"] == Store.nullETag)
            let conditional = try await request(server.port, "PUT", "/big.json", headers: ["if-match": tag],
                                                body: #"{"k0": 0}"#)
            #expect(conditional.status == 200)
            #expect(try await request(server.port, "GET", "/big.json").json == json(#"{"k0": 0}"#))
        }
    }
}
