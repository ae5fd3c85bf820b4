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
        do {
            target = try RequestTarget(uri: request.uri)
            options = try RequestOptions(target.parameters)
            query = try DatabaseQuery.requested(by: target.parameters)
        } catch {
            return .refused(.error(error))
        }
        let token = request.token(target.parameters)
        return lock.withLock {
            guard isAuthorized(token) else { return .refused(.error(ServerCore.permissionDenied)) }
            for case .redirect(let port) in globalFaults { return .redirect(port: port) }
            let listener = Listener(id: nextListenerID, channel: channel, path: target.path, query: query,
                                    export: options.export, token: token, limit: configuration.listenerBufferLimit)
            nextListenerID += 1
            listener.faults = globalFaults
            listeners[listener.id] = listener
            let node = store.get(target.path)
            let export = options.export
            guard listener.faults.isEmpty else {
                if let query {
                    let window = ListenerWindow(query, of: node)
                    listener.window = window
                    listener.send(.put(.root) { window.write(to: &$0, export: export) })
                } else {
                    listener.send(.put(.root) { node.write(to: &$0, export: export) })
                }
                return .started(listener)
            }
            listener.startPreparing()
            if let query {
                prepareWindow(listener, query, from: node, export: export, attempt: 1)
            } else {
                DispatchQueue.global(qos: .userInitiated).async { [self] in
                    let (prefix, suffix) = FramedEvent.putFrame(.root)
                    let first = JSONTextChunks(node, export: export, prefix: prefix, suffix: suffix)
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
    /// under the lock, as writes at or above the location rebuild it.
    private func prepareWindow(_ listener: Listener, _ query: DatabaseQuery, from node: DataNode, export: Bool, attempt: Int) {
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let window = ListenerWindow(query, of: node)
            let first = window.firstPut(export: export)
            lock.withLock {
                guard listener.touchedWhilePreparing else {
                    listener.window = window
                    listener.deliverFirst(first)
                    return
                }
                listener.touchedWhilePreparing = false
                let current = store.get(listener.path)
                guard attempt >= 3 else {
                    prepareWindow(listener, query, from: current, export: export, attempt: attempt + 1)
                    return
                }
                let window = ListenerWindow(query, of: current)
                listener.window = window
                listener.deliverFirst(window.firstPut(export: export))
            }
        }
    }

    /// Forgets a stream whose connection closed.
    func closeStream(_ id: Int) {
        lock.withLock { _ = listeners.removeValue(forKey: id) }
    }

    /// Tells every listener the events `mutation` causes for it. Under `lock`.
    func publish(_ mutation: Mutation) {
        guard !listeners.isEmpty else { return }
        // Listeners without a query at one location, in one format, get the same events.
        var shared: [DatabasePath: [Bool: [FramedEvent]]] = [:]
        for listener in listeners.values {
            let events: [FramedEvent]
            if listener.query != nil {
                guard StreamPlanner.touches(mutation, listener.path) else { continue }
                guard let window = listener.window, !listener.isPreparing else {
                    // Its window is computed again from the new value.
                    listener.touchedWhilePreparing = true
                    continue
                }
                events = StreamPlanner.queryEvents(for: mutation, at: listener.path, in: store, export: listener.export,
                                                   window: window)
            } else if let known = shared[listener.path]?[listener.export] {
                events = known
            } else {
                events = StreamPlanner.events(for: mutation, at: listener.path, in: store, export: listener.export)
                shared[listener.path, default: [:]][listener.export] = events
            }
            for event in events { listener.send(event) }
        }
    }
}
