// VersionTests.swift — `--version` of the built tools, from outside.
import Foundation
import LiveModel
import Testing

@Suite("live-repl --version")
struct VersionTests {
    @Test("prints the package's version and exits 0")
    func version() async throws {
        let run = try await REPLProcess.run(["--version"], input: "")
        #expect(run.status == 0)
        #expect(run.stdout == PackageVersion.current + "\n", "stderr: \(run.stderr)")
    }
}
