// ClientPathBenchmark.swift — the whole client path without a server: a
// stream's recorded `data:` texts parsed and applied to a FirebaseCollection
// (mode all, orderByChild) with 100 sections observed, in this process;
// with `recording`, the same single changes again, in chunks alternated
// between it and a twin collection a FlightRecorder (1 MiB, redacted) keeps.

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
        /// With `recording`: single changes per second in the chunks
        /// recorded, and in those between them; the seconds `record(into:)`
        /// took (on the main actor), and those `jsonLines()` took after the
        /// changes (the state of every child redacted, then the ring); then
        /// those `save(to:)` took, and its longest main-actor stall.
        var recorded: (singles: Double, unrecorded: Double, attach: Double, export: Double, save: Double, saveStall: Double)?
    }

    /// Single changes in each chunk of the recorded run.
    static let chunk = 1_000

    static let patchSize = 100

    /// A collection of `children` loaded from one `put`, and 100 sections over it.
    static func loaded(children: Int) async throws
        -> (FirebaseCollection<DecodingDataSource<BenchChild>>, SectionedCollection<BenchChild, Int>) {
        let reference = try DatabaseReference(url: "http://127.0.0.1:9", path: "/items")
        let collection = try FirebaseCollection(reference: reference, query: DatabaseQuery(order: .child("s")), mode: .all,
                                                dataSource: DecodingDataSource<BenchChild>(), opener: .offline)
        var body = "{"
        for i in 0..<children {
            body += (i == 0 ? "" : ",") + #""k\#(i)":{"s":\#(i),"t":"title \#(i)","m":{"x":\#(i),"y":"why"}}"#
        }
        body += "}"
        try await collection.receive(.put, at: .root, json: body)
        guard collection.collection.count == children else { throw BenchError("loaded \(collection.collection.count)") }
        let sections = SectionedCollection(collection.collection) { (child: BenchChild) in
            child.identifier.string.utf8.reduce(0) { $0 &+ Int($1) } % 100
        }
        return (collection, sections)
    }

    static func run(children: Int, changes: Int, recording: Bool = false) async throws -> Figures {
        let (collection, sections) = try await loaded(children: children)
        defer { collection.stop() }
        var staged = 0
        let token = sections.observeStages { _ in staged += 1 }
        defer { token.cancel() }

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
        var recorded: (singles: Double, unrecorded: Double, attach: Double, export: Double, save: Double, saveStall: Double)?
        if recording {
            // A second collection, recorded from the start, given the same
            // changes: chunks alternate between the two, so that both see
            // the same machine.
            let (twin, twinSections) = try await loaded(children: children)
            defer { twin.stop() }
            let recorder = FlightRecorder()
            let attachSeconds = Timing.seconds { twin.record(into: recorder, sections: twinSections) }
            defer { recorder.stop() }
            // The first collection had these changes: it is given the same
            // keys again, with values it has not had.
            let again = singles.map { text in
                Array(String(decoding: text, as: UTF8.self).replacingOccurrences(of: "\"data\":", with: "\"data\":1").utf8)
            }
            var seconds = (on: 0.0, off: 0.0)
            for part in stride(from: 0, to: singles.count, by: chunk) {
                for on in [true, false] {
                    let target = on ? twin : collection
                    let start = DispatchTime.now().uptimeNanoseconds
                    for text in (on ? singles : again)[part..<min(part + chunk, singles.count)] {
                        await target.receive(.put(try StreamPayload.parse(json: text, kind: .put, order: .child("s"))))
                    }
                    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    if on { seconds.on += elapsed } else { seconds.off += elapsed }
                }
            }
            guard recorder.changeCount > 0 else { throw BenchError("no change recorded") }
            var bytes = 0
            let exportSeconds = Timing.seconds { bytes = recorder.jsonLines().utf8.count }
            guard bytes > recorder.byteCount else { throw BenchError("the recording holds no state") }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-\(UInt64.random(in: 0...UInt64.max)).jsonl")
            defer { try? FileManager.default.removeItem(at: file) }
            let probe = StallProbe()
            probe.start()
            let saveStart = DispatchTime.now().uptimeNanoseconds
            try await recorder.save(to: file)
            let saveSeconds = Double(DispatchTime.now().uptimeNanoseconds - saveStart) / 1e9
            let stall = probe.stop()
            recorded = (Double(singles.count) / seconds.on, Double(singles.count) / seconds.off, attachSeconds, exportSeconds,
                        saveSeconds, stall)
        }
        guard staged >= changes, sections.counts.reduce(0, +) == children else {
            throw BenchError("\(staged) staged changes for \(changes) single changes, \(sections.counts.reduce(0, +)) rows")
        }
        return Figures(singlesPerSecond: Double(changes) / singleSeconds,
                       patchedPerSecond: Double(patches.count * patchSize) / patchSeconds,
                       parsesPerSecond: Double(changes) / parseSeconds,
                       deepPerSecond: Double(changes) / deepSeconds, recorded: recorded)
    }
}
