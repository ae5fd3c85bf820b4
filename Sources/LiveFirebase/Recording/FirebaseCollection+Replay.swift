// FirebaseCollection+Replay.swift — a recorded message given again, as
// the stream gave it.
import LiveModel

extension FirebaseCollection {
    /// Applies a recorded message as it was applied when recorded: stream
    /// data as the server's (cut to the query's window where the server
    /// cuts it), injected data as the location's whole data, cached
    /// children as read from a cache.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` for data that cannot be
    ///   parsed under the query's order; nothing changes then.
    package func replay(_ message: FlightMessage) async throws(DatabaseError) {
        await cacheLoad?.value
        switch message {
        case .connected: await handle(.connected)
        case .renewingCredential: await handle(.renewingCredential)
        case .disconnected(let reason): await handle(.disconnected(.transport(reason), retryAfter: .zero))
        case .ended(let failure): await handle(.ended(failure?.error))
        case .put(let path, let data, let isWhole, let isCached):
            await handle(.put(try payload(.put, path, data)), isWholeData: isWhole, fromCache: isCached)
        case .patch(let path, let data, let isWhole):
            await handle(.patch(try payload(.patch, path, data)), isWholeData: isWhole)
        }
    }

    private func payload(_ kind: StreamPayload.Kind, _ path: DatabasePath, _ data: JSONValue) throws(DatabaseError) -> StreamPayload {
        let wrapped: JSONValue = ["path": .string(path.description), "data": data]
        do { return try StreamPayload.parse(json: wrapped.jsonText(), kind: kind, order: view.query.order) } catch {
            throw .invalidValue(error.description)
        }
    }
}
