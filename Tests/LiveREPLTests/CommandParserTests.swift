import LiveModel
@testable import LiveREPL
import Testing

@Suite("REPL command parser")
struct CommandParserTests {
    @Test func parsesInjection() throws {
        #expect(try CommandParser.parse(#"put /k1 {"s": 1}"#) == .put("/k1", ["s": 1], json: #"{"s": 1}"#))
    }
}
