// EventStream.swift — a pre-generated stream of mixed events over push-id
// keys, laid out sequentially as a real event feed would arrive.

import LiveModel

struct EventStream {
    enum Op: UInt8 { case update, add, remove }

    static let keyLength = 20
    /// Keys of the initial children, 20 bytes each, back to back.
    var initialKeys: [UInt8] = []
    var initialScores: [Double] = []
    var ops: [Op] = []
    /// The key of each event, 20 bytes each, back to back.
    var keys: [UInt8] = []
    /// The new score (update, add).
    var scores: [Double] = []
    /// The score before the event (update, remove), for baselines that need it to find the row.
    var oldScores: [Double] = []

    /// 40% change of score, 30% add, 30% remove, on uniformly chosen live keys.
    init(size: Int, events: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let all = Generator.keys(count: size + events, seed: seed)
        var live = Array(0..<size)
        var score = [Double](repeating: 0, count: size + events)
        var next = size
        initialKeys.reserveCapacity(size * Self.keyLength)
        for i in 0..<size {
            score[i] = Double(random.next() % 1_000_000)
            initialKeys.append(contentsOf: all[i])
            initialScores.append(score[i])
        }
        keys.reserveCapacity(events * Self.keyLength)
        for _ in 0..<events {
            let what = random.next() % 10
            let new = Double(random.next() % 1_000_000)
            if what < 4 && !live.isEmpty {
                let k = live[Int(random.next() % UInt64(live.count))]
                append(.update, all[k], new: new, old: score[k])
                score[k] = new
            } else if what < 7 || live.isEmpty {
                let k = next
                next += 1
                live.append(k)
                score[k] = new
                append(.add, all[k], new: new, old: 0)
            } else {
                let at = Int(random.next() % UInt64(live.count))
                let k = live[at]
                live.swapAt(at, live.count - 1)
                live.removeLast()
                append(.remove, all[k], new: 0, old: score[k])
            }
        }
        finalCount = live.count
    }

    /// Children left once every event is applied.
    private(set) var finalCount = 0

    private mutating func append(_ op: Op, _ key: [UInt8], new: Double, old: Double) {
        ops.append(op)
        keys.append(contentsOf: key)
        scores.append(new)
        oldScores.append(old)
    }
}
