// Session+Writes.swift — writes through the server, each returning once
// the change it caused has reached the collection.

import LiveCollection
import LiveFirebase
import LiveModel

extension Session {
    func write(_ command: Command) async throws(REPLError) {
        guard let client else { throw .needsServer(command.name) }
        do {
            switch command {
            case .set(let path, let value): try await client.set(value, at: path)
            case .update(let path, let values): try await client.update(values, at: path)
            case .push(let path, let value): _ = try await client.push(value, at: path)
            case .remove(let path): try await client.remove(at: path)
            default: return
            }
        } catch {
            throw .database(error)
        }
        try await waitUntilCurrent(command: command.name, seconds: writeTimeout)
    }
}
