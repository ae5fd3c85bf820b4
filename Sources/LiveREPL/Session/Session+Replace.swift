// Session+Replace.swift — a new query, new sections or a new load mode: a
// new collection, reported as the change from what was shown.

import LiveCollection
import LiveFirebase
import LiveModel
import LiveSections

extension Session {
    func load(_ request: Command.LoadRequest) async throws(REPLError) {
        switch request {
        case .live: try await replace(options: options, mode: .live)
        case .all: try await replace(options: options, mode: .all)
        case .page(let size): try await replace(options: options, mode: .paged(size: size))
        case .next:
            guard case .paged = mode else {
                throw .usage(command: "load", problem: "load next needs pages; start them with load page N",
                             usage: usage(of: "load"))
            }
            guard firebase.hasMorePages else { return }
            if isOffline {
                // The next page opens a new (offline) stream and waits for
                // the location's value: give it what was injected.
                let pages = firebase.pages
                let target = firebase
                let next = Task { try await target.loadNextPage() }
                while target.pages == pages { await Task.yield() }
                try await feedOffline(target)
                do { try await next.value } catch { throw .database(error as? DatabaseError ?? .stopped) }
            } else {
                do { try await firebase.loadNextPage() } catch { throw .database(error) }
            }
        }
    }

    /// Replaces the collection with one of `options` in `mode`. On failure
    /// the old one stays, listening as before.
    func replace(options newOptions: QueryOptions, mode newMode: LoadMode) async throws(REPLError) {
        let before = view.snapshot()
        var oldDigests: [Key: ValueDigest] = [:]
        for model in firebase.collection.models { oldDigests[model.identifier] = model.digest }

        let next = try Self.collection(reference, newOptions, newMode, opener: opener)
        let nextView = SessionView(next.collection, sectionBy: try newOptions.sectionPath())
        recorder.attach(to: next, view: nextView)
        do {
            if isOffline { try await feedOffline(next) } else { try await Self.startFailingFast(next) }
        } catch {
            next.stop()
            recorder.attach(to: firebase, view: view)
            _ = recorder.take()
            throw error
        }
        let events = recorder.take().events
        firebase.stop()
        firebase = next
        view = nextView
        options = newOptions
        mode = newMode
        let after = view.snapshot()
        let stages = try SnapshotStages.stages(from: before, to: after) { key in
            oldDigests[key] != next.collection.model(for: key)?.digest
        }
        recorder.set(ChangeReport(stages: stages, events: events))
    }

    /// Gives an offline collection the whole injected value.
    func feedOffline(_ target: FirebaseCollection<REPLDataSource>) async throws(REPLError) {
        do { try await target.receive(.put, at: .root, json: offlineValue.jsonText()) } catch { throw .database(error) }
    }
}
