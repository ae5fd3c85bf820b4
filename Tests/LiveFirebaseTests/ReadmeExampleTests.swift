// ReadmeExampleTests.swift — the README's LiveFirebase example, compiled
// with the README's one import, so the README stays true. (It names a
// hosted database, so it is compiled, not run; the collection's behaviour
// is tested against `live-server` elsewhere.)
import LiveFirebase
import Testing

/// The app's token source in the README's example.
private func idToken(_ forceRefresh: Bool) async throws -> String { "token" }

@MainActor
private func readmeExample() async throws {
    // README begin
    struct Message: LiveModelProtocol, Codable { var identifier: Key; var text: String; var sentAt: Double }

    let reference = try DatabaseReference(url: "https://my-app-default-rtdb.firebaseio.com", path: "/rooms/lobby",
                                          credentials: .provider { refresh in .idToken(try await idToken(refresh)) })
    let messages = try FirebaseCollection(reference: reference,
                                          query: DatabaseQuery(order: .child("sentAt")).limited(toLast: 100),
                                          mode: .all, dataSource: DecodingDataSource<Message>())
    try await messages.start()       // returns once the first load is in, as one batch
    print(messages.collection.count)   // observe `messages.collection` (or a SectionedCollection on it)
    messages.stop()                  // keeps the data; start() again resyncs with the smallest change
    // README end
}

@Suite("README example (LiveFirebase)")
struct LiveFirebaseReadmeTests {
    @Test("the example compiles with one import")
    func compiles() {
        let example: @MainActor () async throws -> Void = readmeExample
        _ = example
    }
}
