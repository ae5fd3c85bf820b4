// QueryViewTextEditTests.swift — a changed child made from the received
// texts (`asChild`, `replacing(at:with:key:order:)`) against the same child built from
// values, as the query view did before, over hostile random JSON text.

@testable import LiveFirebase
import LiveModel
import Testing

@Suite("QueryView: children edited as text, against children built from values")
struct QueryViewTextEditTests {
    static let orders: [QueryOrder] = [.priority, .key, .value, .child(DatabasePath(uncheckedKeys: ["a"])),
                                       .child(DatabasePath(uncheckedKeys: ["a", "b"]))]

    /// Member names as received: plain, numeric-looking, escaped, and two
    /// spellings of "café" that are different keys.
    static let names = [#""a""#, #""b""#, #""0""#, #""1""#, #""007""#, #""-1""#, #""x y""#, #""q\"u""#,
                        #""b\\s""#, #""caf\u00e9""#, #""café""#, #""cafe\u0301""#, #""😀""#]

    /// Random JSON text of at most `depth` levels, with whitespace, number
    /// spellings, nulls, arrays, empty containers and priorities.
    static func text(_ r: inout SplitMix64, depth: Int) -> String {
        func space() -> String { [" ", "", "", "\n ", "\t"][Int(r.next() % 5)] }
        let pick = Int(r.next() % (depth > 0 ? 16 : 9))
        switch pick {
        case 0: return "null"
        case 1: return ["1", "1.0", "-0", "1e3", "12345678901234567", "-2.5", "0"][Int(r.next() % 7)]
        case 2: return [#""s""#, #""\u0041\n""#, #""""#, #""😀""#][Int(r.next() % 4)]
        case 3: return r.next() % 2 == 0 ? "true" : "false"
        case 4: return "{}"
        case 5: return "[]"
        case 6: return String(r.next() % 100)
        case 7: return #"{".value":3,".priority":1}"#
        case 8: return #""t""#
        case 9, 10, 11, 12:
            let n = 1 + Int(r.next() % 4)
            var members: [String] = []
            for _ in 0..<n {
                members.append(space() + names[Int(r.next() % UInt64(names.count))] + space() + ":" + space()
                               + text(&r, depth: depth - 1))
            }
            if r.next() % 4 == 0 { members.append(#"".priority":"# + ["2", #""p""#][Int(r.next() % 2)]) }
            return "{" + members.joined(separator: ",") + space() + "}"
        default:
            let n = 1 + Int(r.next() % 3)
            return "[" + (0..<n).map { _ in text(&r, depth: depth - 1) }.joined(separator: ",") + "]"
        }
    }

    /// The same child, but for the priorities below it: building from
    /// values drops them (a value holds none), the texts keep them.
    static func same(_ a: Snapshot, _ b: Snapshot) -> Bool {
        a.exists == b.exists && a.key == b.key && a.value == b.value && a.priority == b.priority
            && SortValue.compare(a.sortValue, b.sortValue) == 0
            && a.digest(priorities: false) == b.digest(priorities: false)
    }

    /// Whether every member of `edited` but `member` has the priorities
    /// (at every depth) it has in `current`, and `member` those of `replacement`.
    static func keepsPriorities(_ edited: Snapshot, _ current: Snapshot, _ member: Key, _ replacement: Snapshot) -> Bool {
        edited.children.allSatisfy { child in
            let source = child.key == member ? replacement : current.child(child.key!)
            return child.digest(priorities: true) == source.digest(priorities: true)
        }
    }

    @Test("a value at a path of one to three members replaced or removed, and a whole child re-keyed: the same snapshots as from values")
    func differential() throws {
        let seed = testSeed()
        var r = SplitMix64(seed: seed)
        var edited = 0, fellBack = 0
        for round in 0..<3_000 {
            let order = Self.orders[round % Self.orders.count]
            let key: Key = ["k", "007", "caf\u{E9}"][round % 3]
            let currentText = Self.text(&r, depth: 3)
            guard let current = try? Snapshot.parse(json: #"{"k":"# + currentText + "}", order: order).children.first
            else { continue }
            let replacementText = Self.text(&r, depth: 2)
            let replacement = try Snapshot.parse(json: replacementText, order: order)
            // A path of one to three members, the first often one the child has.
            var path: [Key] = []
            for _ in 0..<(1 + Int(r.next() % 3)) {
                let memberText = Self.names[Int(r.next() % UInt64(Self.names.count))]
                path.append(try #require(try? Key(JSONValue(parsing: memberText).stringValue ?? "")))
            }
            let member = path[0]
            let context = "seed \(seed) round \(round): \(currentText) \(path.map(\.string)) <- \(replacementText)"

            let fromValues = Snapshot(key: key, value: current.value.replacing(path[...], with: replacement.value),
                                      priority: current.priority, order: order)
            if let fromText = current.replacing(at: path[...], with: replacement, key: key, order: order) {
                edited += 1
                #expect(Self.same(fromText, fromValues), "\(context)")
                if path.count == 1 {
                    #expect(Self.keepsPriorities(fromText, current, member, replacement), "\(context)")
                } else {
                    // The members the path does not reach keep theirs.
                    let reached = fromText.child(member)
                    #expect(Self.keepsPriorities(fromText, current, member, reached), "\(context)")
                }
            } else {
                fellBack += 1
            }
            // The same value as a member of a received object (a patch's, say).
            let asMember = try Snapshot.parse(json: #"{"r":"# + replacementText + "}", order: order).children.first
            if let asMember, let fromText = current.replacing(at: path[...], with: asMember, key: key, order: order) {
                #expect(Self.same(fromText, fromValues), "\(context) (as a member)")
                if path.count == 1 {
                    #expect(Self.keepsPriorities(fromText, current, member, asMember), "\(context) (as a member)")
                }
            }
            let whole = replacement.asChild(key, order: order)
            let wholeFromValues = Snapshot(key: key, value: replacement.value, priority: replacement.priority,
                                           order: order)
            #expect(Self.same(whole, wholeFromValues), "seed \(seed) round \(round): \(replacementText) as \(key)")
            #expect(!replacement.exists || whole.digest(priorities: true) == replacement.digest(priorities: true),
                    "seed \(seed) round \(round): \(replacementText) as \(key)")
        }
        // Both paths are taken: the text one for every object child.
        #expect(edited > 200 && fellBack > 200, "seed \(seed): \(edited) edited as text, \(fellBack) from values")
    }
}
