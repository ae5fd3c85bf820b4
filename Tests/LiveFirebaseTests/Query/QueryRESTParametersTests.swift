// QueryRESTParametersTests.swift — the REST form of queries: JSON-encoded
// values, the superset sent for what the REST API cannot express, and the
// percent-encoding of the result in a URL.

import LiveFirebase
import LiveModel
import Testing

@Suite struct QueryRESTParametersTests {
    static let cases: [(DatabaseQuery, [String])] = [
        (DatabaseQuery(), []),
        (DatabaseQuery(order: .key), [#"orderBy="$key""#]),
        (DatabaseQuery(order: .value), [#"orderBy="$value""#]),
        (DatabaseQuery(order: .child("a/b")), [#"orderBy="a/b""#]),
        (DatabaseQuery().limited(toFirst: 2), [#"orderBy="$priority""#, "limitToFirst=2"]),
        (DatabaseQuery(order: .child("s")).starting(at: 3).limited(toFirst: 2),
         [#"orderBy="s""#, "startAt=3", "limitToFirst=2"]),
        (DatabaseQuery(order: .child("s")).ending(at: 2.5).limited(toLast: 7),
         [#"orderBy="s""#, "endAt=2.5", "limitToLast=7"]),
        // Exclusive bounds and tie-breaks: the inclusive bound of the value,
        // and no limit (the client applies both).
        (DatabaseQuery(order: .child("s")).starting(after: 3).limited(toFirst: 2), [#"orderBy="s""#, "startAt=3"]),
        (DatabaseQuery(order: .value).ending(before: "m").limited(toLast: 2), [#"orderBy="$value""#, #"endAt="m""#]),
        (DatabaseQuery(order: .value).starting(at: true, key: "k").limited(toFirst: 1),
         [#"orderBy="$value""#, "startAt=true"]),
        (DatabaseQuery(order: .priority).equal(to: nil, key: "k"), [#"orderBy="$priority""#, "startAt=null", "endAt=null"]),
        (DatabaseQuery(order: .key).equal(to: "k").limited(toFirst: 1),
         [#"orderBy="$key""#, #"startAt="k""#, #"endAt="k""#, "limitToFirst=1"]),
        (DatabaseQuery(order: .value).starting(at: "a\"b\\c"), [#"orderBy="$value""#, #"startAt="a\"b\\c""#]),
        (DatabaseQuery(order: .value).starting(at: "é"), [#"orderBy="$value""#, #"startAt="é""#]),
    ]

    @Test(arguments: cases.indices)
    func parameters(_ index: Int) {
        let (query, expected) = Self.cases[index]
        #expect(query.restParameters.map { "\($0.name)=\($0.value)" } == expected, "\(query)")
    }

    @Test func parametersArePercentEncodedInTheURL() throws {
        let database = try DatabaseURL("https://db.example.com")
        let query = DatabaseQuery(order: .child("a b/c")).starting(at: "x&y=z+%", key: "k").limited(toFirst: 3)
        let url = database.restURL(for: "/list", parameters: query.restParameters)
        #expect(url.absoluteString
            == "https://db.example.com/list.json?orderBy=%22a%20b%2Fc%22&startAt=%22x%26y%3Dz%2B%25%22")
        let unicode = database.restURL(for: "/", parameters: DatabaseQuery(order: .value).equal(to: "e\u{301}").restParameters)
        #expect(unicode.absoluteString.hasSuffix("startAt=%22e%CC%81%22&endAt=%22e%CC%81%22"))
    }
}
