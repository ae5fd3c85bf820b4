/// The members of a JSON object: names to values, with names compared by
/// their exact code units.
///
/// Firebase, like JSON, tells member names apart by their code units, so
/// `"é"` (U+00E9) and `"e\u{301}"` are two members here, as they are on the
/// server. A Swift `[String: JSONValue]` would merge them, since `String`
/// equality is canonical equivalence; a `JSONObject` never does. Everything
/// else behaves like a dictionary: literals, `object["name"]` to read, set
/// and remove, iteration as `(key:value:)` pairs in an unspecified order,
/// `keys`, `values`, `mapValues`.
///
/// Two objects are equal when they hold the same names (code unit for code
/// unit) with equal values, whatever the order.
public struct JSONObject: Sendable {
    /// A member name as a dictionary key: equality and hashing by the exact
    /// UTF-8 bytes, never by canonical equivalence.
    @usableFromInline
    struct Name: Hashable, Sendable {
        @usableFromInline let string: String

        @inlinable init(_ string: String) { self.string = string }

        @inlinable static func == (lhs: Name, rhs: Name) -> Bool {
            let a = lhs.string.utf8, b = rhs.string.utf8
            guard a.count == b.count else { return false }
            // The same storage is the same bytes (as for String's own ==).
            let contiguous = a.withContiguousStorageIfAvailable { x in
                b.withContiguousStorageIfAvailable { y in x.baseAddress == y.baseAddress || bytesEqual(x, y) }
            }
            if let contiguous, let equal = contiguous { return equal }
            return a.elementsEqual(b)
        }

        /// Whether two buffers of the same length hold the same bytes,
        /// compared eight at a time.
        @inlinable static func bytesEqual(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
            let p = UnsafeRawBufferPointer(x), q = UnsafeRawBufferPointer(y)
            let count = p.count
            var i = 0
            while i + 8 <= count {
                guard p.loadUnaligned(fromByteOffset: i, as: UInt64.self) == q.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                else { return false }
                i += 8
            }
            while i < count {
                guard p[i] == q[i] else { return false }
                i += 1
            }
            return true
        }

        @inlinable func hash(into hasher: inout Hasher) {
            let utf8 = string.utf8
            if utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
                Array(utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
            }
        }
    }

    @usableFromInline var storage: [Name: JSONValue]

    /// An empty object.
    @inlinable public init() { storage = [:] }

    /// An empty object with room for `minimumCapacity` members.
    public init(minimumCapacity: Int) { storage = Dictionary(minimumCapacity: minimumCapacity) }

    /// An object of `members`, whose names must all differ (code unit for
    /// code unit; canonically equivalent names may both be given).
    /// - Precondition: No name is given twice.
    /// - Complexity: O(number of members).
    public init<S: Sequence<(String, JSONValue)>>(uniqueKeysWithValues members: S) {
        storage = Dictionary(uniqueKeysWithValues: members.lazy.map { (Name($0.0), $0.1) })
    }

    /// An object of `members`; for a name given more than once, `combine`
    /// takes the value kept and the new one and returns the value to keep.
    /// - Complexity: O(number of members).
    public init<S: Sequence<(String, JSONValue)>>(
        _ members: S, uniquingKeysWith combine: (JSONValue, JSONValue) throws -> JSONValue
    ) rethrows {
        storage = try Dictionary(members.lazy.map { (Name($0.0), $0.1) }, uniquingKeysWith: combine)
    }

    /// The member named exactly `name`, or `nil`; setting `nil` removes it.
    /// - Complexity: O(1) on average, plus the length of `name`.
    @inlinable public subscript(name: String) -> JSONValue? {
        get { storage[Name(name)] }
        _modify { yield &storage[Name(name)] }
        set { storage[Name(name)] = newValue }
    }

    /// Removes the member named exactly `name`.
    /// - Returns: Its value, or `nil` when there was none.
    /// - Complexity: O(1) on average.
    @discardableResult
    public mutating func removeValue(forKey name: String) -> JSONValue? {
        storage.removeValue(forKey: Name(name))
    }

    /// Makes room for `minimumCapacity` members.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        storage.reserveCapacity(minimumCapacity)
    }

    /// The member names, in the order of iteration.
    public var keys: some Collection<String> { storage.keys.lazy.map(\.string) }

    /// The values, in the order of iteration.
    public var values: some Collection<JSONValue> { storage.values }

    /// The same names with each value transformed.
    /// - Complexity: O(number of members).
    public func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        var result = JSONObject()
        result.storage = try storage.mapValues(transform)
        return result
    }
}

extension JSONObject: Collection {
    /// A position of a member.
    public struct Index: Comparable, Sendable {
        @usableFromInline let base: Dictionary<Name, JSONValue>.Index

        @inlinable init(_ base: Dictionary<Name, JSONValue>.Index) { self.base = base }

        /// Whether `lhs` comes before `rhs` in iteration order.
        @inlinable public static func < (lhs: Index, rhs: Index) -> Bool { lhs.base < rhs.base }
    }

    /// A member: its name and value.
    public typealias Element = (key: String, value: JSONValue)

    /// The position of the first member in iteration order.
    /// - Complexity: Amortized O(1).
    @inlinable public var startIndex: Index { Index(storage.startIndex) }
    /// The position after the last member.
    /// - Complexity: O(1).
    @inlinable public var endIndex: Index { Index(storage.endIndex) }
    /// The position of the member after the one at `i`.
    /// - Complexity: O(1).
    @inlinable public func index(after i: Index) -> Index { Index(storage.index(after: i.base)) }

    /// The member at `position`.
    @inlinable public subscript(position: Index) -> Element {
        let (name, value) = storage[position.base]
        return (name.string, value)
    }

    /// The number of members.
    /// - Complexity: O(1).
    @inlinable public var count: Int { storage.count }

    /// Whether there are no members.
    @inlinable public var isEmpty: Bool { storage.isEmpty }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object of the literal's members; a repeated name keeps the last
    /// value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements, uniquingKeysWith: { _, last in last })
    }
}

extension JSONObject: Hashable {
    /// The same names, code unit for code unit, with equal values
    /// (``JSONValue/==(_:_:)``), in any order.
    /// - Complexity: O(size of the smaller object).
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.storage.count == rhs.storage.count else { return false }
        for (name, value) in lhs.storage {
            guard let other = rhs.storage[name], other == value else { return false }
        }
        return true
    }

    /// Hashes consistently with ``==(_:_:)``: independently of member order.
    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for (name, value) in storage {
            var member = Hasher()
            member.combine(name.string.utf8.count)
            member.combine(name)
            member.combine(value)
            combined ^= member.finalize()
        }
        hasher.combine(storage.count)
        hasher.combine(combined)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON text, members sorted by name.
    public var description: String { JSONValue.object(self).description }
}
