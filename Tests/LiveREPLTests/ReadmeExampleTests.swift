import LiveREPL
import Testing

/// The README's LiveREPL example, as written there.
@MainActor
@Suite("README: LiveREPL")
struct ReadmeExampleTests {
    @Test func driveASessionFromSwift() async throws {
        let session = try Session(source: .offline, path: "/items", options: try QueryOptions.parse(["--order-by", "score"]))
        try await session.start()
        let output = try await session.run(try CommandParser.parse(#"put /a {"score": 1}"#))
        print(JSONOutput.line(for: output)!)   // {"events":[{"key":"a","prevKey":null,"type":"child_added"}],"stages":[...]}
        let line = try #require(JSONOutput.line(for: output))
        #expect(line.hasPrefix(#"{"events":[{"key":"a","prevKey":null,"type":"child_added"}],"stages":["#))
    }
}
