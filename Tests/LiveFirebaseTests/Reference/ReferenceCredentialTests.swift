// ReferenceCredentialTests.swift — where each credential goes in a request,
// and that tokens never show in descriptions, errors or redacted URLs.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import LiveFirebase
import LiveModel
import Testing

@Suite struct ReferenceCredentialTests {
    static let token = "eyJ.SECRET+token/with=odd&chars"
    static let encodedToken = "eyJ.SECRET%2Btoken%2Fwith%3Dodd%26chars"

    func request(_ credential: Credential?, url: URL? = nil) throws -> URLRequest {
        let reference = try DatabaseReference(url: "https://db.example.com?ns=app", path: "/a b")
        return reference.request(method: "GET", parameters: [("format", "export")], url: url, credential: credential)
    }

    @Test func idTokenGoesInTheQueryAsAuth() throws {
        let request = try request(.idToken(Self.token))
        #expect(request.url?.absoluteString
            == "https://db.example.com/a%20b.json?format=export&ns=app&auth=\(Self.encodedToken)")
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func accessTokenGoesInTheQueryAsAccessToken() throws {
        let request = try request(.accessToken(Self.token))
        #expect(request.url?.absoluteString
            == "https://db.example.com/a%20b.json?format=export&ns=app&access_token=\(Self.encodedToken)")
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func bearerGoesInTheHeader() throws {
        let request = try request(.bearer(Self.token))
        #expect(request.url?.absoluteString == "https://db.example.com/a%20b.json?format=export&ns=app")
        #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer \(Self.token)")
    }

    @Test func noCredentialAddsNothing() throws {
        let request = try request(nil)
        #expect(request.url?.absoluteString == "https://db.example.com/a%20b.json?format=export&ns=app")
        #expect(request.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func aRedirectURLCarryingATokenIsNotDuplicated() throws {
        let target = URL(string: "https://shard-2.example.com/a%20b.json?auth=old&ns=app&access_token=older#frag")!
        let request = try request(.idToken("new"), url: target)
        #expect(request.url?.absoluteString == "https://shard-2.example.com/a%20b.json?ns=app&auth=new#frag")
        let access = try self.request(.accessToken("new"), url: target)
        #expect(access.url?.absoluteString == "https://shard-2.example.com/a%20b.json?ns=app&access_token=new#frag")
        // Percent-encoded names are still the same parameter for a server.
        let sneaky = URL(string: "https://shard-2.example.com/x.json?%61uth=old")!
        #expect(try self.request(.idToken("new"), url: sneaky).url?.absoluteString
            == "https://shard-2.example.com/x.json?auth=new")
        // Without a query of its own.
        let plain = URL(string: "https://shard-2.example.com/x.json")!
        #expect(try self.request(.idToken("new"), url: plain).url?.absoluteString
            == "https://shard-2.example.com/x.json?auth=new")
    }

    @Test func descriptionsNeverShowTheToken() async throws {
        let credentials: [Credential] = [.idToken(Self.token), .accessToken(Self.token), .bearer(Self.token)]
        for credential in credentials {
            var dumped = ""
            dump(credential, to: &dumped)
            for text in [credential.description, credential.debugDescription, "\(credential)",
                         String(reflecting: credential), dumped, "\([credential])",
                         Credentials.fixed(credential).description, "\(Credentials.fixed(credential))"] {
                #expect(!text.contains("SECRET"), "\(text)")
            }
            #expect(credential.description.contains("redacted"))
        }
        #expect(Credentials.none.description == "none")
        #expect(Credentials.provider { _ in .idToken(Self.token) }.description == "provider")
    }

    @Test func redactedURLsNeverShowTheToken() throws {
        let url = "https://db.example.com/a.json?auth=SECRET&ns=x&access_token=SECRET2&%61uth=SECRET3&format=export"
        let redacted = QueryEncoding.redact(url)
        #expect(!redacted.contains("SECRET"))
        #expect(redacted.contains("ns=x") && redacted.contains("format=export"))
        #expect(QueryEncoding.redact("https://db.example.com/a.json") == "https://db.example.com/a.json")
        let request = try request(.idToken(Self.token))
        #expect(!QueryEncoding.redact(request.url!.absoluteString).contains("SECRET"))
    }

    @Test func errorsNeverShowTheToken() async {
        let failing = Credentials.provider { _ in throw ProviderFailure() }
        do {
            _ = try await failing.credential(forceRefresh: true)
            Issue.record("the provider's failure was not reported")
        } catch {
            guard case .credentialsUnavailable(let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(reason.contains("offline"))
        }
        let errors: [DatabaseError] = [
            .http(status: 400, message: "bad", url: QueryEncoding.redact("https://h/x.json?auth=SECRET")),
            .etagMismatch(currentETag: "e", currentValue: "v"),
            .permissionDenied("Permission denied"),
        ]
        for error in errors {
            #expect(!error.description.contains("SECRET"))
            #expect(!String(reflecting: error).contains("SECRET"))
        }
    }

    @Test func fixedAndProviderCredentials() async throws {
        #expect(try await Credentials.none.credential() == nil)
        #expect(try await Credentials.fixed(.bearer("t")).credential(forceRefresh: true) == .bearer("t"))
        #expect(!Credentials.fixed(.bearer("t")).canRefresh)
        let provider = Credentials.provider { force in .idToken(force ? "fresh" : "cached") }
        #expect(provider.canRefresh)
        #expect(try await provider.credential() == .idToken("cached"))
        #expect(try await provider.credential(forceRefresh: true) == .idToken("fresh"))
    }

    struct ProviderFailure: Error, CustomStringConvertible {
        var description: String { "offline" }
    }
}
