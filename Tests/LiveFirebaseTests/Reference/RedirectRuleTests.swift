// RedirectRuleTests.swift — a credential follows a redirect only to the
// database's own hosts, and never from https to http.
import Foundation
@testable import LiveFirebase
import Testing

@Suite("RedirectRule")
struct RedirectRuleTests {
    static func refusal(_ from: String, _ to: String, origin: String? = nil) -> String? {
        RedirectRule.refusal(from: URL(string: from), to: URL(string: to)!, origin: URL(string: origin ?? from))
    }

    @Test("the same host (any port) and Firebase's servers of the same domain are followed")
    func followed() {
        #expect(Self.refusal("http://127.0.0.1:9000/a.json", "http://127.0.0.1:9100/a.json") == nil)
        #expect(Self.refusal("https://xyz.firebaseio.com/a.json", "https://s-usc1b-nss-201.firebaseio.com/a.json?ns=xyz") == nil)
        #expect(Self.refusal("http://localhost:1/a", "https://localhost:2/a") == nil, "an upgrade to https")
    }

    @Test("another host, https to http, or another scheme is refused, with the reason")
    func refused() {
        #expect(Self.refusal("https://xyz.firebaseio.com/a", "http://xyz.firebaseio.com/a")?.contains("unencrypted") == true)
        #expect(Self.refusal("https://xyz.firebaseio.com/a", "https://evil.test/a")?.contains("another host") == true)
        #expect(Self.refusal("https://xyz.firebaseio.com/a", "https://firebaseio.com.evil.test/a") != nil)
        #expect(Self.refusal("https://a.com/x", "https://b.com/x") != nil, "two names under a top-level domain are two sites")
        #expect(Self.refusal("http://127.0.0.1:9/a", "http://127.0.0.2:9/a") != nil)
        #expect(Self.refusal("http://127.0.0.1:9/a", "ftp://127.0.0.1/a") != nil)
        // Redirected once within the domain, the next one is judged by the database's host.
        #expect(Self.refusal("https://s1.firebaseio.com/a", "https://evil.test/a", origin: "https://xyz.firebaseio.com/") != nil)
    }
}
