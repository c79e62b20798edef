import Foundation

extension TestResponse.Fault {
    /// `HTTP/1.1 200` (no reason phrase, which RFC 9112 §4 allows), the body `ok`, then a close.
    public static let noReasonPhrase = Self(
        sending: Data(
            "HTTP/1.1 200\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8),
        then: .close
    )

    /// A head without `Content-Length` or `Transfer-Encoding`: the body `1234` is delimited by the close
    /// (RFC 9112 §6.3, rule 8).
    public static let bodyUntilClose = Self(
        sending: Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n1234".utf8),
        then: .close
    )

    /// An interim `103 Early Hints` head, then the final `200 OK` with the body `ok`, then a close.
    public static let earlyHints = Self(
        sending: Data(
            ("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
                .utf8),
        then: .close
    )

    /// The status line `Http/1.1 200 OK`: the protocol name is case-sensitive (RFC 9112 §2.3), so this is not an
    /// HTTP response. A body `ok` with a length follows, then a close.
    public static let lowercaseVersion = Self(
        sending: Data(
            "Http/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok".utf8),
        then: .close
    )

    /// A chunked body cut short: the chunk `hello`, then a clean close instead of the last chunk.
    public static let truncatedChunkedBody = Self(
        sending: Data(
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n".utf8),
        then: .close
    )
}
