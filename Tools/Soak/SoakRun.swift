// SoakRun.swift — the soak loop: random events in, every batch checked
// against a mirror under UIKit's rules and, periodically, a model.

import Foundation
import LiveCollection
import LiveFirebase
import LiveModel
import LiveSections

/// A child of the soak: sorted by `s`, sectioned by `g`.
struct SoakChild: LiveModelProtocol {
    let identifier: Key
    var dictionary: JSONValue
    init(identifier: Key, dictionary: JSONValue) {
        self.identifier = identifier
        self.dictionary = dictionary
    }
    mutating func update(with dictionary: JSONValue) { self.dictionary = dictionary }
    var group: String { dictionary.objectValue?["g"]?.stringValue ?? "" }
}

struct SoakFailure: Error, CustomStringConvertible {
    let description: String
}

struct SoakReport {
    var events = 0
    var batches = 0
    var stages = 0
    var modelChecks = 0
    var seconds = 0.0
    var steadyMB = 0.0
    var peakMB = 0.0
    var endMB = 0.0
    var growthMB: Double { endMB - steadyMB }

    var summary: String {
        String(format: """
            soak: %d events, %d batches, %d stages checked under UIKit's rules, %d model comparisons, in %.1f s (%.0f events/s)
            memory (resident): steady %.1f MB, peak %.1f MB, end %.1f MB (growth after steady %+.1f MB)
            """, events, batches, stages, modelChecks, seconds, Double(events) / max(seconds, 1e-9), steadyMB, peakMB,
            endMB, growthMB)
    }
}

@MainActor
struct SoakRun {
    let events: Int
    let seed: UInt64
    let keys: Int
    let checkEvery: Int

    func run() async throws -> SoakReport {
        var rng = SplitMix64(seed: seed)
        let reference = try DatabaseReference(url: "http://offline.invalid", path: "/soak")
        let firebase = try FirebaseCollection(reference: reference, query: DatabaseQuery(order: .child("s")),
                                              mode: .all, dataSource: DecodingDataSource<SoakChild>(), opener: .offline)
        let sections = SectionedCollection(firebase.collection) { $0.group }
        var mirror: [[Key]] = []
        var failure: String?
        var report = SoakReport()
        let token = sections.observeSteps { steps in
            report.batches += 1
            for step in steps {
                step.commit()
                report.stages += 1
                do {
                    // As UIKit: the counts the data source reports after the
                    // stage, then the rows it gives for inserted paths.
                    mirror = try BatchUpdateChecker.apply(
                        step.stage, to: mirror, newCounts: sections.counts,
                        inserting: { sections[$0].identifier },
                        insertingSection: { s in (0..<sections.numberOfRows(inSection: s)).map {
                            sections[RowPath(section: s, row: $0)].identifier
                        } })
                } catch {
                    failure = failure ?? "stage \(step.stage) rejected: \(error)"
                }
            }
            if failure == nil, mirror != sections.snapshot().map(\.items) {
                failure = "the mirror differs from the collection after batch \(report.batches)"
            }
        }
        defer { token.cancel() }

        var model = JSONObject()   // the data, as the database would hold it
        try await firebase.receive(.put, at: .root, json: "null")
        let started = ContinuousClock.now
        for i in 1...events {
            let (path, json, apply) = randomEvent(&rng, model: model)
            try await firebase.receive(path.kind, at: path.path, json: json)
            apply(&model)
            if let failure { throw SoakFailure(description: "seed \(seed), event \(i): \(failure)") }
            if i % checkEvery == 0 || i == events {
                try check(firebase.collection, sections, against: model, event: i)
                report.modelChecks += 1
            }
            if i % 100_000 == 0 || i == events {
                let mb = Double(residentBytes() ?? 0) / 1_048_576
                report.peakMB = max(report.peakMB, mb)
                if i <= events / 5 || report.steadyMB == 0 { report.steadyMB = mb }
                report.endMB = mb
            }
        }
        report.events = events
        report.seconds = (ContinuousClock.now - started).inSeconds
        return report
    }

    /// One random event, its JSON text, and how it changes the model.
    private func randomEvent(_ rng: inout SplitMix64, model: JSONObject)
        -> ((kind: StreamPayload.Kind, path: DatabasePath), String, (inout JSONObject) -> Void) {
        func key(_ rng: inout SplitMix64) -> String { "k\(Int.random(in: 0..<keys, using: &rng))" }
        func child(_ rng: inout SplitMix64) -> JSONValue {
            .object(["s": .number(Double(Int.random(in: 0..<50, using: &rng))), "g": .string("g\(Int.random(in: 0..<10, using: &rng))")])
        }
        let roll = Int.random(in: 0..<1000, using: &rng)
        switch roll {
        case 0:
            // Now and then a whole new value: a resync.
            var fresh = JSONObject()
            for _ in 0..<(keys / 2) { fresh[key(&rng)] = child(&rng) }
            let value = JSONValue.object(fresh)
            return ((.put, .root), value.jsonText(), { $0 = fresh })
        case 1..<500:
            let k = key(&rng), value = child(&rng)
            return ((.put, try! DatabasePath("/" + k)), value.jsonText(), { $0[k] = value })
        case 500..<750:
            let k = key(&rng)
            return ((.put, try! DatabasePath("/" + k)), "null", { $0.removeValue(forKey: k) })
        case 750..<850:
            let k = key(&rng), s = Double(Int.random(in: 0..<50, using: &rng))
            return ((.put, try! DatabasePath("/\(k)/s")), JSONValue.number(s).jsonText(), { model in
                if case .object(var o)? = model[k] { o["s"] = .number(s); model[k] = .object(o) } else { model[k] = .object(["s": .number(s)]) }
            })
        default:
            var members = JSONObject()
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                members[key(&rng)] = Bool.random(using: &rng) ? .null : child(&rng)
            }
            return ((.patch, .root), JSONValue.object(members).jsonText(), { model in
                for (k, v) in members { if case .null = v { model.removeValue(forKey: k) } else { model[k] = v } }
            })
        }
    }

    /// The collection against a brute-force model: sections ascending by
    /// `g`, rows by `s` then key.
    private func check(_ collection: SortedCollection<SoakChild>, _ sections: SectionedCollection<SoakChild, String>,
                       against model: JSONObject, event: Int) throws {
        var groups: [String: [(Double, Key)]] = [:]
        for (k, v) in model {
            let o = v.objectValue ?? [:]
            groups[o["g"]?.stringValue ?? "", default: []].append((o["s"]?.numberValue ?? -1, try Key(k)))
        }
        let expected = groups.keys.sorted().map { g in
            groups[g]!.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.1)
        }
        guard sections.snapshot().map(\.items) == expected else {
            throw SoakFailure(description: "seed \(seed), event \(event): the collection differs from the model")
        }
        guard collection.count == model.count else {
            throw SoakFailure(description: "seed \(seed), event \(event): \(collection.count) children, model \(model.count)")
        }
    }

    private func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
