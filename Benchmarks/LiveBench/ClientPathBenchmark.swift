// ClientPathBenchmark.swift — the whole client path without a server: a
// stream's recorded `data:` texts parsed and applied to a FirebaseCollection
// (mode all, orderByChild) with 100 sections observed, in this process;
// with `recording`, a FlightRecorder (1 MiB, redacted) keeps it all.

import Foundation
import LiveCollection
import LiveFirebase
import LiveModel
import LiveSections

@MainActor
enum ClientPathBenchmark {
    struct Figures {
        /// Single changes (a child's sort member set) per second.
        var singlesPerSecond: Double
        /// Children changed per second by patches of 100 children.
        var patchedPerSecond: Double
        /// The same texts parsed alone, per second (the parse is part of both).
        var parsesPerSecond: Double
        /// Single changes three levels down (`/k/m/x`, a member the order
        /// does not read) per second.
        var deepPerSecond: Double
    }

    static let patchSize = 100

    static func run(children: Int, changes: Int, recording: Bool = false) async throws -> Figures {
        let reference = try DatabaseReference(url: "http://127.0.0.1:9", path: "/items")
        let collection = try FirebaseCollection(reference: reference, query: DatabaseQuery(order: .child("s")), mode: .all,
                                                dataSource: DecodingDataSource<BenchChild>(), opener: .offline)
        defer { collection.stop() }
        var body = "{"
        for i in 0..<children {
            body += (i == 0 ? "" : ",") + #""k\#(i)":{"s":\#(i),"t":"title \#(i)","m":{"x":\#(i),"y":"why"}}"#
        }
        body += "}"
        try await collection.receive(.put, at: .root, json: body)
        body = ""
        guard collection.collection.count == children else { throw BenchError("loaded \(collection.collection.count)") }
        let sections = SectionedCollection(collection.collection) { (child: BenchChild) in
            child.identifier.string.utf8.reduce(0) { $0 &+ Int($1) } % 100
        }
        var staged = 0
        let token = sections.observeStages { _ in staged += 1 }
        defer { token.cancel() }
        let recorder = FlightRecorder()
        if recording { collection.record(into: recorder, sections: sections) }
        defer { recorder.stop() }

        // The recorded texts: a stream's `data:` lines.
        var rng = SplitMix64(seed: 20_261_128)
        let singles = (0..<changes).map { i in
            Array(#"{"path":"/k\#(Int.random(in: 0..<children, using: &rng))/s","data":\#(children + i)}"#.utf8)
        }
        let patches = (0..<changes / patchSize).map { p in
            var text = #"{"path":"/","data":{"#
            for j in 0..<patchSize {
                text += (j == 0 ? "" : ",") + #""k\#(Int.random(in: 0..<children, using: &rng))/s":\#(-(p * patchSize + j))"#
            }
            return Array((text + "}}").utf8)
        }

        let parseSeconds = try Timing.seconds {
            for text in singles { _ = try StreamPayload.parse(json: text, kind: .put, order: .child("s")) }
        }
        var start = DispatchTime.now().uptimeNanoseconds
        for text in singles {
            await collection.receive(.put(try StreamPayload.parse(json: text, kind: .put, order: .child("s"))))
        }
        let singleSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        start = DispatchTime.now().uptimeNanoseconds
        for text in patches {
            await collection.receive(.patch(try StreamPayload.parse(json: text, kind: .patch, order: .child("s"))))
        }
        let patchSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let deep = (0..<changes).map { i in
            Array(#"{"path":"/k\#(Int.random(in: 0..<children, using: &rng))/m/x","data":\#(i)}"#.utf8)
        }
        start = DispatchTime.now().uptimeNanoseconds
        for text in deep {
            await collection.receive(.put(try StreamPayload.parse(json: text, kind: .put, order: .child("s"))))
        }
        let deepSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        guard !recording || recorder.changeCount >= changes else { throw BenchError("\(recorder.changeCount) changes recorded") }
        guard staged >= changes, sections.counts.reduce(0, +) == children else {
            throw BenchError("\(staged) staged changes for \(changes) single changes, \(sections.counts.reduce(0, +)) rows")
        }
        return Figures(singlesPerSecond: Double(changes) / singleSeconds,
                       patchedPerSecond: Double(patches.count * patchSize) / patchSeconds,
                       parsesPerSecond: Double(changes) / parseSeconds,
                       deepPerSecond: Double(changes) / deepSeconds)
    }
}
