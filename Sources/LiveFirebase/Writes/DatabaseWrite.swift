// DatabaseWrite.swift — a write made through a collection, and where it stands.
import LiveModel

/// A write made through a ``FirebaseCollection``: paths are relative to its
/// location.
public enum DatabaseWrite: Sendable, Hashable {
    /// Replace the data at a path (`null` removes it), only if it still has
    /// the ETag given, when one is.
    case set(DatabasePath, JSONValue, ifMatch: String? = nil)
    /// Replace several paths below a path at once, each named relative to
    /// it; a `null` value removes what is there.
    case update(DatabasePath, [DatabasePath: JSONValue])
    /// Remove the data at a path, only if it still has the ETag given, when
    /// one is.
    case remove(DatabasePath, ifMatch: String? = nil)

    /// Each location it replaces (relative to the collection's location)
    /// and its new value, `null` for a removal, in a fixed order.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` for an update that names
    ///   its own location or two paths of which one holds the other (the
    ///   server refuses those), or a joined path that is too deep or too
    ///   long.
    func replacements() throws(DatabaseError) -> [(path: DatabasePath, value: JSONValue)] {
        switch self {
        case .set(let path, let value, _): return [(path, value)]
        case .remove(let path, _): return [(path, .null)]
        case .update(let path, let values):
            var out: [(path: DatabasePath, value: JSONValue)] = []
            for (relative, value) in values {
                guard !relative.isRoot else { throw .invalidValue("an update cannot name the location itself (\"/\")") }
                do { out.append((try path.appending(relative), value)) } catch {
                    throw .invalidValue("the update's path \(relative) below \(path): \(error.description)")
                }
            }
            out.sort { $0.path.keys.lexicographicallyPrecedes($1.path.keys) { $0.string < $1.string } }
            // Sorted, a path that holds others comes just before them.
            for (a, b) in zip(out, out.dropFirst()) where b.path.starts(with: a.path) {
                throw .invalidValue("an update cannot name both \(a.path) and \(b.path), which is inside it")
            }
            return out
        }
    }
}

/// Where a write made through a collection stands.
public enum WriteState: Sendable, Hashable {
    /// Shown, and sent or waiting to be sent.
    case pending
    /// The server took it.
    case confirmed
    /// The server refused it (or it could not be sent): what it changed
    /// shows the server's data again.
    case reverted(DatabaseError)
}
