// WriteSender.swift — how a collection's writes reach the database, and how
// a write whose answer was lost is settled without applying it twice.
import LiveModel

/// How a collection's writes reach the database.
/// ``database(transport:)`` sends them through the REST API.
public struct WriteSender: Sendable {
    let send: @Sendable (DatabaseReference, DatabaseWrite, WriteAttempt) async throws(DatabaseError) -> Void

    /// A sender that calls `send` with the collection's location, each write
    /// and whether an earlier attempt may have reached the server, one write
    /// at a time, in the order they were made. A throw of
    /// ``DatabaseError/transport(_:)``, ``DatabaseError/credentialsUnavailable(_:)``
    /// or a 502, 503 or 504 keeps the write to send again once the
    /// connection is back; any other throw reverts it.
    /// - Complexity: O(1); each write then costs what `send` does.
    public init(_ send: @escaping @Sendable (DatabaseReference, DatabaseWrite, WriteAttempt) async throws(DatabaseError) -> Void) {
        self.send = send
    }

    /// Sends each write with a ``DatabaseClient`` of the collection's
    /// location. A write whose earlier attempt may have reached the server
    /// is settled as ``WriteAttempt/again`` describes.
    /// - Complexity: one request per write; a settled one adds a read of
    ///   each path it writes (none with an ETag condition).
    public static func database(transport: any HTTPTransport = PlatformHTTPTransport.shared) -> WriteSender {
        WriteSender { reference, write, attempt throws(DatabaseError) in
            let client = DatabaseClient(reference, transport: transport)
            if attempt == .again, try await Self.settle(write, with: client) { return }
            try await Self.send(write, with: client)
        }
    }

    private static func send(_ write: DatabaseWrite, with client: DatabaseClient) async throws(DatabaseError) {
        switch write {
        case .set(let path, let value, let etag): try await client.set(value, at: path, ifMatch: etag)
        case .remove(let path, let etag): try await client.remove(at: path, ifMatch: etag)
        case .update(let path, let values): try await client.update(values, at: path)
        }
    }

    /// Settles a write that may have reached the server already.
    /// - Returns: true when the server holds what it writes (it is not
    ///   sent again); false when it is to be sent.
    /// - Throws: ``DatabaseError/writeOutcomeUnknown(_:)`` for a write with
    ///   server values; the server's refusal of a conditional write whose
    ///   data differs from what it writes.
    private static func settle(_ write: DatabaseWrite, with client: DatabaseClient) async throws(DatabaseError) -> Bool {
        let replacements = try write.replacements()
        if replacements.contains(where: { ServerValue.contains($0.value) }) {
            throw .writeOutcomeUnknown("it may have reached the server before its answer was lost, and it holds a server "
                + "value that would apply twice if sent again; the server's data shows")
        }
        switch write {
        case .set(_, _, ifMatch: _?), .remove(_, ifMatch: _?):
            // Its condition keeps it from applying twice: sent again, it is
            // refused if it (or anything else) was applied.
            do throws(DatabaseError) {
                try await send(write, with: client)
            } catch .etagMismatch(let current, let value) {
                if try Self.digest(value) == Self.digest(replacements[0].value) { return true }
                throw .etagMismatch(currentETag: current, currentValue: value)
            }
            return true
        default:
            for (path, value) in replacements {
                let current: Snapshot
                do throws(DatabaseError) { current = try await client.get(path) } catch {
                    // Rules that let this client write but not read: sent again.
                    if case .permissionDenied = error { return false }
                    throw error
                }
                guard try current.digest(priorities: false) == Self.digest(value) else { return false }
            }
            return true
        }
    }

    /// The digest of `value` as the server would store it (priorities
    /// aside: a plain read does not return them).
    private static func digest(_ value: JSONValue) throws(DatabaseError) -> ValueDigest {
        do { return try Snapshot.parse(json: value.jsonText()).digest(priorities: false) } catch {
            throw .invalidValue("a value could not be compared with the server's: \(error.description)")
        }
    }
}

/// Whether a write is sent for the first time.
public enum WriteAttempt: Sendable, Hashable {
    /// No earlier attempt reached the server.
    case first
    /// An earlier attempt may have reached the server: its answer was lost
    /// (the connection dropped, or the process ended, after it was sent).
    ///
    /// ``WriteSender/database(transport:)`` then settles it so that it is
    /// not applied twice where the protocol can tell:
    /// - a write with an ETag condition is sent again as it is: if it was
    ///   applied, the condition fails, and the server's data equal to what
    ///   it writes confirms it;
    /// - a write without one is confirmed without sending when the server
    ///   holds what it writes at each of its paths (read first), and sent
    ///   again otherwise (also when the rules let this client write there
    ///   but not read). The REST API has no request ids: if another client
    ///   changed those paths after the lost attempt was applied, sending it
    ///   again writes over that change;
    /// - a write with server values (a timestamp, an increment) is never
    ///   sent again: it is reverted with
    ///   ``DatabaseError/writeOutcomeUnknown(_:)``, and the server's data,
    ///   which holds it or not, shows.
    case again
}
