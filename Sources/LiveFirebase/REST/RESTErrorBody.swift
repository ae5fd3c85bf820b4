// RESTErrorBody.swift — what an error response means: its status and the
// server's own `{"error": "..."}` text.
import Foundation
import LiveModel

/// Reads error responses.
enum RESTErrorBody {
    /// Longest server text kept in an error.
    static let maxMessageLength = 300

    /// The error a non-`2xx` response (other than a redirect or a `401`)
    /// stands for: `403` is ``DatabaseError/permissionDenied(_:)``, `412`
    /// ``DatabaseError/etagMismatch(currentETag:currentValue:)`` (with the
    /// response's `ETag` and body), anything else
    /// ``DatabaseError/http(status:message:url:)``.
    static func error(for response: RESTClientResponse) -> DatabaseError {
        switch response.status {
        case 403:
            return .permissionDenied(message(response))
        case 412:
            guard let etag = response.etag, !etag.isEmpty else {
                return .invalidResponse("HTTP 412 from \(response.url) without the current ETag")
            }
            if response.body.isEmpty { return .etagMismatch(currentETag: etag, currentValue: .null) }
            do {
                return .etagMismatch(currentETag: etag, currentValue: try response.json())
            } catch {
                return error
            }
        default:
            return .http(status: response.status, message: message(response), url: response.url)
        }
    }

    /// The server's explanation: the `error` member of a JSON object body;
    /// else the start of a plain-text body; else the status's usual wording.
    /// Tokens are removed.
    static func message(_ response: RESTClientResponse) -> String {
        let text: String
        if case .object(let members)? = try? JSONValue(parsingUTF8: response.body),
           case .string(let error)? = members["error"] {
            text = error
        } else if let plain = plainText(response.body) {
            text = plain
        } else {
            text = HTTPStatus.reason(response.status)
        }
        let short = text.count > maxMessageLength ? String(text.prefix(maxMessageLength)) + "…" : text
        return RESTRedaction.scrub(short, secrets: response.secrets)
    }

    /// A body worth quoting: UTF-8 text that is not HTML, trimmed, on one
    /// line.
    private static func plainText(_ body: Data) -> String? {
        guard !body.isEmpty, let text = String(data: body, encoding: .utf8) else { return nil }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("<") else { return nil }
        return trimmed.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// The usual wording of HTTP statuses.
enum HTTPStatus {
    static func reason(_ status: Int) -> String {
        switch status {
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 412: return "Precondition Failed"
        case 413: return "Payload Too Large"
        case 429: return "Too Many Requests"
        case 500: return "Internal Server Error"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 300..<400: return "Redirection"
        case 400..<500: return "Client Error"
        case 500..<600: return "Server Error"
        default: return "Unexpected Status"
        }
    }
}
