// QueryRESTParametersTests.swift — a query's REST parameters in a URL:
// percent-encoded. (The parameters themselves: LiveModelTests.)

import LiveFirebase
import LiveModel
import Testing

@Suite struct QueryRESTParametersTests {
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
