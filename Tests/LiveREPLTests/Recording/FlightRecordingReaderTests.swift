// FlightRecordingReaderTests.swift — the recording reader and the replay
// given damaged, torn and foreign files: a clear error or a verdict, never
// a trap or a hang.

import Foundation
import LiveFirebase
import LiveModel
import LiveTestSupport
import Testing
@testable import LiveREPL

@Suite("Flight recordings read back")
@MainActor
struct FlightRecordingReaderTests {
    /// A valid recording of a short seeded session.
    static func sample(seed: TestSeed) async throws -> [String] {
        let run = try RecordedSession(seed: seed, sections: true)
        try await run.run(steps: 40, recordAfterLoad: true)
        return run.recorder.jsonLines().split(separator: "\n").map(String.init)
    }

    static func read(_ text: String) -> Result<FlightRecording, FlightRecordingError> {
        Result { () throws(FlightRecordingError) in try FlightRecording(jsonLines: text) }
    }

    @Test("a torn last line, a foreign file, a newer version and an empty file are refused, saying why")
    func refusals() async throws {
        let lines = try await Self.sample(seed: TestSeed(5, test: "refusals"))
        let whole = lines.joined(separator: "\n")
        let torn = String(whole.dropLast(7))
        guard case .failure(let tornError) = Self.read(torn) else { Issue.record("a torn line was read"); return }
        #expect(tornError.line == lines.count && tornError.reason.contains("torn"), "\(tornError)")
        guard case .failure(let foreign) = Self.read(#"{"format":1,"identity":"x"}"# + "\n") else { Issue.record("read"); return }
        #expect(foreign.description.contains("not a LiveCollection recording"), "\(foreign)")
        let newer = whole.replacingOccurrences(of: #""version":1"#, with: #""version":2"#)
        guard case .failure(let version) = Self.read(newer) else { Issue.record("read"); return }
        #expect(version.description == "line 1: format version 2; this library reads version 1", "\(version)")
        guard case .failure(let empty) = Self.read("") else { Issue.record("read"); return }
        #expect(empty.line == 0)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID()).jsonl")
        #expect(throws: FlightRecordingError.self) { try FlightRecording(contentsOf: file) }
    }

    @Test("damaged recordings are refused or replayed to a verdict: never a trap or a hang")
    func damaged() async throws {
        for seed in TestSeed.all("FlightRecordingReaderTests/damaged", defaults: [1, 2, 3], fresh: true) {
            let lines = try await Self.sample(seed: seed)
            var random = seed.generator
            var read = 0, refused = 0
            for round in 0..<60 {
                var damaged = lines
                switch Int.random(in: 0..<6, using: &random) {
                case 0: damaged.remove(at: Int.random(in: 0..<damaged.count, using: &random))
                case 1: damaged.insert(damaged[Int.random(in: 0..<damaged.count, using: &random)], at: Int.random(in: 0...damaged.count, using: &random))
                case 2: damaged.swapAt(Int.random(in: 0..<damaged.count, using: &random), Int.random(in: 0..<damaged.count, using: &random))
                case 3:
                    let i = Int.random(in: 0..<damaged.count, using: &random)
                    var bytes = Array(damaged[i].utf8)
                    bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                    damaged[i] = String(decoding: bytes, as: UTF8.self)
                case 4:
                    let i = Int.random(in: 0..<damaged.count, using: &random)
                    damaged[i] = String(damaged[i].prefix(Int.random(in: 0..<damaged[i].count, using: &random)))
                default:
                    let i = Int.random(in: 0..<damaged.count, using: &random)
                    let numbers = ["-1", "1e300", "123456789012345678", "0.5", "null", "[]", "{}"]
                    damaged[i] = damaged[i].replacingOccurrences(of: ":1", with: ":" + numbers[Int.random(in: 0..<numbers.count, using: &random)])
                }
                switch Self.read(damaged.joined(separator: "\n")) {
                case .failure(let error):
                    refused += 1
                    #expect(error.line >= 0 && error.line <= damaged.count, "\(seed), round \(round): \(error)")
                case .success(let recording):
                    read += 1
                    // A verdict or a clear error, whatever it holds.
                    let replay = FlightReplay(recording)
                    do { _ = try await replay.run() } catch {
                        #expect(!error.description.isEmpty, "\(seed), round \(round)")
                    }
                    await replay.finish()
                }
            }
            #expect(read > 0 && refused > 0, "\(seed): \(read) read, \(refused) refused")
        }
    }
}
