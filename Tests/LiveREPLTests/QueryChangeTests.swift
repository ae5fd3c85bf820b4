// QueryChangeTests.swift — `query` in another order changes the live
// collection: `show` prints each row's sort value under the new order.
import Testing

@Suite("query in another order")
struct QueryChangeTests {
    @Test("live-repl: after a new order, show prints the rows in it, each with its sort value under it")
    func sortValuesAfterNewOrder() async throws {
        let input = """
            put / {"a": {"x": 1, "y": 30}, "b": {"x": 2, "y": 10}, "c": {"x": 3, "y": 20}}
            query --order-by x
            query --order-by y
            show
            """
        let run = try await REPLProcess.run(["--offline"], input: input + "\n")
        #expect(run.status == 0, "\(run.stderr)")
        let rows = run.lines.filter { $0.hasPrefix("     ") }.map { $0.split(separator: " ").prefix(3).map(String.init) }
        #expect(rows == [["0", "b", "10"], ["1", "c", "20"], ["2", "a", "30"]], "\(run.lines)")
    }
}
