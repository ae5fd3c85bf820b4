// DatabaseStream+Connection.swift — a stream's connection and timers.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import LiveModel

extension DatabaseStream {
    /// Replaces the current connection with a request to `url` (nil: the
    /// query URL).
    func openConnection(_ url: URL?, forceRefresh: Bool) {
        closeConnection()
        connection += 1
        let id = connection
        connectionTask = Task { await self.runConnection(id: id, url: url, forceRefresh: forceRefresh) }
    }

    /// Cancels the current connection (closing it) and the keep-alive timer.
    func closeConnection() {
        connection += 1
        connectionTask?.cancel()
        connectionTask = nil
        firstPut = nil
        keepAliveDeadline = nil
        keepAliveTask?.cancel()
        keepAliveTask = nil
    }

    /// Gets a credential, opens the request and feeds its response to the
    /// machine, until the connection ends or is cancelled.
    private nonisolated func runConnection(id: Int, url: URL?, forceRefresh: Bool) async {
        let credential: Credential?
        do {
            credential = try await reference.credentials.credential(forceRefresh: forceRefresh)
        } catch {
            await handle(.credentialFailed(error), connection: id)
            return
        }
        let request = reference.request(method: "GET", parameters: url == nil ? query.streamParameters : [],
                                        url: url, accept: "text/event-stream", credential: credential)
        guard await willOpen(request, credential: credential, connection: id) else { return }
        do {
            for try await event in transport.open(request) {
                switch event {
                case .response(let status, let headers):
                    await handle(.response(status: status, headers: headers), connection: id)
                case .bytes(let bytes):
                    await handle(.bytes(bytes), connection: id)
                }
            }
            guard !Task.isCancelled else { return }
            await handle(.transportEnded(error: nil), connection: id)
        } catch {
            guard !Task.isCancelled else { return }
            await handle(.transportEnded(error: redactor.describe(error)), connection: id)
        }
    }

    /// Remembers the credential's token for redaction and logs the
    /// request; false when the connection is no longer current.
    private func willOpen(_ request: URLRequest, credential: Credential?, connection id: Int) -> Bool {
        redactor.remember(credential)
        guard id == connection else { return false }
        let url = request.url.map { redactor.scrub(QueryEncoding.redact($0.absoluteString)) } ?? "?"
        logger.debug("connecting", metadata: ["url": "\(url)", "credential": "\(credential.map { "\($0)" } ?? "none")"])
        return true
    }

    // MARK: Timers

    /// Moves the keep-alive deadline; one timer task follows it, so bytes
    /// arriving often cost no task each.
    ///
    /// The deadline is taken from the clock here, before any message of
    /// the same input reaches the consumer.
    func armKeepAlive(_ timeout: Duration) {
        keepAliveDeadline = clock.now.advanced(by: timeout)
        guard keepAliveTask == nil else { return }
        keepAliveTask = Task { await self.watchKeepAlive() }
    }

    private func watchKeepAlive() async {
        while let deadline = keepAliveDeadline {
            if clock.now >= deadline {
                keepAliveDeadline = nil
                keepAliveTask = nil
                handle(.keepAliveTimeout)
                return
            }
            try? await clock.sleep(until: deadline, tolerance: nil)
            if Task.isCancelled { return }
        }
    }

    /// Fires the reconnect `delay` after now (taken from the clock here,
    /// before the consumer is told of the disconnection).
    func scheduleReconnect(after delay: Duration) {
        reconnectTask?.cancel()
        let current = run
        let deadline = clock.now.advanced(by: delay)
        reconnectTask = Task {
            try? await self.clock.sleep(until: deadline, tolerance: nil)
            guard !Task.isCancelled else { return }
            self.reconnectTimerFired(run: current)
        }
    }

    private func reconnectTimerFired(run fired: Int) {
        guard fired == run else { return }
        reconnectTask = nil
        handle(.reconnectTimerFired)
    }
}
