// ServerValue+Codable.swift — server values inside JSON values and
// `Encodable` writes.

extension ServerValue: Encodable {
    private enum Member: String, CodingKey {
        case sv = ".sv"
        case increment
    }

    /// Encodes the value as the database is sent it (see ``json``), so a
    /// member of type `ServerValue` in an `Encodable` write becomes a
    /// server value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Member.self)
        switch self {
        case .timestamp:
            try container.encode("timestamp", forKey: .sv)
        case .increment(let delta):
            var nested = container.nestedContainer(keyedBy: Member.self, forKey: .sv)
            try nested.encode(delta, forKey: .increment)
        }
    }
}

extension JSONValue {
    /// The server's time when it takes the write (``ServerValue/timestamp``),
    /// as a value to write: `["updated": .serverTimestamp]`.
    public static var serverTimestamp: JSONValue { ServerValue.timestamp.json }

    /// The number stored where this is written, plus `delta`
    /// (``ServerValue/increment(_:)``): `["likes": .increment(by: 1)]`.
    public static func increment(by delta: Double) -> JSONValue { ServerValue.increment(delta).json }
}
