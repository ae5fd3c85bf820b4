// SectionedFillTests.swift — sections of a first fill built beside the fill,
// away from the main actor, equal the sections built on the main actor, and
// the main actor only takes them.
import Foundation
import LiveCollection
import LiveModel
import LiveSections
import LiveTestSupport
import Synchronization
import Testing

/// Counts the calls of a section closure, from any executor.
final class CallCount: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// Prepares `document`'s children on the global concurrent executor, as a
/// first load does, and does `works` there.
@concurrent
private func prepareAway(_ document: Snapshot, order: QueryOrder, bulk: Bool, works: [FillWork<Tile>]) async
    -> sending PreparedFill<Tile> {
    let prepare: (Snapshot) throws -> Preparation<Tile> = { .model(try Tile(snapshot: $0)) }
    let children = Array(document.children)
    let fill = bulk
        ? PreparedFill(everyChildOf: document, count: children.count, order: order, prepare: prepare)!
        : PreparedFill(children, order: order, prepare: prepare)
    fill.perform(works)
    return fill
}

@MainActor
@Suite("SectionedCollection filled from a prepared fill")
struct SectionedFillTests {
    /// A document of random tiles: scores with ties, some groups larger.
    func document(_ r: inout Rng) throws -> Snapshot {
        let members = (0..<(1 + r.below(400))).map { i in
            #""t\#(i)": {"score": \#(r.below(50)), "group": \#(r.below(1 + r.below(12)))}"#
        }
        return try Snapshot.parse(json: "{" + members.joined(separator: ",") + "}", order: .child("score"))
    }

    @Test("after a new section rule, a fill's sections are built beside it by the new rule")
    func newRuleBeside() async throws {
        var r = Rng(seed: testSeed("newRuleBeside", default: 20_261_127))
        let document = try self.document(&r)
        let collection = SortedCollection<Tile>(order: .child("score"))
        let calls = CallCount()
        let sectioned = SectionedCollection(collection) { $0.group }
        sectioned.setSections { (tile: Tile) in
            calls.add()
            return tile.group % 3
        }
        let fill = await prepareAway(document, order: .child("score"), bulk: true, works: collection.fillWorks)
        let beside = calls.value
        #expect(beside == fill.count)
        #expect(collection.fill(fill))
        #expect(calls.value == beside, "the main actor sectioned again")
        #expect(sectioned.snapshot() == SectionedCollection(collection) { $0.group % 3 }.snapshot())
    }

    @Test("sections built beside the fill equal sections built on the main actor, which calls no section closure",
          arguments: [false, true])
    func builtBeside(descending: Bool) async throws {
        let seed = testSeed("builtBeside(descending: \(descending))", default: 20_261_125 &+ (descending ? 1 : 0))
        var r = Rng(seed: seed)
        for round in 0..<20 {
            let document = try self.document(&r)
            let collection = SortedCollection<Tile>(order: .child("score"))
            let calls = CallCount()
            let sectioned = SectionedCollection(collection, descending: descending) { (tile: Tile) in
                calls.add()
                return tile.group
            }
            var stages: [[BatchStage]] = []
            let token = sectioned.observeStages { stages.append($0) }
            defer { token.cancel() }
            let fill = await prepareAway(document, order: .child("score"), bulk: round % 2 == 0,
                                         works: collection.fillWorks)
            let beside = calls.value
            #expect(beside == fill.count, "seed \(seed), round \(round)")
            #expect(collection.fill(fill), "seed \(seed), round \(round)")
            #expect(calls.value == beside, "the main actor sectioned again; seed \(seed), round \(round)")

            // The same collection sectioned on the main actor, by the same rule.
            let reference = SectionedCollection(collection, descending: descending) { $0.group }
            #expect(sectioned.snapshot() == reference.snapshot(), "seed \(seed), round \(round)")
            #expect((0..<sectioned.numberOfSections).map { sectioned.title(ofSection: $0) }
                == (0..<reference.numberOfSections).map { reference.title(ofSection: $0) })
            for key in collection.models.map(\.identifier) {
                #expect(sectioned.path(of: key) == reference.path(of: key), "\(key); seed \(seed), round \(round)")
            }
            #expect(stages == [[BatchStage(insertedSections: Array(0..<reference.numberOfSections))]],
                    "seed \(seed), round \(round)")

            // Later changes apply to the adopted sections as to any others.
            for i in 0..<30 {
                let key = try Key("t\(r.below(450))")
                let tile = Tile(identifier: key, score: Double(r.below(50)), group: r.below(12))
                if r.below(3) == 0 { collection.remove(key) } else { try collection.add(tile) }
                #expect(sectioned.snapshot() == reference.snapshot(), "seed \(seed), round \(round), change \(i)")
            }
        }
    }

    @Test("without a result for it (no works done, or the observer came later), the collection is sectioned on the main actor")
    func fallsBack() async throws {
        let seed = testSeed("fallsBack", default: 20_261_125)
        var r = Rng(seed: seed)
        let document = try self.document(&r)

        let collection = SortedCollection<Tile>(order: .child("score"))
        let early = SectionedCollection(collection) { $0.group }
        let works = collection.fillWorks
        #expect(works.count == 1)
        let late = SectionedCollection(collection) { $0.group }
        #expect(collection.fillWorks.count == 2, "works are listed in the order the observers came")
        let fill = await prepareAway(document, order: .child("score"), bulk: true, works: works)
        #expect(collection.fill(fill))
        let reference = SectionedCollection(collection) { $0.group }
        #expect(early.snapshot() == reference.snapshot(), "seed \(seed)")
        #expect(late.snapshot() == reference.snapshot(), "seed \(seed)")

        let plain = SortedCollection<Tile>(order: .child("score"))
        let sectioned = SectionedCollection(plain) { $0.group }
        #expect(plain.fill(await prepareAway(document, order: .child("score"), bulk: false, works: [])))
        #expect(sectioned.snapshot() == reference.snapshot(), "seed \(seed)")
    }

    @Test("the work of a sectioned collection released before the fill is done and then ignored")
    func releasedObserver() async throws {
        var r = Rng(seed: testSeed("releasedObserver", default: 20_261_125))
        let document = try self.document(&r)
        let collection = SortedCollection<Tile>(order: .child("score"))
        var gone: SectionedCollection<Tile, Int>? = SectionedCollection(collection) { $0.group }
        let works = collection.fillWorks
        gone = nil
        #expect(gone == nil && collection.fillWorks.isEmpty)
        #expect(collection.fill(await prepareAway(document, order: .child("score"), bulk: true, works: works)))
        #expect(collection.count == Set(document.children.compactMap(\.key)).count)
    }
}
