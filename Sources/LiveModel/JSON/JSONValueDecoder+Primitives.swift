// JSONValueDecoder+Primitives.swift — the decoder's rules for primitives,
// read straight from a value: no decoder or coding path is made unless a
// value does not fit.

/// How ``JSONValueDecoder`` reads a primitive from a value. The coding path
/// is an autoclosure, evaluated only for an error, so a member read by a
/// keyed or unkeyed container costs no allocation.
enum PrimitiveRead {
    static func bool(_ value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> Bool {
        guard case .bool(let b) = value else { throw mismatchOrNull(Bool.self, "a boolean", value, path()) }
        return b
    }

    static func string(_ value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> String {
        guard case .string(let s) = value else { throw mismatchOrNull(String.self, "a string", value, path()) }
        return s
    }

    static func double(_ value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> Double {
        guard case .number(let d) = value else { throw mismatchOrNull(Double.self, "a number", value, path()) }
        return d
    }

    static func float(_ value: JSONValue, at path: @autoclosure () -> [any CodingKey]) throws -> Float {
        guard case .number(let d) = value else { throw mismatchOrNull(Float.self, "a number", value, path()) }
        guard !d.isFinite || abs(d) <= Double(Float.greatestFiniteMagnitude) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: path(), debugDescription: "The number \(d) does not fit in Float."))
        }
        return Float(d)
    }

    /// An integer type, from a number that is integral and in its range.
    static func integer<I: FixedWidthInteger>(_ value: JSONValue,
                                              at path: @autoclosure () -> [any CodingKey]) throws -> I {
        guard case .number(let d) = value else { throw mismatchOrNull(I.self, "a number", value, path()) }
        guard let i = I(exactly: d) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: path(), debugDescription: "The number \(JSONValue.number(d).jsonText()) does not fit in \(I.self)."))
        }
        return i
    }

    /// `valueNotFound` for null, `typeMismatch` otherwise.
    static func mismatchOrNull(_ type: Any.Type, _ expected: String, _ value: JSONValue,
                               _ path: [any CodingKey]) -> DecodingError {
        if value.isNull {
            return DecodingError.valueNotFound(type, .init(
                codingPath: path, debugDescription: "Expected \(expected) but found null."))
        }
        return DecodingError.typeMismatch(type, .init(
            codingPath: path, debugDescription: "Expected \(expected) but found \(value.kindDescription)."))
    }
}
