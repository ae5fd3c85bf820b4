// DatabaseWrite+JSON.swift — a write as a JSON value, as the write queue
// keeps it on disk.
import LiveModel

extension DatabaseWrite {
    /// The write as JSON: `{"set": "/path", "value": …, "ifMatch": "…"}`,
    /// `{"update": "/path", "values": {"/a": …}}` or
    /// `{"remove": "/path", "ifMatch": "…"}` (`ifMatch` only when given).
    var json: JSONValue {
        var members: JSONObject
        switch self {
        case .set(let path, let value, let etag):
            members = ["set": .string(path.description), "value": value]
            if let etag { members["ifMatch"] = .string(etag) }
        case .update(let path, let values):
            var object = JSONObject()
            for (relative, value) in values { object[relative.description] = value }
            members = ["update": .string(path.description), "values": .object(object)]
        case .remove(let path, let etag):
            members = ["remove": .string(path.description)]
            if let etag { members["ifMatch"] = .string(etag) }
        }
        return .object(members)
    }

    /// The write that ``json`` gave.
    /// - Throws: ``DatabaseError/invalidValue(_:)`` naming what is missing
    ///   or not valid.
    init(json: JSONValue) throws(DatabaseError) {
        func path(_ member: String) throws(DatabaseError) -> DatabasePath {
            guard let text = json[member]?.stringValue else { throw .invalidValue("a queued write has no \"\(member)\" path") }
            do { return try DatabasePath(text) } catch { throw .invalidValue("a queued write's path \(text): \(error)") }
        }
        let etag = json["ifMatch"]?.stringValue
        if json["set"] != nil {
            guard let value = json["value"] else { throw .invalidValue("a queued set has no value") }
            self = .set(try path("set"), value, ifMatch: etag)
        } else if json["update"] != nil {
            guard case .object(let members)? = json["values"] else { throw .invalidValue("a queued update has no values") }
            var values: [DatabasePath: JSONValue] = [:]
            for (text, value) in members {
                do { values[try DatabasePath(text)] = value } catch {
                    throw .invalidValue("a queued update's path \(text): \(error)")
                }
            }
            self = .update(try path("update"), values)
        } else if json["remove"] != nil {
            self = .remove(try path("remove"), ifMatch: etag)
        } else {
            throw .invalidValue("a queued write is neither a set, an update nor a remove")
        }
    }
}
