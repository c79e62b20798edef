@testable import Ferry
import FerryTestServer
import FerryTesting
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if AsyncHTTPClient
import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
#endif

/// A message pinned for one error.
struct GoldenMessage: Sendable, CustomTestStringConvertible {
    let name: String
    let error: FerryError
    let expected: String

    var testDescription: String { name }
}

/// A request as the pipeline hands it to an error: every setting resolved.
private func sent(_ url: String = "http://127.0.0.1:8080/x", method: Ferry.HTTPMethod = .get) -> Request {
    var request = Request(method, url: URL(string: url)!)
    request.idleTimeout = .milliseconds(150)
    request.totalTimeout = .milliseconds(2500)
    request.maximumBodySize = 10 << 20
    return request
}

private func head(_ status: Int, _ headers: Ferry.HTTPHeaders = [:]) -> HTTPResponse {
    HTTPResponse(statusCode: status, headers: headers, url: URL(string: "http://127.0.0.1:8080/x")!)
}

private func error(
    _ reason: FerryError.Reason, request: Request? = sent(), response: HTTPResponse? = nil, body: String? = nil,
    detail: FerryError.Detail? = nil, underlyingError: (any Error)? = nil
) -> FerryError {
    var error = FerryError(
        reason, request: request, response: response, body: body.map { Data($0.utf8) },
        underlyingError: underlyingError)
    error.detail = detail
    return error
}

private struct APIError: Decodable, Equatable {
    var code: String
    var message: String
}

private let x = "GET http://127.0.0.1:8080/x"

@Suite("Error messages")
struct ErrorMessageTests {
    struct MissingSignature: Error {}

