// QueryParameterTests.swift — a query read from a request's parameters as
// the Realtime Database reads them, and written as REST parameters; what one
// side writes, the other reads back.

import LiveModel
import Testing

@Suite("DatabaseQuery parameters")
struct QueryParameterTests {
    @Test func noQueryParameters() throws {
        #expect(try DatabaseQuery(parameters: [:]) == nil)
        #expect(try DatabaseQuery(parameters: ["print": "pretty", "format": "export", "shallow": "true"]) == nil)
    }

    @Test(arguments: [
        (#""$key""#, QueryOrder.key),
        (#""$value""#, .value),
        (#""$priority""#, .priority),
        (#""score""#, .child("score")),
        (#""a/b""#, .child("a/b")),
        (#""/a/b/""#, .child("a/b")),
    ])
    func orders(_ text: String, _ order: QueryOrder) throws {
        #expect(try DatabaseQuery(parameters: ["orderBy": text])?.order == order)
    }

    @Test func fullQuery() throws {
        let query = try DatabaseQuery(parameters: [
            "orderBy": #""score""#, "startAt": "3", "startAtKey": #""k1""#, "endBefore": #""z""#,
            "limitToLast": "10",
        ])
        #expect(query == DatabaseQuery(order: .child("score"),
                               start: .init(value: 3, key: "k1", isInclusive: true),
                               end: .init(value: "z", isInclusive: false),
                               limit: .last(10)))
    }

    @Test func equalToIsBothEnds() throws {
        let query = try #require(try DatabaseQuery(parameters: ["orderBy": #""$value""#, "equalTo": "true",
                                                        "equalToKey": #""a""#]))
        #expect(query.start == .init(value: true, key: "a", isInclusive: true))
        #expect(query.end == query.start)
        #expect(query.limit == nil)
    }

    @Test func boundValues() throws {
        for text in ["null", "true", "false", "-1.5", "0", #""""#, #""x y""#] {
            #expect(try DatabaseQuery(parameters: ["orderBy": #""v""#, "startAfter": text])?.start?.isInclusive == false)
        }
        #expect(try DatabaseQuery(parameters: ["orderBy": #""$key""#, "startAt": #""a.b""#])?.start?.value == "a.b")
        #expect(try DatabaseQuery(parameters: ["orderBy": #""$priority""#, "endAt": "null"])?.end?.value == .null)
        #expect(try DatabaseQuery(parameters: ["orderBy": #""$key""#, "limitToFirst": "0"])?.limit == .first(0))
    }

    static let errors: [([String: String], String)] = [
        (["limitToFirst": "1"], "orderBy must be defined when other query parameters are defined"),
        (["startAt": "1"], "orderBy must be defined when other query parameters are defined"),
        (["equalToKey": #""a""#], "orderBy must be defined when other query parameters are defined"),
        (["orderBy": "$key"], "orderBy must be a valid JSON encoded path"),
        (["orderBy": "score"], "orderBy must be a valid JSON encoded path"),
        (["orderBy": "1"], "orderBy must be a valid JSON encoded path"),
        (["orderBy": #""a.b""#], "orderBy must be a valid JSON encoded path"),
        (["orderBy": #""""#], "orderBy must be a valid JSON encoded path"),
        (["orderBy": #""/""#], "orderBy must be a valid JSON encoded path"),
        (["orderBy": #""$other""#], "orderBy must be a valid JSON encoded path"),
        (["orderBy": #""$key""#, "limitToFirst": "-1"], "limitToFirst must be a non-negative integer"),
        (["orderBy": #""$key""#, "limitToFirst": "1.5"], "limitToFirst must be a non-negative integer"),
        (["orderBy": #""$key""#, "limitToFirst": #""1""#], "limitToFirst must be a non-negative integer"),
        (["orderBy": #""$key""#, "limitToLast": "x"], "limitToLast must be a non-negative integer"),
        (["orderBy": #""$key""#, "limitToFirst": "1", "limitToLast": "1"],
         "limitToFirst and limitToLast cannot both be defined"),
        (["orderBy": #""v""#, "startAt": "a"], "startAt must be a valid JSON encoded value"),
        (["orderBy": #""v""#, "endAt": "[1]"], "endAt must be a JSON primitive"),
        (["orderBy": #""v""#, "equalTo": #"{"a":1}"#], "equalTo must be a JSON primitive"),
        (["orderBy": #""$key""#, "startAt": "1"], #"startAt must be a string when orderBy is "$key""#),
        (["orderBy": #""$key""#, "endBefore": "null"], #"endBefore must be a string when orderBy is "$key""#),
        (["orderBy": #""$priority""#, "startAfter": "true"], "startAfter must be null, a number or a string"),
        (["orderBy": #""v""#, "startAtKey": #""a""#], "startAtKey must be defined with startAt"),
        (["orderBy": #""v""#, "endAt": "1", "endBeforeKey": #""a""#], "endBeforeKey must be defined with endBefore"),
        (["orderBy": #""v""#, "startAt": "1", "startAtKey": "a"], "startAtKey must be a JSON encoded string"),
        (["orderBy": #""v""#, "startAt": "1", "startAtKey": "1"], "startAtKey must be a JSON encoded string"),
        (["orderBy": #""v""#, "endAt": "1", "endAtKey": #""a/b""#], "endAtKey must be a valid key"),
        (["orderBy": #""v""#, "endAt": "1", "endAtKey": #""""#], "endAtKey must be a valid key"),
        (["orderBy": #""$key""#, "startAt": #""a""#, "startAtKey": #""a""#],
         #"startAtKey cannot be defined when orderBy is "$key""#),
        (["orderBy": #""v""#, "startAt": "1", "startAfter": "1"], "startAt and startAfter cannot both be defined"),
        (["orderBy": #""v""#, "endAt": "1", "endBefore": "1"], "endAt and endBefore cannot both be defined"),
        (["orderBy": #""v""#, "equalTo": "1", "startAt": "1"], "equalTo cannot be defined with startAt"),
        (["orderBy": #""v""#, "equalTo": "1", "endBefore": "1"], "equalTo cannot be defined with startAt"),
    ]

    @Test(arguments: errors)
    func parameterErrors(_ parameters: [String: String], _ message: String) throws {
        do {
            _ = try DatabaseQuery(parameters: parameters)
            Issue.record("accepted \(parameters)")
        } catch {
            #expect(error.reason.hasPrefix(message), "\(parameters): \(error.reason)")
        }
    }
}
