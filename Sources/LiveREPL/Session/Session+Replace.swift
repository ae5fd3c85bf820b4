// Session+Replace.swift — a new query, new sections or a new load mode: a
// new collection, reported as the change from what was shown.

import LiveCollection
import LiveFirebase
import LiveModel
import LiveSections

extension Session {
    /// Switches the load mode, or loads the next page.
    /// - Returns: For `load older`, the rows the page prepended.
    func load(_ request: Command.LoadRequest) async throws(REPLError) -> Int? {
        switch request {
        case .live: try await replace(options: options, mode: .live)
        case .all: try await replace(options: options, mode: .all)
        case .page(let size): try await replace(options: options, mode: .paged(size: size))
        case .last(let size): try await replace(options: options, mode: .pagedFromEnd(size: size))
        case .next, .older:
            if request == .older, case .pagedFromEnd = mode {} else if request == .older {
                throw .usage(command: "load", problem: "load older needs pages from the end; start them with load last N",
                             usage: usage(of: "load"))
            }
            guard mode.pageSize != nil else {
                throw .usage(command: "load", problem: "load next needs pages; start them with load page N or load last N",
                             usage: usage(of: "load"))
            }
            guard firebase.hasMorePages else { return request == .older ? 0 : nil }
            let added: Int
            if isOffline {
                // Each stream the next page opens (one, or from the end two)
                // is offline and waits for the location's value: give each
                // what was injected.
                let target = firebase
                let outcome = PageOutcome()
                Task { do throws(DatabaseError) { outcome.added = .success(try await target.loadNextPage()) } catch { outcome.added = .failure(error) } }
                var fed = target.generation
                while outcome.added == nil {
                    if target.generation != fed {
                        fed = target.generation
                        try await feedOffline(target)
                    }
                    await Task.yield()
                }
                switch outcome.added {
                case .success(let n)?: added = n
                case .failure(let error)?: throw .database(error)
                case nil: added = 0
                }
            } else {
                do { added = try await firebase.loadNextPage() } catch { throw .database(error) }
            }
            return request == .older ? added : nil
        }
        return nil
    }

    /// Replaces the collection with one of `options` in `mode`. On failure
    /// the old one stays, listening as before. A new query (in any order)
    /// in the same load mode, with sections by a child before and after (or
    /// by none), changes the live collection: its query and filter
    /// (``FirebaseCollection/setQuery(_:filter:)``, or
    /// ``FirebaseCollection/setFilter(_:)`` alone when the query stays),
    /// then its sections
    /// (``SectionedCollection/setSections(by:)``).
    func replace(options newOptions: QueryOptions, mode newMode: LoadMode) async throws(REPLError) {
        let newQuery = try newOptions.query(), newSections = try newOptions.sectionPath()
        // The writes made first: a window the server cuts is then read with
        // them (a pending removal would otherwise leave it short until the
        // server's next change).
        await finishWrites(seconds: writeTimeout)
        // The same load mode, and sections by a child before and after (or
        // by none before and after): the live collection changes.
        if newMode == mode, (newSections == nil) == (view.sectionPath == nil) {
            // Validated first: a refused query changes nothing.
            do { _ = try newQuery.validated() } catch { throw .invalidQuery(error.reason) }
            let newFilter = try newOptions.filter()
            if newQuery == firebase.query, newOptions.conditions != options.conditions {
                // Only the filter changes: the query's children are filtered
                // again, without listening anew.
                firebase.setFilter(newFilter)
            } else {
                try await requery(newQuery, filter: newFilter)
            }
            // Once the new query is in: a failed query changes nothing.
            if let newSections { view.setSectionPath(newSections) }
            options = newOptions
            return
        }
        // What the old collection reported so far (the writes' answers, the
        // server's changes while they were awaited) leads the report, and the
        // diff starts from what it left shown.
        let earlier = recorder.take()
        let before = view.snapshot()
        var oldDigests: [Key: ValueDigest] = [:]
        for model in firebase.collection.models { oldDigests[model.identifier] = model.digest }

        let next = try Self.collection(reference, newOptions, newMode, opener: opener, cache: firebase.cache, writer: writer)
        let nextView = SessionView(next.collection, sectionBy: try newOptions.sectionPath())
        recorder.attach(to: next, view: nextView)
        do {
            if isOffline {
                try await feedOffline(next)
            } else if next.cache != nil {
                try await Self.startCacheFirst(next)
            } else {
                try await Self.startFailingFast(next)
            }
        } catch {
            next.stop()
            _ = recorder.take()
            recorder.attach(to: firebase, view: view)
            // The old collection went on listening unrecorded meanwhile:
            // what it shows now is reported as the change from `before`.
            var kept = earlier
            let firebase = firebase
            if let since = try? SnapshotStages.stages(from: before, to: view.snapshot(), contents: recorder.recordsContents,
                                                      isUpdated: { oldDigests[$0] != firebase.collection.model(for: $0)?.digest }) {
                kept.stages += since
            }
            recorder.set(kept)
            throw error
        }
        let taken = recorder.take()
        firebase.stop()
        firebase = next
        view = nextView
        options = newOptions
        mode = newMode
        let after = view.snapshot()
        let stages = try SnapshotStages.stages(from: before, to: after, contents: recorder.recordsContents) { key in
            oldDigests[key] != next.collection.model(for: key)?.digest
        }
        recorder.set(earlier.followed(by: ChangeReport(stages: stages, events: taken.events, writes: taken.writes)))
    }

    /// Changes the live collection's query: its stages and the new
    /// listener's events are gathered as any command's. A stream that
    /// loses its connection before the new value is in fails the command,
    /// and the collection listens with its old query again.
    private func requery(_ newQuery: DatabaseQuery, filter: (@Sendable (Snapshot) -> Bool)?) async throws(REPLError) {
        let target = firebase
        let validated: DatabaseQuery
        do { validated = try newQuery.validated() } catch { throw .invalidQuery(error.reason) }
        var lost: DatabaseError?, connecting = false, loaded = false
        let watch = target.observeStatus { status in
            switch status {
            case .connecting: connecting = true
            case .live: loaded = loaded || connecting
            case .reconnecting(let error) where lost == nil && !loaded:
                // Lost before the new value came: the command fails.
                lost = error
                target.stop()
            default: break
            }
        }
        defer { watch.cancel() }
        let change = Task { try await target.setQuery(validated, filter: filter) }
        if isOffline {
            // The new (offline) stream waits for the location's value: once
            // it is open, give it what was injected.
            let listening = target.generation
            while target.generation == listening { await Task.yield() }
            try await feedOffline(target)
        }
        do {
            try await change.value
        } catch {
            if lost != nil { Task { try? await target.start() } }
            throw .database(lost ?? error as? DatabaseError ?? .stopped)
        }
    }

    /// Gives an offline collection the whole injected value.
    func feedOffline(_ target: FirebaseCollection<REPLDataSource>) async throws(REPLError) {
        do { try await target.receive(.put, at: .root, json: offlineValue.jsonText()) } catch { throw .database(error) }
    }
}

/// The outcome of a page load in an offline session, once it is in.
@MainActor
private final class PageOutcome {
    var added: Result<Int, DatabaseError>?
}
