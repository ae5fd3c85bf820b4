// ServerTimestamp.swift — a model's date that the server sets when the
// model is written.
import Foundation
import LiveModel

/// A date a model reads back and the server sets when the model is written
/// without one, as Firestore's `@ServerTimestamp`:
///
/// ```swift
/// struct Message: Codable, LiveModelProtocol {
///     var identifier: Key
///     var text: String
///     @ServerTimestamp var sent: Date?
/// }
/// try await messages.push(Message(identifier: "new", text: "hi"))   // "sent" is the server's time
/// ```
///
/// - Encoding: `nil` is written as `ServerValue.timestamp`; a date as its
///   milliseconds since 1970 (how Firebase stores time).
/// - Decoding: a number is milliseconds since 1970; an absent member,
///   `null`, or the server value itself (a model encoded, say by
///   `JSONEncoder` for a cache of the app's own, before the server set it)
///   is `nil`. Anything else is a type mismatch.
@propertyWrapper
public struct ServerTimestamp: Codable, Sendable, Hashable {
    /// The date; nil until the server has set it.
    public var wrappedValue: Date?

    /// A date, or none for the server to set.
    public init(wrappedValue: Date? = nil) {
        self.wrappedValue = wrappedValue
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            wrappedValue = nil
        } else if let milliseconds = try? container.decode(Double.self) {
            wrappedValue = Date(timeIntervalSince1970: milliseconds / 1000)
        } else if let members = try? decoder.container(keyedBy: ServerValueMember.self), members.contains(.sv) {
            wrappedValue = nil
        } else {
            // Not a number: the decoder's own type mismatch, naming where.
            wrappedValue = Date(timeIntervalSince1970: try container.decode(Double.self) / 1000)
        }
    }

    /// The member of a server value.
    private enum ServerValueMember: String, CodingKey {
        case sv = ".sv"
    }

    public func encode(to encoder: any Encoder) throws {
        guard let date = wrappedValue else { return try ServerValue.timestamp.encode(to: encoder) }
        var container = encoder.singleValueContainer()
        try container.encode((date.timeIntervalSince1970 * 1000).rounded())
    }
}

/// Decoding of ``ServerTimestamp`` members that may be absent.
extension KeyedDecodingContainer {
    /// An absent member is a ``ServerTimestamp`` not set yet (the
    /// synthesised decoding would otherwise require the member).
    public func decode(_ type: ServerTimestamp.Type, forKey key: Key) throws -> ServerTimestamp {
        try decodeIfPresent(type, forKey: key) ?? ServerTimestamp()
    }
}
