// StreamMachine+Responses.swift — answering a stream request: open,
// redirect, renew the credential, reconnect or end.
import Foundation
import LiveModel

extension StreamMachine {
    /// The statuses that redirect.
    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Handles the answer to the current request.
    mutating func respond(status: Int, headers: [String: String], _ actions: inout [Action]) {
        forceRefresh = false
        let contentType = headers["content-type"] ?? ""
        if status == 200, contentType.lowercased().hasPrefix("text/event-stream") {
            phase = .open
            redirects = 0
            renewed = false
            // The timer runs before anyone hears of the connection, so the
            // silence it measures starts with the response.
            actions.append(.armKeepAlive(configuration.keepAliveTimeout))
            actions.append(.deliver(.connected))
            return
        }
        if Self.redirectStatuses.contains(status) {
            redirect(status: status, location: headers["location"], &actions)
            return
        }
        redirects = 0
        phase = .readingError
        errorStatus = status
        errorContentType = contentType
        errorBody = []
    }

    /// Follows a redirect, keeping the credential (the driver applies it to
    /// the new URL), where ``RedirectRule`` allows it; else the stream ends.
    private mutating func redirect(status: Int, location: String?, _ actions: inout [Action]) {
        redirects += 1
        guard redirects <= configuration.maxRedirects else {
            end(.tooManyRedirects(redirects), &actions)
            return
        }
        guard let location, let target = URL(string: location, relativeTo: currentURL)?.absoluteURL,
              let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
              target.host != nil else {
            let shown = location.map { " (\(QueryEncoding.redact($0)))" } ?? ""
            fail(.invalidResponse("a \(status) redirect without a usable Location\(shown) from \(redactedURL)"), &actions)
            return
        }
        if let reason = RedirectRule.refusal(from: currentURL, to: target, origin: url) {
            end(.invalidResponse("a \(status) redirect from \(redactedURL) to \(QueryEncoding.redact(location)) refused: \(reason)"),
                &actions)
            return
        }
        actions.append(.closeConnection)
        connect(target, forceRefresh: false, &actions)
    }

    /// Collects the body of an error response, up to a limit.
    mutating func collectErrorBody(_ bytes: [UInt8], _ actions: inout [Action]) {
        errorBody.append(contentsOf: bytes.prefix(Self.errorBodyLimit - errorBody.count))
        if errorBody.count >= Self.errorBodyLimit {
            concludeError(&actions)
        } else {
            actions.append(.armKeepAlive(configuration.keepAliveTimeout))
        }
    }

    /// Acts on an error response once its body is read.
    mutating func concludeError(_ actions: inout [Action]) {
        let status = errorStatus
        let message = Self.serverMessage(errorBody)
        errorBody = []
        switch status {
        case 401:
            if canRefresh && !renewed {
                renewCredential(&actions)
            } else {
                end(.permissionDenied(message.isEmpty ? "the credential was refused (401)" : message), &actions)
            }
        case 403:
            end(.permissionDenied(message.isEmpty ? "access is denied (403)" : message), &actions)
        case 408, 429, 500...599:
            fail(.http(status: status, message: message, url: redactedURL), &actions)
        case 200...299:
            let type = errorContentType.isEmpty ? "no content type" : errorContentType
            fail(.invalidResponse("expected text/event-stream, got \(type) (status \(status)) from \(redactedURL)"),
                 &actions)
        case 400...499:
            end(.http(status: status, message: message, url: redactedURL), &actions)
        default:
            fail(.invalidResponse("unexpected status \(status) from \(redactedURL)"), &actions)
        }
    }

    /// The server's explanation in an error body: the `error` member of a
    /// JSON object (as the Realtime Database sends), or the text itself,
    /// shortened and without control characters.
    static func serverMessage(_ body: [UInt8]) -> String {
        if case .object(let members)? = try? JSONValue(parsingUTF8: body),
           case .string(let text)? = members["error"] {
            return shortened(text)
        }
        return shortened(String(decoding: body, as: UTF8.self))
    }

    /// At most 200 characters of `text` on one line, trimmed.
    static func shortened(_ text: String) -> String {
        let line = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        return trimmed.count > 200 ? String(trimmed.prefix(200)) + "…" : trimmed
    }
}
