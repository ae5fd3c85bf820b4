import Testing
import LiveModel

@Suite("Sort values")
struct SortValueTests {
    static let ordered: [SortValue] = [
        .null, .bool(false), .bool(true),
        .number(-1e300), .number(-1), .number(-0.5), .number(0), .number(1e-300), .number(1), .number(2), .number(1e300),
        .string(""), .string(" "), .string("0"), .string("A"), .string("a"), .string("aa"), .string("b"),
        .string("e\u{301}"), .string("\u{E9}"), .string("中"), .string("😀"), .string("｡"),
        .object,
    ]

    @Test("value order table: every pair compares consistently")
    func table() {
        let values = Self.ordered
        for i in values.indices {
            for j in values.indices {
                #expect((values[i] < values[j]) == (i < j), "\(values[i]) vs \(values[j])")
                #expect((values[i] == values[j]) == (i == j), "\(values[i]) vs \(values[j])")
            }
        }
        var generator = SplitMix64(seed: testSeed("value order table"))
        #expect(values.shuffled(using: &generator).sorted() == values)
    }

    @Test("equalities: -0 == 0, all objects equal, strings by code units")
    func equalities() {
        #expect(SortValue.number(-0.0) == .number(0))
        #expect(SortValue.number(-0.0).hashValue == SortValue.number(0).hashValue)
        #expect(!(SortValue.number(-0.0) < .number(0)))
        #expect(SortValue(["a": 1]) == SortValue(["b": [1, 2]]))
        #expect(SortValue.string("\u{E9}") != .string("e\u{301}"))
        #expect(Set<SortValue>([.string("\u{E9}"), .string("e\u{301}")]).count == 2)
    }

    @Test("sort value of a JSON value")
    func fromJSON() {
        #expect(SortValue(nil) == .null)
        #expect(SortValue([:]) == .null)
        #expect(SortValue([]) == .null)
        #expect(SortValue(["a": nil, "b": [nil]]) == .null)
        #expect(SortValue(["a": nil, "b": 1]) == .object)
        #expect(SortValue([1]) == .object)
        #expect(SortValue(true) == .bool(true))
        #expect(SortValue(3) == .number(3))
        #expect(SortValue("x") == .string("x"))
    }

    @Test("QueryOrder computes sort values")
    func queryOrders() throws {
        let value: JSONValue = ["score": 10, "user": ["name": "ada", "age": 36], "tags": ["x", "y"]]
        #expect(QueryOrder.key.sortValue(of: value, priority: .number(1)) == .null)
        #expect(QueryOrder.priority.sortValue(of: value, priority: .number(1)) == .number(1))
        #expect(QueryOrder.priority.sortValue(of: value, priority: nil) == .null)
        #expect(QueryOrder.value.sortValue(of: value) == .object)
        #expect(QueryOrder.child("score").sortValue(of: value) == .number(10))
        #expect(QueryOrder.child("user/name").sortValue(of: value) == .string("ada"))
        #expect(QueryOrder.child("user/name/first").sortValue(of: value) == .null)  // through a primitive
        #expect(QueryOrder.child("missing/x").sortValue(of: value) == .null)
        #expect(QueryOrder.child("tags/1").sortValue(of: value) == .string("y"))
        #expect(QueryOrder.child("user").sortValue(of: value) == .object)
        #expect(QueryOrder.child("user/name").description == "user/name")
        #expect(QueryOrder.key.description == "$key")
    }

    @Test("priorities: none < numbers < strings")
    func priorities() {
        let ordered: [Priority?] = [nil, .number(-5), .number(0), .number(3.5), .string(""), .string("A"), .string("a")]
        for i in ordered.indices {
            for j in ordered.indices {
                #expect((ordered[i].sortValue < ordered[j].sortValue) == (i < j))
            }
        }
        #expect(Priority(.number(1)) == .number(1))
        #expect(Priority(.bool(true)) == nil)
        #expect(Priority.string("\u{E9}") != .string("e\u{301}"))
        #expect(Priority.number(2) < .string("1"))
    }
}
