// ServerAnswers.swift — what LiveServer itself answers, the oracle of the
// end-to-end collection tests.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import LiveFirebase
import LiveCollection
import LiveModel
import LiveServer

/// The server's own answer to `query` at `/items`, with its exact
/// parameters (LiveServer's `startAfter` and `…Key` extensions), in query
/// order; `auth` is a token for a server that requires one.
func serverAnswer(_ server: LiveServer, _ query: DatabaseQuery, auth: String? = nil) async throws -> [Key] {
    let url = try DatabaseURL(server.url).restURL(for: "/items",
                                                  parameters: RESTQueryTests.exactParameters(query) + authParameter(auth))
    let (data, _) = try await PlatformHTTPTransport.shared.send(URLRequest(url: url))
    return try Snapshot.parse(json: data, order: query.order).orderedChildren().compactMap(\.key)
}

/// Every child at `/items` and its value (without priorities).
func serverValues(_ server: LiveServer, auth: String? = nil) async throws -> [Key: JSONValue] {
    let url = try DatabaseURL(server.url).restURL(for: "/items", parameters: authParameter(auth))
    let (data, _) = try await PlatformHTTPTransport.shared.send(URLRequest(url: url))
    var out: [Key: JSONValue] = [:]
    for child in try Snapshot.parse(json: data).children { if let k = child.key { out[k] = child.value } }
    return out
}

/// Whether `collection` holds exactly `keys`, in order, each with its
/// current value in `values`.
@MainActor
func holds(_ collection: SortedCollection<RawChild>, _ keys: [Key], _ values: [Key: JSONValue]) -> Bool {
    collection.models.map(\.identifier) == keys && collection.models.allSatisfy { $0.dictionary == values[$0.identifier] }
}

/// The `auth` query parameter for a token, if any.
private func authParameter(_ auth: String?) -> [(name: String, value: String)] { auth.map { [("auth", $0)] } ?? [] }
