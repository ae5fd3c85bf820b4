// RESTServerSupport.swift — clients of a LiveServer, and raw requests to it
// for use as an oracle.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import LiveFirebase
import LiveModel
import LiveServer

/// A client of `server` at `path`.
func restClient(_ server: LiveServer, path: DatabasePath = .root, credentials: Credentials = .none,
                transport: any HTTPTransport = PlatformHTTPTransport.shared) throws -> DatabaseClient {
    let reference = DatabaseReference(database: try DatabaseURL(server.url), path: path, credentials: credentials)
    return DatabaseClient(reference, transport: transport)
}

/// A GET to `server` with exactly these parameters (the server's own query
/// extensions included), parsed as a snapshot in `order`.
func restRawGet(_ server: LiveServer, _ path: DatabasePath, parameters: [(name: String, value: String)],
                order: QueryOrder = .priority) async throws -> Snapshot {
    let url = try DatabaseURL(server.url).restURL(for: path, parameters: parameters)
    let (data, response) = try await PlatformHTTPTransport.shared.send(URLRequest(url: url))
    guard response.statusCode == 200 else {
        throw RESTRawGetError(status: response.statusCode, body: String(decoding: data, as: UTF8.self))
    }
    return try Snapshot.parse(json: data, key: path.lastKey, order: order)
}

struct RESTRawGetError: Error {
    let status: Int
    let body: String
}

/// What a snapshot holds, comparable: the children in query order with
/// their values and priorities, or the value of a primitive.
struct RESTSnapshotSummary: Equatable, CustomStringConvertible {
    let children: [String]
    let value: JSONValue

    init(_ snapshot: Snapshot) {
        children = snapshot.orderedChildren().map { child in
            "\(child.key?.string ?? "?")=\(child.value.jsonText(sortedKeys: true))"
                + (child.priority.map { " (\($0))" } ?? "")
        }
        value = snapshot.hasChildren ? .null : snapshot.value
    }

    var description: String { children.isEmpty ? "\(value)" : children.joined(separator: ", ") }
}
