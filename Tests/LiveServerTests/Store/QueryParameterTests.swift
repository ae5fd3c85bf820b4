import Testing
import LiveModel
@testable import LiveServer

@Suite("Query parameters")
struct QueryParameterTests {
    @Test func noQueryParameters() throws {
        #expect(try Query(parameters: [:]) == nil)
        #expect(try Query(parameters: ["print": "pretty", "format": "export", "shallow": "true"]) == nil)
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
        #expect(try Query(parameters: ["orderBy": text])?.order == order)
    }

    @Test func fullQuery() throws {
        let query = try Query(parameters: [
            "orderBy": #""score""#, "startAt": "3", "startAtKey": #""k1""#, "endBefore": #""z""#,
            "limitToLast": "10",
        ])
        #expect(query == Query(order: .child("score"),
                               start: .init(value: 3, key: "k1", isInclusive: true),
                               end: .init(value: "z", isInclusive: false),
                               limit: .last(10)))
    }

    @Test func equalToIsBothEnds() throws {
        let query = try #require(try Query(parameters: ["orderBy": #""$value""#, "equalTo": "true",
                                                        "equalToKey": #""a""#]))
        #expect(query.start == .init(value: true, key: "a", isInclusive: true))
        #expect(query.end == query.start)
        #expect(query.limit == nil)
    }

    @Test func boundValues() throws {
        for text in ["null", "true", "false", "-1.5", "0", #""""#, #""x y""#] {
            #expect(try Query(parameters: ["orderBy": #""v""#, "startAfter": text])?.start?.isInclusive == false)
        }
        #expect(try Query(parameters: ["orderBy": #""$key""#, "startAt": #""a.b""#])?.start?.value == "a.b")
        #expect(try Query(parameters: ["orderBy": #""$priority""#, "endAt": "null"])?.end?.value == .null)
        #expect(try Query(parameters: ["orderBy": #""$key""#, "limitToFirst": "0"])?.limit == .first(0))
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
        let error = try #require(storeError { () throws(StoreError) in try Query(parameters: parameters) },
                                 "accepted \(parameters)")
        #expect(error.status == 400)
        #expect(error.message.hasPrefix(message), "\(parameters): \(error.message)")
    }
}
