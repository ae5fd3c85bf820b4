import Testing
import LiveModel
@testable import LiveServer

@Suite("DatabaseQuery windows")
struct QueryWindowTests {
    static let scores = #"""
        {"a": {"s": 1}, "b": {"s": 2}, "c": {"s": 2}, "d": {"s": 3}, "e": {"t": 1},
         "f": {"s": "x"}, "g": {"s": {"deep": 1}}, "h": {"s": true}}
        """#

    static func keys(_ parameters: [String: String], _ data: String = scores) throws -> [String] {
        let query = try #require(try DatabaseQuery(parameters: parameters))
        return query.window(of: try storeNode(data)).map(\.key.string)
    }

    @Test func childOrderSortsByTypeThenKey() throws {
        #expect(try Self.keys(["orderBy": #""s""#]) == ["e", "h", "a", "b", "c", "d", "f", "g"])
    }

    @Test func boundsWithoutKeys() throws {
        #expect(try Self.keys(["orderBy": #""s""#, "startAt": "2"]) == ["b", "c", "d", "f", "g"])
        #expect(try Self.keys(["orderBy": #""s""#, "startAfter": "2"]) == ["d", "f", "g"])
        #expect(try Self.keys(["orderBy": #""s""#, "endAt": "2"]) == ["e", "h", "a", "b", "c"])
        #expect(try Self.keys(["orderBy": #""s""#, "endBefore": "2"]) == ["e", "h", "a"])
        #expect(try Self.keys(["orderBy": #""s""#, "equalTo": "2"]) == ["b", "c"])
        #expect(try Self.keys(["orderBy": #""s""#, "equalTo": "null"]) == ["e"])
    }

    @Test func boundsWithKeys() throws {
        #expect(try Self.keys(["orderBy": #""s""#, "startAt": "2", "startAtKey": #""c""#]) == ["c", "d", "f", "g"])
        #expect(try Self.keys(["orderBy": #""s""#, "startAfter": "2", "startAfterKey": #""b""#])
            == ["c", "d", "f", "g"])
        #expect(try Self.keys(["orderBy": #""s""#, "endAt": "2", "endAtKey": #""b""#]) == ["e", "h", "a", "b"])
        #expect(try Self.keys(["orderBy": #""s""#, "endBefore": "2", "endBeforeKey": #""c""#])
            == ["e", "h", "a", "b"])
        #expect(try Self.keys(["orderBy": #""s""#, "equalTo": "2", "equalToKey": #""c""#]) == ["c"])
    }

    @Test func limits() throws {
        #expect(try Self.keys(["orderBy": #""s""#, "startAt": "1", "limitToFirst": "2"]) == ["a", "b"])
        #expect(try Self.keys(["orderBy": #""s""#, "endAt": "3", "limitToLast": "2"]) == ["c", "d"])
        #expect(try Self.keys(["orderBy": #""s""#, "limitToLast": "100"]).count == 8)
        #expect(try Self.keys(["orderBy": #""s""#, "limitToFirst": "0"]).isEmpty)
    }

    @Test func keyOrderUsesFirebaseKeyOrder() throws {
        let data = #"{"b": 1, "10": 1, "9": 1, "-1": 1, "007": 1, "7": 1, "a": 1, "2147483648": 1}"#
        #expect(try Self.keys(["orderBy": #""$key""#], data)
            == ["-1", "7", "007", "9", "10", "2147483648", "a", "b"])
        #expect(try Self.keys(["orderBy": #""$key""#, "startAt": #""8""#, "endBefore": #""a""#], data)
            == ["9", "10", "2147483648"])
        #expect(try Self.keys(["orderBy": #""$key""#, "startAfter": #""7""#, "limitToFirst": "1"], data) == ["007"])
        #expect(try Self.keys(["orderBy": #""$key""#, "equalTo": #""a.b""#], data).isEmpty)
    }

    @Test func valueAndPriorityOrders() throws {
        let data = #"""
            {"a": {".value": 3, ".priority": "p"}, "b": {".value": "x", ".priority": 1},
             "c": {".value": false, ".priority": 2}, "d": {"n": 1}, "e": 3}
            """#
        #expect(try Self.keys(["orderBy": #""$value""#], data) == ["c", "a", "e", "b", "d"])
        #expect(try Self.keys(["orderBy": #""$priority""#], data) == ["d", "e", "b", "c", "a"])
        #expect(try Self.keys(["orderBy": #""$priority""#, "startAt": "2"], data) == ["c", "a"])
        #expect(try Self.keys(["orderBy": #""$value""#, "startAt": "3", "endAt": "3"], data) == ["a", "e"])
    }

    @Test func leavesAndEmptyNodesHaveNoWindow() throws {
        let query = try #require(try DatabaseQuery(parameters: ["orderBy": #""$key""#]))
        #expect(query.window(of: try storeNode("5")).isEmpty)
        #expect(query.window(of: .empty).isEmpty)
        #expect(query.json(of: try storeNode("5"), export: false) == .null)
    }

    @Test func jsonOfTheWindow() throws {
        let query = try #require(try DatabaseQuery(parameters: ["orderBy": #""s""#, "equalTo": "2"]))
        let data = try storeNode(#"{"0": {"s": 2, ".priority": 1}, "1": {"s": 2}, "2": {"s": 5}}"#)
        // Always an object, even for array-like keys.
        #expect(query.json(of: data, export: false) == storeJSON(#"{"0": {"s": 2}, "1": {"s": 2}}"#))
        #expect(query.json(of: data, export: true)
            == storeJSON(#"{"0": {"s": 2, ".priority": 1}, "1": {"s": 2}}"#))
        let none = try #require(try DatabaseQuery(parameters: ["orderBy": #""s""#, "equalTo": "9"]))
        #expect(none.json(of: data, export: false) == .null)
    }

    @Test func aRefusedQueryIsABadRequestWithTheReason() {
        let error = storeError { () throws(StoreError) in try DatabaseQuery.requested(by: ["limitToFirst": "1"]) }
        #expect(error == .badRequest("orderBy must be defined when other query parameters are defined"))
        #expect(storeError { () throws(StoreError) in try DatabaseQuery.requested(by: ["print": "pretty"]) } == nil)
    }
}
