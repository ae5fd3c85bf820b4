// ServerCore+Streams.swift — opening streams and telling them every change.

import Dispatch
import LiveModel
import NIOCore

/// How a stream request is answered.
enum StreamStart {
    /// Stream: the listener is registered and its first `put` queued.
    case started(Listener)
    /// A 307 to this port (the redirect fault).
    case redirect(port: Int)
    /// Refused, with this response.
    case refused(RESTResponse)
}

extension ServerCore {
    /// Registers a stream for `request` on `channel` and queues its first
    /// `put` (the value, or the query's window, at `/`). Write the response
    /// head before returning to the event loop: the events follow it.
    ///
    /// The first `put` is prepared off the server's lock and off the event
    /// loop, so a large location neither stalls the server nor leaves the
    /// client without a byte: keep-alives go out meanwhile. A plain stream's
    /// `put` is rendered from the value when the stream was registered, and
    /// the events published meanwhile follow it; a query stream's window is
    /// computed again if a write touches its location meanwhile (see
    /// ``prepareWindow(_:_:from:export:attempt:)``). A listener with faults,
    /// a test facility, gets its first `put` at once, so that faults count
    /// it first.
    func openStream(_ request: RESTRequest, on channel: any Channel) -> StreamStart {
        let target: RequestTarget
        let query: DatabaseQuery?
        let options: RequestOptions
        do throws(StoreError) {
            target = try RequestTarget(uri: request.uri)
            options = try RequestOptions(target.parameters)
            query = try DatabaseQuery.requested(by: target.parameters)
            if target.isPriority {
                throw .badRequest("A priority (.priority) cannot be streamed: listen to its node.")
            }
        } catch {
            return .refused(.error(error))
        }
        let token = request.token(target.parameters)
        // A query that keeps every child (an order alone) keeps no window:
        // its children are the location's.
        let filtering = query.flatMap { $0.filters ? $0 : nil }
        return lock.withLock {
            guard isAuthorized(token) else { return .refused(.error(ServerCore.permissionDenied)) }
            for case .redirect(let port) in globalFaults { return .redirect(port: port) }
            let listener = Listener(id: nextListenerID, channel: channel, path: target.path, query: query,
                                    export: options.export, token: token, limit: configuration.listenerBufferLimit)
            nextListenerID += 1
            listener.faults = globalFaults
            listeners.add(listener)
            let node = store.get(target.path)
            let export = options.export
            let shared = filtering.flatMap { listeners.window(at: target.path, $0) }
            guard listener.faults.isEmpty else {
                if let filtering {
                    let window = listeners.attach(listener, preparing: ListenerWindow(filtering, of: node))
                    listener.send(.put(.root) { window.write(to: &$0, export: export) })
                } else if query != nil {
                    listener.send(.put(.root) { StreamPlanner.writeChildren(of: node, to: &$0, export: export) })
                } else {
                    listener.send(.put(.root) { node.write(to: &$0, export: export) })
                }
                return .started(listener)
            }
            listener.startPreparing()
            if let shared {
                // Another stream keeps this window up to date: no read of the location.
                listeners.attach(listener, preparing: shared)
                listener.deliverFirst(shared.firstPut(export: export))
            } else if let filtering {
                prepareWindow(listener, filtering, from: node, export: export, attempt: 1)
            } else {
                let children = query != nil
                DispatchQueue.global(qos: .userInitiated).async { [self] in
                    let (prefix, suffix) = FramedEvent.putFrame(.root)
                    let first = children ? JSONTextChunks(members: node.children, export: export, prefix: prefix, suffix: suffix)
                                         : JSONTextChunks(node, export: export, prefix: prefix, suffix: suffix)
                    lock.withLock { listener.deliverFirst(first) }
                }
            }
            return .started(listener)
        }
    }

