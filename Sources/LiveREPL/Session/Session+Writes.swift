// Session+Writes.swift — writes through the server, each returning once
// the change it caused has reached the collection.

import LiveCollection
import LiveFirebase
import LiveModel

extension Session {
    func write(_ command: Command) async throws(REPLError) {
        guard let client else {
            let name: String
            switch command {
            case .set: name = "set"
            case .update: name = "update"
            case .push: name = "push"
            default: name = "remove"
            }
            throw .needsServer(name)
        }
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
        try await waitUntilCurrent(command: "\(command)")
    }

    /// Waits until the collection equals the server's answer to the query:
    /// the keys in order and their values.
    /// - Throws: ``REPLError/notSeen(command:seconds:)`` after ``writeTimeout``.
    func waitUntilCurrent(command: String) async throws(REPLError) {
        guard let client else { return }
        let expected: Snapshot
        do { expected = try await client.get(query: firebase.effectiveQuery) } catch { throw .database(error) }
        var keys: [Key] = []
        var values: [Key: JSONValue] = [:]
        for child in expected.orderedChildren() {
            guard let key = child.key else { continue }
            keys.append(key)
            values[key] = child.value
        }
        let deadline = ContinuousClock.now + .milliseconds(Int(writeTimeout * 1000))
        while ContinuousClock.now < deadline {
            let models = firebase.collection.models
            if models.map(\.identifier) == keys, models.allSatisfy({ $0.dictionary == values[$0.identifier] }) { return }
            try? await Task.sleep(for: .milliseconds(2))
        }
        throw .notSeen(command: command.split(separator: "(").first.map(String.init) ?? command, seconds: writeTimeout)
    }
}
