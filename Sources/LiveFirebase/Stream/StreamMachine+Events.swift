// StreamMachine+Events.swift — the bytes of an open stream, its events and
// their payloads.
import LiveModel

extension StreamMachine {
    /// Bytes of the current response: an error body, or events.
    mutating func receive(_ bytes: [UInt8], _ actions: inout [Action]) {
        switch phase {
        case .readingError:
            collectErrorBody(bytes, &actions)
        case .open:
            actions.append(.armKeepAlive(configuration.keepAliveTimeout))
            let items: [SSEItem]
            do { items = try parser.feed(bytes) } catch {
                end(.invalidResponse("\(error) (StreamConfiguration.maxEventBytes) from \(redactedURL)"), &actions)
                return
            }
            for item in items {
                guard phase == .open else { return }  // an event closed the connection
                switch item {
                case .event(let event): handle(event, &actions)
                case .retry(let milliseconds): serverRetry(milliseconds)
                }
            }
        case .idle, .connecting, .waiting, .ended:
            break
        }
    }

    /// One event of the open stream.
    mutating func handle(_ event: ServerSentEvent, _ actions: inout [Action]) {
        switch event.name {
        case "put":
            guard let payload = parse(event, kind: .put, &actions) else { return }
            resetBackoff()
            actions.append(.deliver(.put(payload)))
        case "patch":
            guard let payload = parse(event, kind: .patch, &actions) else { return }
            actions.append(.deliver(.patch(payload)))
        case "keep-alive":
            break
        case "cancel":
            let reason = Self.eventText(event)
            end(.permissionDenied(reason.isEmpty ? "the server cancelled the stream" : reason), &actions)
        case "auth_revoked":
            if canRefresh {
                renewCredential(&actions)
            } else {
                end(.authRevoked, &actions)
            }
        default:
            break
        }
    }

    /// The event's payload, or nil after closing the connection to
    /// reconnect: the `put` at `/` that follows every connect heals
    /// whatever the lost event would have changed.
    private mutating func parse(_ event: ServerSentEvent, kind: StreamPayload.Kind,
                                _ actions: inout [Action]) -> StreamPayload? {
        do {
            return try StreamPayload.parse(json: event.data, kind: kind, order: order)
        } catch {
            fail(.invalidResponse("a \(event.name) event whose data is not a valid payload: \(error)"), &actions)
            return nil
        }
    }

    /// The text of a `cancel` event's data: a JSON string's content, or
    /// the data itself.
    static func eventText(_ event: ServerSentEvent) -> String {
        if case .string(let text)? = try? JSONValue(parsingUTF8: event.data) { return shortened(text) }
        if case .null? = try? JSONValue(parsingUTF8: event.data) { return "" }
        return shortened(event.text)
    }
}
