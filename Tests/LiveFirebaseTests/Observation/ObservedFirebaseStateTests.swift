// ObservedFirebaseStateTests.swift — a Firebase collection's state as
// Observation state: what each change sets, and which reads it invalidates.
@testable import LiveFirebase
import LiveSections
import LiveTestSupport
import Testing

@MainActor
@Suite("ObservedFirebaseState")
struct ObservedFirebaseStateTests {
    typealias Collection = FirebaseCollection<DecodingDataSource<RawChild>>

    static func make(_ gate: WriteGate, mode: LoadMode = .live) throws -> Collection {
        try FirebaseCollection(reference: try DatabaseReference(url: "http://127.0.0.1:9", path: "/items"),
                               query: DatabaseQuery(order: .child("s")), mode: mode,
                               dataSource: DecodingDataSource<RawChild>(), opener: .offline, writer: gate.sender)
    }

    @Test("loading until the first rows, then ready; the status followed")
    func phases() async throws {
        let c = try Self.make(WriteGate())
        defer { c.stop() }
        let state = ObservedFirebaseState(c)
        #expect(state.listPhase == .loading)
        #expect(!state.hasLoaded)
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}}"#)
        #expect(state.hasLoaded)
        #expect(state.listPhase == .ready)
        c.status = .reconnecting(.transport("gone"))
        #expect(state.status == .reconnecting(.transport("gone")))
        #expect(state.lastError == .transport("gone"))
        #expect(state.listPhase == .ready, "rows shown stay shown while reconnecting")
        state.clearError()
        #expect(state.lastError == nil)
        try await c.receive(.put, at: "/b", json: #"{"s": 2}"#)
        #expect(state.lastError == nil, "cleared stays cleared")
        let later = ObservedFirebaseState(c)
        c.status = .failed(.authRevoked)
        #expect(later.lastError == .authRevoked)
        #expect(ObservedFirebaseState(c).lastError == .authRevoked, "a state made while failed starts with its error")
    }

    @Test("a failure before any rows is the list's failure, with the error's words")
    func failedFirst() throws {
        let c = try Self.make(WriteGate())
        defer { c.stop() }
        let state = ObservedFirebaseState(c)
        c.status = .failed(.permissionDenied("Permission denied"))
        #expect(state.listPhase == .failed(DatabaseError.permissionDenied("Permission denied").description))
    }

    @Test("writes not answered are counted; a refused one is the last error")
    func writes() async throws {
        let gate = WriteGate()
        let c = try Self.make(gate)
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}}"#)
        let state = ObservedFirebaseState(c)
        let first = try c.write(.set("/b", ["s": 2]))
        let second = try c.write(.set("/c", ["s": 3]))
        #expect(state.pendingWrites == 2)
        _ = await gate.next()
        gate.answer()
        #expect(await c.outcome(of: first) == .confirmed)
        #expect(state.pendingWrites == 1)
        _ = await gate.next()
        gate.answer(.permissionDenied("no"))
        #expect(await c.outcome(of: second) == .reverted(.permissionDenied("no")))
        #expect(state.pendingWrites == 0)
        #expect(state.lastError == .permissionDenied("no"))
    }

    @Test("a change invalidates only the reads of what it changed")
    func invalidations() async throws {
        let gate = WriteGate()
        let c = try Self.make(gate)
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}}"#)
        let state = ObservedFirebaseState(c)
        let fired = Invalidations()
        func arm() {
            fired.arm("status") { _ = state.status }
            fired.arm("writes") { _ = state.pendingWrites }
            fired.arm("error") { _ = state.lastError }
            fired.arm("loaded") { _ = state.hasLoaded }
        }
        arm()
        let id = try c.write(.set("/b", ["s": 2]))
        #expect(fired.take() == ["writes"])
        // Answered, so that no write waits when the test ends.
        _ = await gate.next()
        gate.answer()
        #expect(await c.outcome(of: id) == .confirmed)
        arm()
        c.status = .offline
        #expect(fired.take() == ["status"])
        arm()
        try await c.receive(.put, at: "/a", json: #"{"s": 5}"#)
        #expect(fired.take() == [], "a change of rows is the sections' business")
    }

    @Test("pages and whether more can come are the collection's; no page is loading at first")
    func paging() async throws {
        let c = try Self.make(WriteGate(), mode: .paged(size: 2))
        defer { c.stop() }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}, "b": {"s": 2}}"#)
        let state = ObservedFirebaseState(c)
        #expect(state.pages == 1)
        #expect(state.hasMorePages == c.hasMorePages)
        #expect(!state.isLoadingPage)
    }
}
