// FirebaseCollectionObserverTests.swift — a Firebase collection's observers:
// told in the order they were added, ended by cancelling or releasing.
@testable import LiveFirebase
import Testing

@MainActor
@Suite("FirebaseCollection observers")
struct FirebaseCollectionObserverTests {
    func make() throws -> FirebaseCollection<DecodingDataSource<RawChild>> {
        let reference = try DatabaseReference(url: "http://127.0.0.1:9", path: "/items")
        return try FirebaseCollection(reference: reference, query: DatabaseQuery(order: .child("s")), mode: .live,
                                      dataSource: DecodingDataSource<RawChild>(), opener: .offline)
    }

    @Test("child event and value observers are told in the order they were added, 50 times over")
    func order() async throws {
        for round in 0..<50 {
            let c = try make()
            var told: [String] = []
            var tokens: [ObservationToken] = []
            for i in 0..<8 {
                tokens.append(c.observeChildEvents { _ in told.append("child\(i)") })
                tokens.append(c.observeValue { told.append("value\(i)") })
            }
            tokens[6].cancel() // child3
            try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}}"#)
            let children = (0..<8).filter { $0 != 3 }.map { "child\($0)" }
            #expect(told == children + (0..<8).map { "value\($0)" }, "round \(round): \(told)")
            withExtendedLifetime(tokens) {}
        }
    }

    @Test("releasing an observation's token ends it")
    func releaseEnds() async throws {
        let c = try make()
        var events = 0
        var token: ObservationToken? = c.observeChildEvents { _ in events += 1 }
        try await c.receive(.put, at: .root, json: #"{"a": {"s": 1}}"#)
        #expect(events == 1 && token != nil)
        token = nil
        try await c.receive(.patch, at: .root, json: #"{"b": {"s": 2}}"#)
        #expect(events == 1)
    }
}
