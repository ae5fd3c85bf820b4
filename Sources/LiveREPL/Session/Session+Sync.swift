// Session+Sync.swift — waiting until the collection equals the server's own
// answer to the query: after a write, and for the `sync` command.

import LiveCollection
import LiveFirebase
import LiveModel

extension Session {
    /// Waits until the collection equals the server's answer to the
    /// collection's query, fetched over REST and filtered by the `--where`
    /// conditions: the same keys in the same order, with the same values.
    /// Offline, there is nothing to wait for.
    ///
    /// The wait follows the collection's updates (no polling): the answer is
    /// compared with the rows now and after each update, a chunk at a time
    /// (``ServerAnswer/matches(_:)``). When the collection keeps changing
    /// under the comparison — an update comes while one runs, or after the
    /// collection had moved past an answer read again — another client
    /// writes all the time, and the wait follows the collection as a
    /// fingerprint instead (``ChurnSync``), until it holds one of the
    /// answers read since. When the deadline passes, the server is asked
    /// once more.
    /// - Parameters:
    ///   - command: The command's name, for the error.
    ///   - seconds: How long to wait.
    /// - Returns: The number of children in the collection.
    /// - Throws: ``REPLError/outOfSync(command:seconds:detail:)`` when the
    ///   collection still differs after `seconds`; ``REPLError/database(_:)``
    ///   when the server cannot be read.
    /// - Complexity: O(n) per comparison for n rows, O(``ServerAnswer/chunk``)
    ///   at a time on the main actor. While the collection keeps changing:
    ///   O(n) on the main actor once (a copy of the rows, hashed away from
    ///   it), then O(t) per update of t children, and a read of the query
    ///   after each update, one at a time.
    @discardableResult
    func waitUntilCurrent(command: String, seconds: Double) async throws(REPLError) -> Int {
        guard client != nil else { return firebase.collection.count }
        // The writes made first: the server's answer is to hold them.
        await finishWrites(seconds: seconds)
        let collection = firebase.collection
        let waiter = SyncWaiter()
        var churn: ChurnSync?
        defer { churn?.cancel() }
        // The answer compared; nil until the first one is read.
        var expected: ServerAnswer?
        var failure: REPLError?
        // Compared now and after each update, one comparison at a time: an
        // update while one runs asks for one more when it ends.
        var comparing = false, again = false
        // Updates since the answer compared was read (its read included),
        // and comparisons that missed after one.
        var movedSinceAnswer = false, misses = 0
        func followChurn() {
            guard churn == nil, !waiter.isFinished else { return }
            churn = ChurnSync(collection, waiter: waiter) { () async throws(REPLError) -> ServerAnswer in
                try await self.serverAnswer(fingerprinted: true)
            }
        }
        func compare() {
            guard churn == nil, !waiter.isFinished, expected != nil else { return }
            guard !comparing else { return again = true }
            comparing = true
            Task { @MainActor in
                defer { comparing = false }
                repeat {
                    again = false
                    guard let answer = expected, !waiter.isFinished else { return }
                    switch await answer.matches(collection) {
                    case true?: return waiter.finish(true)
                    case nil: return followChurn() // changed under the comparison
                    case false?:
                        guard movedSinceAnswer else { break } // not there yet
                        misses += 1
                        if misses > 1 { return followChurn() }
                        // The collection may have moved past the answer: a newer one.
                        movedSinceAnswer = false
                        do throws(REPLError) { expected = try await serverAnswer(fingerprinted: false) } catch {
                            failure = error
                            return waiter.finish(false)
                        }
                        again = true
                    }
                } while again && churn == nil
            }
        }
        // Followed from before the first read: an update during it counts.
        let watch = firebase.observeValue {
            movedSinceAnswer = true
            compare()
        }
        defer { watch.cancel() }
        expected = try await serverAnswer(fingerprinted: false)
        compare()
        let timer = Task { @MainActor in
            try? await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded(.up))))
            waiter.finish(false)
        }
        defer { timer.cancel() }
        if await waiter.wait() { return collection.count }
        if let failure = failure ?? churn?.failure { throw failure }
        // Once more, in one step.
        let last = try await serverAnswer(fingerprinted: false)
        if last.matchesNow(collection) { return last.children.count }
        throw .outOfSync(command: command, seconds: seconds, detail: await last.difference(from: collection))
    }

    private func serverAnswer(fingerprinted: Bool) async throws(REPLError) -> ServerAnswer {
        guard let client else { return ServerAnswer(children: [], fingerprinted: fingerprinted) }
        let snapshot: Snapshot
        do { snapshot = try await client.get(query: firebase.effectiveQuery) } catch { throw .database(error) }
        // The rows are the children that meet the --where conditions.
        return await ServerAnswer.make(snapshot, filter: try options.filter(), fingerprinted: fingerprinted)
    }
}
