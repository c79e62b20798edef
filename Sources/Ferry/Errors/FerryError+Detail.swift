import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FerryError {
    /// What an underlying error says beyond the ``Reason``, found when a transport's error is mapped, in words for
    /// the message. Internal: the reason is what programs switch on; this only makes the sentence more exact.
    enum Detail: Sendable, Hashable {
        /// Nothing listens on the port (`ECONNREFUSED`).
        case connectionRefused
        /// The connection attempt ran out of time.
        case connectTimedOut
        /// No route to the host.
        case hostUnreachable
        /// No route to the host's network.
        case networkUnreachable
        /// The peer reset the connection (`ECONNRESET`, `EPIPE`).
        case connectionReset
        /// The server closed the connection before the response was complete.
        case connectionClosed
        /// The body ended before the length its `Content-Length` announced.
        case bodyShorterThanAnnounced
        /// What is wrong with a response that is not valid HTTP, as a phrase ("a chunk size is malformed").
        case malformedResponse(String)
        /// Another system error number.
        case systemError(Int32)
        /// The proxy did not open the way to the server, in words ("the proxy asked for credentials").
        case proxyFailed(String)
        /// The connection to the proxy failed (`proxy` as its description shows it, without a password), `why` in
        /// words ("connection refused").
        case proxyUnreachable(proxy: String, why: String)
        /// Why the TLS handshake failed, in words ("the server's certificate could not be verified").
        case tlsFailed(String)
        /// ``FerryError/decodeBody(as:using:)`` found no body to decode.
        case noBodyToDecode
        /// ``FerryError/decodeBody(as:using:)`` failed on a body that may have been cut at
        /// ``FerryError/bodyPrefixLimit``.
        case bodyPrefixMayBeTruncated

        /// The detail as a phrase that can follow a colon: `"connection refused"`.
        var phrase: String {
            switch self {
            case .connectionRefused: "connection refused"
            case .connectTimedOut: "the connection attempt timed out"
            case .hostUnreachable: "host unreachable"
            case .networkUnreachable: "network unreachable"
            case .connectionReset: "the connection was reset"
            case .connectionClosed: "the server closed the connection"
            case .bodyShorterThanAnnounced: "the body ended before its announced length"
            case .malformedResponse(let what): what
            case .systemError(let code): systemErrorText(code)
            case .proxyFailed(let why): why
            case .proxyUnreachable(let proxy, let why): "could not reach the proxy \(proxy): \(why)"
            case .tlsFailed(let why): why
            case .noBodyToDecode: "there is no body to decode"
            case .bodyPrefixMayBeTruncated: "the body may have been cut"
            }
        }

        /// The detail a POSIX error number stands for.
        init(errno code: Int32) {
            switch code {
            case ECONNREFUSED: self = .connectionRefused
            case ECONNRESET, EPIPE, ECONNABORTED: self = .connectionReset
            case ETIMEDOUT: self = .connectTimedOut
            case EHOSTUNREACH, EHOSTDOWN: self = .hostUnreachable
            case ENETUNREACH, ENETDOWN: self = .networkUnreachable
            default: self = .systemError(code)
            }
        }
    }
}

/// The system's text for an error number, starting with a lowercase letter (`"no space left on device"`).
func systemErrorText(_ code: Int32) -> String {
    guard let text = strerror(code).map({ String(cString: $0) }), !text.isEmpty else {
        return "system error \(code)"
    }
    return MessageText.lowercasingFirst(text)
}
