// PushIDGenerator.swift — Firebase push ids, made by the server and by clients
// that name a pushed child before the server answers.

/// Makes Firebase push ids: keys that sort in the order they were made.
///
/// An id is 20 characters of the alphabet
/// `-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz`
/// (which is in ASCII order): 8 for the time in milliseconds, most
/// significant first, then 12 random ones. Within one millisecond, or when
/// the clock goes back, the next id keeps the last time and adds one to the
/// random part, so ids from one generator are strictly increasing, both as
/// strings and in ``Key`` order.
package struct PushIDGenerator: Sendable {
    static let alphabet: [UInt8] = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8)

    /// Characters of the time part.
    static let timeLength = 8
    /// Characters of the random part.
    static let randomLength = 12

    /// The time of the last id, or `nil` before the first.
    private var lastTime: Int64?
    /// The random part of the last id, as digits 0..<64.
    private var lastRandom = [UInt8](repeating: 0, count: randomLength)

    /// A generator that has made no id yet.
    package init() {}

    /// A generator that has just made an id at `lastTime` with the random
    /// digits `lastRandom` (12 digits, each below 64).
    init(lastTime: Int64, lastRandom: [UInt8]) {
        precondition(lastRandom.count == Self.randomLength && lastRandom.allSatisfy { $0 < 64 })
        self.lastTime = lastTime
        self.lastRandom = lastRandom
    }

    /// The next push id.
    /// - Parameter now: The time, in milliseconds since 1970 (a negative
    ///   time counts as 0).
    /// - Complexity: O(1).
    package mutating func next(now: Int64) -> Key {
        var time = max(now, 0)
        if let lastTime, time <= lastTime {
            time = lastTime
            if !incrementRandom() {
                // All 12 random digits were 63: move on one millisecond.
                time += 1
                randomize()
            }
        } else {
            randomize()
        }
        lastTime = time

        var bytes = [UInt8](repeating: 0, count: Self.timeLength + Self.randomLength)
        var remaining = UInt64(time)
        for index in stride(from: Self.timeLength - 1, through: 0, by: -1) {
            bytes[index] = Self.alphabet[Int(remaining % 64)]
            remaining /= 64
        }
        for (offset, digit) in lastRandom.enumerated() {
            bytes[Self.timeLength + offset] = Self.alphabet[Int(digit)]
        }
        // Always a valid key: no forbidden character, 20 bytes.
        return Key(unchecked: String(decoding: bytes, as: UTF8.self))
    }

    private mutating func randomize() {
        var generator = SystemRandomNumberGenerator()
        for index in lastRandom.indices {
            lastRandom[index] = UInt8.random(in: 0..<64, using: &generator)
        }
    }

    /// Adds one to the random part; `false` when it overflows.
    private mutating func incrementRandom() -> Bool {
        for index in lastRandom.indices.reversed() {
            if lastRandom[index] < 63 {
                lastRandom[index] += 1
                return true
            }
            lastRandom[index] = 0
        }
        return false
    }
}