    static let goldens: [GoldenMessage] = [
        GoldenMessage(
            name: "invalidURL without a request", error: error(.invalidURL("\"::\" is not a URL"), request: nil),
            expected: "The request failed: the URL is invalid: \"::\" is not a URL."),
        GoldenMessage(
            name: "invalidURL",
            error: error(
                .invalidURL("\"users/1\" is relative and the session has no base URL"),
                request: Request(url: URL(string: "users/1")!)),
            expected: "GET users/1 failed: the URL is invalid: \"users/1\" is relative and the session has no base URL."
        ),
        GoldenMessage(
            name: "invalidRequest", error: error(.invalidRequest("header \"X-Evil\" contains CR, LF or NUL")),
            expected: "\(x) failed: the request is invalid: header \"X-Evil\" contains CR, LF or NUL."),
        GoldenMessage(
            name: "hostNotFound", error: error(.transport(.hostNotFound), request: sent("http://nosuch.invalid/")),
            expected: "GET http://nosuch.invalid/ failed: host not found: nosuch.invalid."),
        GoldenMessage(
            name: "cannotConnect, refused",
            error: error(.transport(.cannotConnect), request: sent("http://127.0.0.1:1/"), detail: .connectionRefused),
            expected: "GET http://127.0.0.1:1/ failed: could not connect to 127.0.0.1:1: connection refused."),
        GoldenMessage(
            name: "cannotConnect, timed out",
            error: error(.transport(.cannotConnect), request: sent("http://10.255.255.1/"), detail: .connectTimedOut),
            expected: "GET http://10.255.255.1/ failed: could not connect to 10.255.255.1:80: "
                + "the connection attempt timed out."),
        GoldenMessage(
            name: "cannotConnect, unreachable",
            error: error(
                .transport(.cannotConnect), request: sent("https://[::1]:8443/"), detail: .hostUnreachable),
            expected: "GET https://[::1]:8443/ failed: could not connect to [::1]:8443: host unreachable."),
        GoldenMessage(
            name: "cannotConnect, nothing more known",
            error: error(.transport(.cannotConnect), request: sent("http://localhost/")),
            expected: "GET http://localhost/ failed: could not connect to localhost:80."),
        GoldenMessage(
            name: "connectionLost before the head, reset",
            error: error(.transport(.connectionLost), detail: .connectionReset),
            expected: "\(x) failed: the connection to 127.0.0.1:8080 was reset before a response arrived."),
        GoldenMessage(
            name: "connectionLost in the body",
            error: error(
                .transport(.connectionLost), response: head(200, ["Content-Length": "10485760"]),
                detail: .connectionClosed),
            expected: "\(x) failed: the connection to 127.0.0.1:8080 was closed by the server before the body was "
                + "complete (10 MiB announced)."),
        GoldenMessage(
            name: "connectionLost, body shorter than announced",
            error: error(
                .transport(.connectionLost), response: head(200, ["Content-Length": "1000"]),
                detail: .bodyShorterThanAnnounced),
            expected: "\(x) failed: the body ended before the 1000 bytes its Content-Length announced."),
        GoldenMessage(
            name: "invalidResponse",
            error: error(.transport(.invalidResponse), detail: .malformedResponse("a chunk size is malformed")),
            expected: "\(x) failed: the response from 127.0.0.1:8080 is not valid HTTP: a chunk size is malformed."),
        GoldenMessage(
            name: "secureConnectionFailed",
            error: error(.transport(.secureConnectionFailed), request: sent("https://127.0.0.1:8443/")),
            expected: "GET https://127.0.0.1:8443/ failed: could not establish a secure connection to 127.0.0.1:8443."),
        GoldenMessage(
            name: "notConnected", error: error(.transport(.notConnected)),
            expected: "\(x) failed: the device is not connected to a network."),
        GoldenMessage(
            name: "unsupportedHost",
            error: error(.transport(.unsupportedHost), request: sent("http://[::1]:8083/x.json")),
            expected: "GET http://[::1]:8083/x.json failed: URLSession on Linux (FoundationNetworking) cannot reach "
                + "IPv6 literal hosts such as [::1]."),
        GoldenMessage(
            name: "other, with a system error", error: error(.transport(.other), detail: .systemError(EACCES)),
            expected: "\(x) failed: the transport failed: permission denied."),
        GoldenMessage(
            name: "other", error: error(.transport(.other), underlyingError: MissingSignature()),
            expected: "\(x) failed: the transport failed with an error Ferry does not classify (see underlyingError)."),
        GoldenMessage(
            name: "idle timeout", error: error(.timedOut(.idle)),
            expected: "\(x) failed: nothing was sent or received for 150 ms (the idle timeout)."),
        GoldenMessage(
            name: "total timeout", error: error(.timedOut(.total)),
            expected: "\(x) failed: it took longer than the total timeout of 2.5 s."),
        GoldenMessage(
            name: "timeout without a request", error: error(.timedOut(.idle), request: nil),
            expected: "The request failed: nothing was sent or received for longer than the idle timeout."),
        GoldenMessage(
            name: "tooManyRedirects", error: error(.tooManyRedirects(limit: 10)),
            expected: "\(x) failed: it was redirected more than 10 times (the redirect policy's limit)."),
        GoldenMessage(
            name: "unacceptableStatus with a JSON body",
            error: error(.unacceptableStatus(500), response: head(500), body: "{\n  \"error\": \"boom\"\n}\n"),
            expected: "\(x) failed: the server answered 500 Internal Server Error. Body: { \"error\": \"boom\" }"),
        GoldenMessage(
            name: "unacceptableStatus without a body", error: error(.unacceptableStatus(404), response: head(404)),
            expected: "\(x) failed: the server answered 404 Not Found."),
        GoldenMessage(
            name: "unacceptableStatus, unregistered", error: error(.unacceptableStatus(599), response: head(599)),
            expected: "\(x) failed: the server answered 599."),
        GoldenMessage(
            name: "unacceptableContentType",
            error: error(
                .unacceptableContentType(received: "text/html", acceptable: ["application/json"]),
                response: head(200), body: "<html>\n<body>Gateway</body>\n</html>"),
            expected: "\(x) failed: the response's Content-Type is text/html, not application/json. "
                + "Body: <html> <body>Gateway</body> </html>"),
        GoldenMessage(
            name: "unacceptableContentType, none",
            error: error(
                .unacceptableContentType(received: nil, acceptable: ["application/json", "text/plain"]),
                response: head(200), body: "ok"),
            expected: "\(x) failed: the response has no Content-Type (expected one of application/json, text/plain). "
                + "Body: ok"),
        GoldenMessage(
            name: "validationFailed",
            error: error(.validationFailed, response: head(200), underlyingError: MissingSignature()),
            expected: "\(x) failed: the response (200 OK) failed validation: MissingSignature()."),
        GoldenMessage(
            name: "serializationFailed, key not found",
            error: error(
                .serializationFailed, response: head(200), body: "{\"user\":{}}",
                underlyingError: DecodingError.keyNotFound(
                    Key("code"), .init(codingPath: [Key("user")], debugDescription: "No value for code."))),
            expected: "\(x) failed: the response body could not be decoded: no value for the key \"code\" at user. "
                + "Body: {\"user\":{}}"),
        GoldenMessage(
            name: "serializationFailed, type mismatch",
            error: error(
                .serializationFailed, response: head(200), body: "{\"items\":[{\"id\":\"7\"}]}",
                underlyingError: DecodingError.typeMismatch(
                    Int.self,
                    .init(
                        codingPath: [Key("items"), Key(index: 0), Key("id")],
                        debugDescription: "Expected to decode Int but found a string instead."))),
            expected: "\(x) failed: the response body could not be decoded: expected to decode Int but found a string "
                + "instead at items[0].id. Body: {\"items\":[{\"id\":\"7\"}]}"),
        GoldenMessage(
            name: "bodyTooLarge", error: error(.bodyTooLarge(limit: 10 << 20)),
            expected: "\(x) failed: the response body is larger than the limit of 10 MiB."),
        GoldenMessage(
            name: "bodyTooLarge, inexact", error: error(.bodyTooLarge(limit: 1_000_000)),
            expected: "\(x) failed: the response body is larger than the limit of 976.6 KiB (1000000 bytes)."),
        GoldenMessage(
            name: "decompressionLimitExceeded", error: error(.decompressionLimitExceeded),
            expected: "\(x) failed: the response's compressed body expands beyond the transport's decompression limit."),
        GoldenMessage(
            name: "cancelled", error: error(.cancelled, underlyingError: FerryError(.cancelled)),
            expected: "\(x) was cancelled."),
        GoldenMessage(
            name: "cancelled without a request", error: error(.cancelled, request: nil),
            expected: "The request was cancelled."),
        GoldenMessage(
            name: "sessionShutDown", error: error(.sessionShutDown),
            expected: "\(x) was not sent: the session was shut down."),
        GoldenMessage(
            name: "destinationExists", error: error(.destinationExists(URL(fileURLWithPath: "/tmp/report.pdf"))),
            expected: "\(x) failed: the download destination /tmp/report.pdf already exists."),
        GoldenMessage(
            name: "fileSystemFailed",
            error: error(
                .fileSystemFailed("cannot write the download file /tmp/x.part"),
                underlyingError: POSIXError(.ENOSPC)),
            expected: "\(x) failed: cannot write the download file /tmp/x.part: no space left on device."),
        GoldenMessage(
            name: "fileSystemFailed, as Foundation reports it",
            error: error(
                .fileSystemFailed("cannot create /nonexistent/downloads"),
                underlyingError: CocoaError(.fileNoSuchFile, userInfo: [NSUnderlyingErrorKey: POSIXError(.ENOENT)])),
            expected: "\(x) failed: cannot create /nonexistent/downloads: no such file or directory."),
        GoldenMessage(
            name: "streamBufferOverflow", error: error(.streamBufferOverflow(limit: 4 << 20)),
            expected: "\(x) failed: the stream's reader fell behind and its buffer of 4 MiB filled up."),
        GoldenMessage(
            name: "streamBufferOverflow past Int64", error: error(.streamBufferOverflow(limit: .max)),
            expected: "\(x) failed: the stream's reader fell behind and its buffer overflowed."),
        GoldenMessage(
            name: "a password in the URL",
            error: error(.unacceptableStatus(401), request: sent("http://me:secret@127.0.0.1:8080/x")),
            expected: "GET http://me:***@127.0.0.1:8080/x failed: the server answered 401 Unauthorized."),
    ]