    /// Computes a query stream's first window from `node` (the value at its
    /// location) off the lock, with the ordered index a limited query keeps,
    /// then installs it and sends it, unless a write touched the location
    /// meanwhile: then it starts again from the value as it is now. After a
    /// few tries under a steady stream of writes, the window is computed
    /// under the lock, as writes at or above the location rebuild it. When
    /// another stream with the same query there installed its window
    /// meanwhile, the two share that one (both are the window over the
    /// location as it is now).
    private func prepareWindow(_ listener: Listener, _ query: DatabaseQuery, from node: DataNode, export: Bool, attempt: Int) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let window = ListenerWindow(query, of: node)
            let first = window.firstPut(export: export)
            lock.withLock {
                guard listeners[listener.id] != nil else { return }  // closed meanwhile
                guard listener.touchedWhilePreparing else {
                    listeners.attach(listener, preparing: window)
                    listener.deliverFirst(first)
                    return
                }
                listener.touchedWhilePreparing = false
                if let shared = listeners.window(at: listener.path, query) {
                    listeners.attach(listener, preparing: shared)
                    listener.deliverFirst(shared.firstPut(export: export))
                    return
                }
                let current = store.get(listener.path)
                guard attempt >= 3 else {
                    prepareWindow(listener, query, from: current, export: export, attempt: attempt + 1)
                    return
                }
                let window = listeners.attach(listener, preparing: ListenerWindow(query, of: current))
                listener.deliverFirst(window.firstPut(export: export))
            }
        }
    }

    /// Forgets a stream whose connection closed.
    func closeStream(_ id: Int) {
        lock.withLock { _ = listeners.remove(id) }
    }

    /// Tells every stream `mutation` concerns the events it causes for it,
    /// in the order the streams were added, and the indexes kept for reads
    /// what it changed. Under `lock`.
    ///
    /// Streams at one location in one format get the same events, made
    /// once: plain ones, and those whose query is an order alone; a window
    /// shared by several streams takes the mutation in once, and its events
    /// are made once per format.
    /// - Complexity: O(w · d + c log c) to find the c streams concerned (see
    ///   ``ListenerRegistry/concerned(by:)``), plus the events made.
    func publish(_ mutation: Mutation) {
        reads.takeIn(mutation, store: store)
        guard !listeners.isEmpty else { return }
        var plain: [DatabasePath: [Bool: [FramedEvent]]] = [:]
        var ordered: [DatabasePath: [Bool: [FramedEvent]]] = [:]
        var changes: [ObjectIdentifier: [ListenerWindow.Change]] = [:]
        var windowed: [ObjectIdentifier: [Bool: [FramedEvent]]] = [:]
        for listener in listeners.concerned(by: mutation) {
            let events: [FramedEvent]
            if let query = listener.query, !query.filters {
                if let known = ordered[listener.path]?[listener.export] {
                    events = known
                } else {
                    events = StreamPlanner.childEvents(for: mutation, at: listener.path, in: store, export: listener.export)
                    ordered[listener.path, default: [:]][listener.export] = events
                }
            } else if listener.query != nil {
                guard let window = listener.window, !listener.isPreparing else {
                    // Its window is computed again from the new value.
                    listener.touchedWhilePreparing = true
                    continue
                }
                let id = ObjectIdentifier(window)
                if let known = windowed[id]?[listener.export] {
                    events = known
                } else {
                    let told = changes[id] ?? StreamPlanner.windowChanges(for: mutation, at: listener.path, in: store,
                                                                          window: window)
                    changes[id] = told
                    events = StreamPlanner.events(telling: told, export: listener.export)
                    windowed[id, default: [:]][listener.export] = events
                }
            } else if let known = plain[listener.path]?[listener.export] {
                events = known
            } else {
                events = StreamPlanner.events(for: mutation, at: listener.path, in: store, export: listener.export)
                plain[listener.path, default: [:]][listener.export] = events
            }
            for event in events { listener.send(event) }
        }
    }
}
