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

/// docs/RECORDING.md's example (it runs in Tools/check-readme).
@MainActor
private func recordingExample() async throws {

    struct Player: LiveModelProtocol, Codable {
        var identifier: Key
        var name: String
        var team: String
        var score: Int
    }

    // An offline collection fed by hand here; in an app, your database's.
    let players = try FirebaseCollection(of: Player.self,
                                         reference: try DatabaseReference(url: "https://example.firebaseio.com", path: "/players"),
                                         query: DatabaseQuery(order: .child("score")), opener: .offline)
    let teams = SectionedCollection(players.collection) { $0.team }

    // Keys, scores and teams; names only as tags. In an app, also set
    // `recorder.exportOnRejection` to a file: written if the list would refuse a batch.
    let recorder = FlightRecorder(limit: 1 << 20)
    players.record(into: recorder, sectionBy: "team", sections: teams)

    // The list view (a UITableView's connector in an app), its batches checked and noted.
    let list = RecordedListTarget(CheckingListTarget { teams.counts }, counts: { teams.counts }, recorder: recorder)
    let connector = ListConnector(target: list)
    connector.isReady = true
    let steps = teams.observeSteps { connector.apply($0) }

    try await players.receive(.put, at: .root, json: #"{"ada": {"name": "Ada", "team": "red", "score": 42}}"#)
    try await players.receive(.patch, at: .root, json: #"{"alan": {"name": "Alan", "team": "red", "score": 12}, "ada/score": 50}"#)

    let text = recorder.jsonLines()   // or save(to:) a file, when the app sends a report
    let recording = try FlightRecording(jsonLines: text)
    print("\(recording.changes.count) changes, \(recorder.byteCount) bytes")
    steps.cancel()
}

@Suite("README example (LiveFirebase)")
struct LiveFirebaseReadmeTests {
    @Test("the example compiles with one import")
    func compiles() {
        let example: @MainActor () async throws -> Void = readmeExample
        _ = example
        let recording: @MainActor () async throws -> Void = recordingExample
        _ = recording
    }
}
