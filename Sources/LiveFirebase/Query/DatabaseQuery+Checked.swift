// DatabaseQuery+Checked.swift — a query checked where the database's own
// calls take it: its refusal is a DatabaseError, as every such call throws.
import LiveModel

extension DatabaseQuery {
    /// The query ``DatabaseQuery/validated()`` returns; its refusal thrown
    /// as ``DatabaseError/invalidQuery(_:)``.
    func checked() throws(DatabaseError) -> DatabaseQuery {
        do { return try validated() } catch { throw .invalidQuery(error.reason) }
    }
}