    @Test(arguments: goldens) func errorDescription(golden: GoldenMessage) {
        #expect(golden.error.errorDescription == golden.expected)
        #expect(golden.error.localizedDescription == golden.expected)
        #expect(golden.error.description == "\(golden.expected) [\(golden.error.reason)]")
        #expect(!golden.error.description.contains("\n"))
    }

    @Test func failureReasonIsTheMessageWithoutTheRequest() {
        #expect(error(.unacceptableStatus(404)).failureReason == "The server answered 404 Not Found.")
        #expect(
            error(.transport(.cannotConnect), request: sent("http://127.0.0.1:1/"), detail: .connectionRefused)
                .failureReason == "Could not connect to 127.0.0.1:1: connection refused.")
        #expect(error(.cancelled).failureReason == "The request was cancelled.")
        #expect(
            error(.sessionShutDown).failureReason == "The session was shut down before the request could start.")
    }

    @Test func recoverySuggestions() {
        #expect(
            error(.destinationExists(URL(fileURLWithPath: "/tmp/a"))).recoverySuggestion
                == "Set replacesExistingFile in DownloadOptions to replace it, or choose another destination.")
        #expect(
            error(.bodyTooLarge(limit: 10 << 20)).recoverySuggestion
                == "Raise maximumBodySize on the request or in Session.Configuration, "
                + "or download the body to a file with download(_:to:).")
        #expect(
            error(.bodyTooLarge(limit: 4096)).recoverySuggestion
                == "Raise the limit passed to collect(upTo:), or read the body as a stream.")
        #expect(
            error(.timedOut(.idle)).recoverySuggestion
                == "If the server is just slow, raise idleTimeout on the request or in Session.Configuration "
                + "(it is 150 ms).")
        #expect(
            error(.timedOut(.total)).recoverySuggestion
                == "Raise totalTimeout on the request or in Session.Configuration (it is 2.5 s), "
                + "or set it to nil for no limit.")
        #expect(
            error(.transport(.cannotConnect), request: sent("http://127.0.0.1:1/"), detail: .connectionRefused)
                .recoverySuggestion == "Check that a server is listening on 127.0.0.1:1.")
        #expect(
            error(.transport(.unsupportedHost), request: sent("http://[::1]:8083/x.json")).recoverySuggestion
                == "Use AsyncHTTPClientTransport (the package trait AsyncHTTPClient), "
                + "or a host name that resolves to [::1].")
        #expect(
            error(.transport(.connectionLost)).recoverySuggestion
                == "Retry the request; a failed download can continue from its resumeData.")
        #expect(
            error(.unacceptableStatus(503), response: head(503, ["Retry-After": "90"])).recoverySuggestion
                == "Retry in 1 min 30 s, as the server's Retry-After asks.")
        #expect(error(.unacceptableStatus(401)).recoverySuggestion == "Check the credentials the request sends.")
        #expect(
            error(.streamBufferOverflow(limit: 1024)).recoverySuggestion
                == "Read the stream faster, raise StreamOptions.bufferSize, "
                + "or allow more on disk with .spillToDisk(maximumBytes:).")
        #expect(
            error(.fileSystemFailed("cannot write /x"), underlyingError: POSIXError(.ENOSPC)).recoverySuggestion
                == "Free some disk space.")
        #expect(error(.cancelled).recoverySuggestion == nil)
        #expect(error(.unacceptableStatus(418)).recoverySuggestion == nil)
    }

    @Test func debugDescriptionAddsTheUnderlyingError() {
        let failure = error(.transport(.other), underlyingError: MissingSignature())
        #expect(
            failure.debugDescription
                == "\(failure.description) Underlying error: FerryTests.ErrorMessageTests.MissingSignature()")
        #expect(error(.cancelled).debugDescription == error(.cancelled).description)
    }

    // MARK: Mapping transport errors

    @Test func aRefusedURLSessionConnectionIsNamedWithoutItsNSErrorDump() {
        // As libcurl reports it on Linux with a message that names the cause, and as Apple platforms report it.
        let failingURL = URL(string: "http://127.0.0.1:1/x")!
        let linux = URLError(
            .cannotConnectToHost,
            userInfo: [
                NSLocalizedDescriptionKey: "Failed to connect to 127.0.0.1 port 1: Connection refused",
                NSURLErrorFailingURLErrorKey: failingURL,
            ])
        let apple = URLError(
            .cannotConnectToHost,
            userInfo: [
                "_kCFStreamErrorDomainKey": 1, "_kCFStreamErrorCodeKey": Int(ECONNREFUSED),
                NSURLErrorFailingURLErrorKey: failingURL,
            ])
        for underlying in [linux, apple] {
            let mapped = FerryError.mapping(underlying).adding(
                request: sent("http://127.0.0.1:1/x"), response: nil, body: nil)
            #expect(mapped.reason == .transport(.cannotConnect))
            #expect(
                mapped.errorDescription
                    == "GET http://127.0.0.1:1/x failed: could not connect to 127.0.0.1:1: connection refused.")
            #expect((mapped.underlyingError as? URLError)?.code == .cannotConnectToHost)
            #expect(!mapped.description.contains("NSURLErrorDomain"))
        }
    }

    @Test func urlSessionRefusingAnIPv6LiteralHostSaysSo() {
        // FoundationNetworking fails such a task with a bare URLError(.badURL) before libcurl connects.
        let ipv6 = URL(string: "http://[::1]:8083/x.json")!
        let refused = URLError(.badURL, userInfo: [NSURLErrorFailingURLErrorKey: ipv6])
        let mapped = FerryError.mapping(urlSessionError: refused, url: ipv6)
        #if canImport(FoundationNetworking)
        #expect(mapped.reason == .transport(.unsupportedHost))
        #expect((mapped.underlyingError as? URLError)?.code == .badURL)
        // Without a failing URL in the error, the request's URL decides.
        let bare = FerryError.mapping(urlSessionError: URLError(.badURL), url: ipv6)
        #expect(bare.reason == .transport(.unsupportedHost))
        #else
        #expect(mapped.reason == .invalidURL("rejected by the transport"))
        #endif
        // A bad URL with a host name is still what it was.
        let named = URL(string: "http://example.com/x")!
        #expect(
            FerryError.mapping(urlSessionError: URLError(.badURL), url: named).reason
                == .invalidURL("rejected by the transport"))
        #expect(
            FerryError.mapping(urlSessionError: URLError(.cannotConnectToHost), url: ipv6).reason
                == .transport(.cannotConnect))
    }

    @Test func urlSessionErrorsInWords() {
        func message(_ code: URLError.Code, _ text: String? = nil, url: String = "http://127.0.0.1:8080/x") -> String? {
            var info: [String: Any] = [NSURLErrorFailingURLErrorKey: URL(string: url)!]
            if let text { info[NSLocalizedDescriptionKey] = text }
            return FerryError.mapping(URLError(code, userInfo: info)).adding(
                request: sent(url), response: nil, body: nil
            )
            .errorDescription
        }
        #expect(
            message(.cannotFindHost, url: "http://nosuch.invalid/")
                == "GET http://nosuch.invalid/ failed: host not found: nosuch.invalid.")
        #expect(
            message(
                .cannotConnectToHost, "Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server")
                == "\(x) failed: could not connect to 127.0.0.1:8080.")
        #expect(
            message(.networkConnectionLost, "Recv failure: Connection reset by peer")
                == "\(x) failed: the connection to 127.0.0.1:8080 was reset before a response arrived.")
        #expect(
            message(.cannotDecodeContentData)
                == "\(x) failed: the response from 127.0.0.1:8080 is not valid HTTP: "
                + "its compressed body could not be decoded.")
        #expect(message(.timedOut) == "\(x) failed: nothing was sent or received for 150 ms (the idle timeout).")
    }

    #if AsyncHTTPClient
    @Test func asyncHTTPClientErrorsInWords() {
        func message(_ underlying: any Error, response: HTTPResponse? = nil) -> String? {
            FerryError.mappingAsyncHTTPClient(underlying).adding(request: sent(), response: response, body: nil)
                .errorDescription
        }
        #expect(
            message(IOError(errnoCode: ECONNREFUSED, reason: "connect"))
                == "\(x) failed: could not connect to 127.0.0.1:8080: connection refused.")
        #expect(
            message(HTTPClientError.connectTimeout)
                == "\(x) failed: could not connect to 127.0.0.1:8080: the connection attempt timed out.")
        // A request that waited longer than the connect timeout for a connection from the pool.
        #expect(
            message(HTTPClientError.getConnectionFromPoolTimeout)
                == "\(x) failed: could not connect to 127.0.0.1:8080: the connection attempt timed out.")
        #expect(
            message(IOError(errnoCode: ECONNRESET, reason: "read"))
                == "\(x) failed: the connection to 127.0.0.1:8080 was reset before a response arrived.")
        #expect(
            message(HTTPClientError.remoteConnectionClosed, response: head(200))
                == "\(x) failed: the connection to 127.0.0.1:8080 was closed by the server before the body was "
                + "complete.")
        #expect(
            message(HTTPClientError.bodyLengthMismatch, response: head(200, ["Content-Length": "2048"]))
                == "\(x) failed: the body ended before the 2 KiB its Content-Length announced.")
        #expect(
            message(HTTPParserError.invalidChunkSize)
                == "\(x) failed: the response from 127.0.0.1:8080 is not valid HTTP: a chunk size is malformed.")
        #expect(
            message(NIOHTTPDecompression.DecompressionError.limit)
                == "\(x) failed: the response's compressed body expands beyond the transport's decompression limit.")
        #expect(
            message(IOError(errnoCode: EMFILE, reason: "socket"))
                == "\(x) failed: the transport failed: too many open files.")
        #expect(
            message(HTTPClientError.readTimeout)
                == "\(x) failed: nothing was sent or received for 150 ms (the idle timeout).")
    }
    #endif

    @Test func aCancellationIsNotNestedInItself() {
        let cancelled = FerryError(.cancelled)
        let mapped = FerryError.mapping(cancelled, cancelled: true).adding(request: sent(), response: nil, body: nil)
        #expect(mapped.reason == .cancelled)
        #expect(mapped.underlyingError == nil)
        #expect(mapped.description == "\(x) was cancelled. [cancelled]")
        // Another error of a cancelled task still becomes a cancellation, keeping the error it replaced.
        let lost = FerryError.mapping(FerryError(.transport(.connectionLost)), cancelled: true)
        #expect(lost.reason == .cancelled)
        #expect((lost.underlyingError as? FerryError)?.reason == .transport(.connectionLost))
    }

    // MARK: Human units

    @Test(arguments: [
        (Duration.zero, "0 s"), (.nanoseconds(500), "500 ns"), (.nanoseconds(1500), "1.5 µs"),
        (.microseconds(1500), "1.5 ms"), (.milliseconds(150), "150 ms"), (.microseconds(999_960), "1 s"),
        (.milliseconds(2500), "2.5 s"), (.milliseconds(1250), "1.25 s"), (.seconds(59), "59 s"),
        (.seconds(60), "1 min"), (.seconds(90), "1 min 30 s"), (.milliseconds(90_500), "1 min 30.5 s"),
        (.seconds(3600), "1 h"), (.seconds(3605), "1 h 5 s"), (.seconds(7 * 3600 + 120), "7 h 2 min"),
        (.milliseconds(-150), "-150 ms"),
    ])
    func durations(duration: Duration, expected: String) {
        #expect(HumanUnits.duration(duration) == expected)
    }

    @Test(arguments: [
        (Int64(0), "0 bytes"), (1, "1 byte"), (512, "512 bytes"), (1024, "1 KiB"), (1536, "1.5 KiB"),
        (10 << 20, "10 MiB"), (1 << 30, "1 GiB"), (1_000_000, "976.6 KiB (1000000 bytes)"),
        (Int64.max, "8 EiB (9223372036854775807 bytes)"),
    ])
    func sizes(count: Int64, expected: String) {
        #expect(HumanUnits.bytes(count) == expected)
    }

    // MARK: Body previews

    @Test func bodyPreviewFoldsWhiteSpaceAndEscapesControlCharacters() {
        let text = Data("  line one\r\n\tline two \u{1B}[31mred\u{7F}\n".utf8)
        #expect(
            MessageText.bodyPreview(of: text, isComplete: true, totalLength: nil)
                == "line one line two \\u{1B}[31mred\\u{7F}")
    }

    @Test func bodyPreviewStopsAtTwoHundredCharacters() {
        let preview = MessageText.bodyPreview(
            of: Data(String(repeating: "é", count: 300).utf8), isComplete: true, totalLength: nil)
        #expect(preview == String(repeating: "é", count: 200) + "…")
        let short = MessageText.bodyPreview(of: Data("cut".utf8), isComplete: false, totalLength: nil)
        #expect(short == "cut…")
    }

    @Test func aPrefixCutInsideACharacterIsStillText() {
        var bytes = Data(String(repeating: "a", count: FerryError.bodyPrefixLimit - 1).utf8)
        bytes.append(contentsOf: Array("é".utf8).prefix(1))
        let preview = MessageText.bodyPreview(of: bytes, isComplete: false, totalLength: nil)
        #expect(preview == String(repeating: "a", count: 200) + "…")
    }

    @Test func binaryBodiesAreCountedNotPrinted() {
        let binary = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x01])
        #expect(MessageText.bodyPreview(of: binary, isComplete: true, totalLength: nil) == "(6 bytes of binary data)")
        #expect(
            MessageText.bodyPreview(of: binary, isComplete: false, totalLength: 5000) == "(5000 bytes of binary data)")
        #expect(
            MessageText.bodyPreview(of: binary, isComplete: false, totalLength: nil)
                == "(more than 6 bytes of binary data)")
        #expect(
            MessageText.bodyPreview(of: Data([0xFF, 0xFE]), isComplete: true, totalLength: nil)
                == "(2 bytes of binary data)")
        #expect(MessageText.bodyPreview(of: Data(), isComplete: true, totalLength: nil) == nil)
    }

    @Test func aStatusErrorWithABinaryBodySaysHowLargeItIs() {
        var failure = error(.unacceptableStatus(502), response: head(502, ["Content-Length": "4096"]))
        failure.bodyPrefix = Data(repeating: 0, count: FerryError.bodyPrefixLimit)
        #expect(
            failure.errorDescription
                == "\(x) failed: the server answered 502 Bad Gateway. Body: (4096 bytes of binary data)")
    }

    // MARK: Decoding an error body

    @Test func decodeBodyDecodesTheAPIsErrorDocument() throws {
        let failure = error(
            .unacceptableStatus(422), response: head(422), body: #"{"code":"E42","message":"name is required"}"#)
        #expect(try failure.decodeBody(as: APIError.self) == APIError(code: "E42", message: "name is required"))
        let inferred: APIError = try failure.decodeBody()
        #expect(inferred.code == "E42")
    }

    @Test func decodeBodyUsesTheDecoderItIsGiven() throws {
        struct Uppercasing: DataDecoder {
            func decode<Decoded: Decodable>(_ type: Decoded.Type, from data: Data) throws -> Decoded {
                try JSONDecoder().decode(type, from: Data(String(decoding: data, as: UTF8.self).uppercased().utf8))
            }
        }
        let failure = error(.unacceptableStatus(400), response: head(400), body: #"{"CODE":"e1","MESSAGE":"bad"}"#)
        struct Shouting: Decodable { var CODE: String }
        #expect(try failure.decodeBody(as: Shouting.self, using: Uppercasing()).CODE == "E1")
    }

    @Test func decodeBodyWithoutABodyThrowsAClearError() {
        let failure = error(.unacceptableStatus(404), response: head(404))
        let thrown = #expect(throws: FerryError.self) { try failure.decodeBody(as: APIError.self) }
        #expect(thrown?.reason == .serializationFailed)
        #expect(thrown?.errorDescription == "\(x) failed: there is no response body to decode.")
        #expect((thrown?.underlyingError as? FerryError)?.reason == .unacceptableStatus(404))
        #expect(
            thrown?.recoverySuggestion
                == "Check bodyPrefix before decoding: only a response with a body can be decoded.")
    }

    @Test func decodeBodyKeepsTheDecodingError() {
        let failure = error(.unacceptableStatus(500), response: head(500), body: "<h1>Oops</h1>")
        let thrown = #expect(throws: FerryError.self) { try failure.decodeBody(as: APIError.self) }
        #expect(thrown?.reason == .serializationFailed)
        #expect(thrown?.underlyingError is DecodingError)
        #expect(thrown?.statusCode == 500)
        #expect(thrown?.errorDescription?.hasPrefix("\(x) failed: the response body could not be decoded: ") == true)
        #expect(thrown?.errorDescription?.hasSuffix(". Body: <h1>Oops</h1>") == true)
    }

    @Test func decodeBodySaysWhenTheBodyWasCut() {
        // A JSON document longer than what a FerryError keeps: only its first 2 KiB are there to decode.
        let document = #"{"code":"E1","message":""# + String(repeating: "x", count: 3000) + #""}"#
        let failure = error(
            .unacceptableStatus(400), response: head(400, ["Content-Length": "\(document.utf8.count)"]), body: document)
        let thrown = #expect(throws: FerryError.self) { try failure.decodeBody(as: APIError.self) }
        #expect(thrown?.errorDescription?.contains("(only the first 2 KiB of the body are kept)") == true)
        #expect(
            thrown?.recoverySuggestion
                == "A FerryError keeps the first 2 KiB of a body; to decode a larger error body, use unvalidated() "
                + "and decode the response's body.")
    }

    // MARK: Through the pipeline

    @Test func aServerErrorReadsOnceWithItsBody() async throws {
        let session = stubSession { _ in
            StubResponse(
                statusCode: 500, headers: ["Content-Type": "application/json"],
                body: Data(#"{"code":"E500","message":"database unavailable"}"#.utf8))
        }
        let thrown = await #expect(throws: FerryError.self) { try await session.get("orders/7").serializingData() }
        let failure = try #require(thrown)
        #expect(
            failure.localizedDescription
                == "GET http://stub.test/orders/7 failed: the server answered 500 Internal Server Error. "
                + #"Body: {"code":"E500","message":"database unavailable"}"#)
        #expect(try failure.decodeBody(as: APIError.self).message == "database unavailable")
    }

    @Test func aCancelledRequestSaysSoOnce() async throws {
        let server = StallingServer()
        let task = server.session.get("stall")
        task.resume()
        await server.waitForArrivals()
        task.cancel()
        let thrown = await #expect(throws: FerryError.self) { try await task.value }
        #expect(thrown?.description == "GET http://stub.test/stall was cancelled. [cancelled]")
        #expect((thrown?.underlyingError as? FerryError)?.isCancellation != true)
    }

    // MARK: Live

    @Test(arguments: TransportKind.allCases) func aRefusedConnectionSaysWhere(transport: TransportKind) async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        let session = Session(transport: transport.makeTransport())
        let thrown = await #expect(throws: FerryError.self) {
            try await session.get("http://127.0.0.1:\(port)/refused").value
        }
        withExtendedLifetime(refusing) {}
        let failure = try #require(thrown)
        let start = "GET http://127.0.0.1:\(port)/refused failed: could not connect to 127.0.0.1:\(port)"
        switch transport {
        case .urlSession:
            // libcurl on Linux does not say why; Apple platforms do.
            #expect(
                failure.errorDescription == start + "." || failure.errorDescription == start + ": connection refused.")
        #if AsyncHTTPClient
        case .asyncHTTPClient:
            #expect(failure.errorDescription == start + ": connection refused.")
        #endif
        }
        #expect(failure.reason == .transport(.cannotConnect))
        #expect(failure.underlyingError != nil)
        #expect(failure.description.count < 200)
        await session.shutdown()
    }
}

/// A coding key for hand-made decoding errors.
private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int?

    init(_ string: String) {
        stringValue = string
    }

    init(index: Int) {
        stringValue = "Index \(index)"
        intValue = index
    }

    init?(stringValue: String) { self.init(stringValue) }

    init?(intValue: Int) { self.init(index: intValue) }
}
