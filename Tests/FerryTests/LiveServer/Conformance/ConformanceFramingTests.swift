import Ferry
import FerryTestServer
import Foundation
import Testing

extension ConformanceTests {
    /// Conformance: status lines and message framing, on every transport. RELIABILITY.md's "Conformance" table lists
    /// each case with what each engine does.
    @Suite("Conformance: status lines and framing")
    struct Framing {
        @Test(arguments: TransportKind.allCases)
        func aStatusLineWithoutAReasonPhraseIsRead(transport: TransportKind) async throws {
            // Given: `HTTP/1.1 200` and nothing after the code (RFC 9112 §4 makes the reason phrase optional).
            let live = try LiveServer(transport: transport)

            // When
            let response = await live.session.get("wire/no-reason").response

            // Then: AsyncHTTPClient reads it. FoundationNetworking splits the status line into exactly three parts and
            // refuses the head before Ferry sees it (libcurl: "Failed writing header"), so URLSession fails it, as
            // malformed. A code followed by a space and an empty phrase (`HTTP/1.1 599 `) is read by both.
            if transport == .urlSession {
                #expect(response.error?.reason == .transport(.invalidResponse), "\(String(describing: response.error))")
            } else {
                #expect(response.statusCode == 200)
                #expect(response.value == Data("ok".utf8), "\(String(describing: response.error))")
            }
            #expect(try await live.session.get("get").serializingJSON()["url"] != nil)
        }

        @Test(arguments: TransportKind.allCases)
        func aMixedCaseProtocolNameIsNotHTTP(transport: TransportKind) async throws {
            // Given: `Http/1.1 200 OK`; the protocol name is case-sensitive (RFC 9112 §2.3).
            let live = try LiveServer(transport: transport)

            // When
            let response = await live.session.get("fault/lowercase-version").response

            // Then: AsyncHTTPClient refuses it as malformed. FoundationNetworking takes any first word for the version
            // and drops it (`HTTPURLResponse` keeps no version on Linux), so nothing reaches Ferry to check: the
            // URLSession transport returns the status and body as if the line were right. RELIABILITY.md lists it.
            if transport == .urlSession {
                #expect(response.statusCode == 200)
                #expect(response.value == Data("ok".utf8), "\(String(describing: response.error))")
            } else {
                let error = try #require(response.error, "a response that is not HTTP must fail")
                #expect(error.reason == .transport(.invalidResponse), "\(error)")
                #expect(response.value == nil)
            }
            #expect(try await live.session.get("get").serializingJSON()["url"] != nil)
        }

        @Test(arguments: TransportKind.allCases)
        func aBodyWithoutALengthRunsToTheClose(transport: TransportKind) async throws {
            // Given: neither Content-Length nor chunked coding.
            let live = try LiveServer(transport: transport)

            // When
            let data = try await live.session.get("wire/until-close").serializingData()

            // Then
            #expect(data == Data("1234".utf8))
        }

        @Test(arguments: TransportKind.allCases)
        func anEmptyChunkedBodyIsEmptyAndKeepsTheConnection(transport: TransportKind) async throws {
            // Given: a chunked body that is only its last chunk, on a kept-alive connection.
            let live = try LiveServer(transport: transport)

            // When / Then: three rounds, each followed by a request that must get its own bytes.
            for _ in 0..<3 {
                #expect(try await live.session.get("wire/empty-chunked").serializingData().isEmpty)
                #expect(try await live.session.get("bytes/10").serializingData() == TestServer.patternBytes(count: 10))
            }
            #expect(live.server.connectionCount < live.server.requestCount, "no connection was reused")
        }

        @Test(arguments: TransportKind.allCases, ["fault/truncate", "fault/truncate-chunked"])
        func aTruncatedBodyIsALostConnection(transport: TransportKind, path: String) async throws {
            // Given: `Content-Length: 1000` and 500 bytes, or one chunk and no last chunk; then a clean close.
            let live = try LiveServer(transport: transport)

            // When
            let response = await live.session.get(path).response

            // Then: never a short success; the same reason on both transports, and the status that arrived is kept.
            let error = try #require(response.error, "\(path): a truncated body must fail")
            #expect(error.reason == .transport(.connectionLost), "\(path): \(error)")
            #expect(response.value == nil)
            #expect(error.statusCode == 200)
        }

        @Test(arguments: TransportKind.allCases, [204, 304])
        func aBodilessStatusWithAContentLengthReadsNoBody(transport: TransportKind, status: Int) async throws {
            // Given: a 204 or 304 announcing `Content-Length: 10`, and no body, on a kept-alive connection. A client
            // that waited for ten bytes would hang; one that read them would take the next head for a body.
            let live = try LiveServer(transport: transport)
            live.server.setRoute("/bodiless") { _ in TestResponse(status: status, headers: [("Content-Length", "10")]) }

            // When / Then: three rounds, each followed by a request that must get its own bytes (a waiting client
            // would end at the idle timeout instead).
            for _ in 0..<3 {
                let response = await live.session.get("bodiless").validate(statusCode: [204, 304]).response
                #expect(response.statusCode == status)
                #expect(response.value == Data(), "\(String(describing: response.error))")
                #expect(try await live.session.get("bytes/10").serializingData() == TestServer.patternBytes(count: 10))
            }
            #expect(live.server.connectionCount < live.server.requestCount, "no connection was reused")
        }

        @Test(arguments: TransportKind.allCases)
        func aHeadResponseHasNoBodyWhateverItsLength(transport: TransportKind) async throws {
            // Given: HEAD on a 5,000-byte resource: `Content-Length: 5000`, no body.
            let live = try LiveServer(transport: transport)

            // When / Then: three rounds, each followed by a request that must get its own bytes.
            for _ in 0..<3 {
                let response = await live.session.head("bytes/5000").response
                #expect(response.value == Data(), "\(String(describing: response.error))")
                #expect(response.response?.expectedContentLength == 5000)
                #expect(try await live.session.get("bytes/10").serializingData() == TestServer.patternBytes(count: 10))
            }
            #expect(live.server.connectionCount < live.server.requestCount, "no connection was reused")
        }

        @Test(arguments: TransportKind.allCases)
        func anInterimHeadIsSkippedForTheFinalOne(transport: TransportKind) async throws {
            // Given: `103 Early Hints` with a `Link` field, then `200 OK` with the body `ok`.
            let live = try LiveServer(transport: transport)

            // When
            let response = await live.session.get("wire/early-hints").unvalidated().response

            // Then: AsyncHTTPClient skips the interim head. FoundationNetworking hands the 103 head on as the response,
            // with the 200's body, and the final head is lost; Ferry refuses such a head rather than return a 103 with
            // another response's body.
            if transport == .urlSession {
                let error = try #require(response.error)
                #expect(error.reason == .transport(.invalidResponse), "\(error)")
                #expect(error.statusCode == 103)
                #expect(response.value == nil)
            } else {
                #expect(response.statusCode == 200)
                #expect(response.value == Data("ok".utf8), "\(String(describing: response.error))")
            }
            #expect(try await live.session.get("get").serializingJSON()["url"] != nil)
        }

        @Test(arguments: TransportKind.allCases)
        func anUnregisteredStatusCodeIsKept(transport: TransportKind) async throws {
            // Given: 599, a valid code no specification defines.
            let live = try LiveServer(transport: transport)

            // When
            let response = await live.session.get("status/599").response
            let unvalidated = await live.session.get("status/599").unvalidated().response

            // Then
            #expect(response.error?.reason == .unacceptableStatus(599))
            #expect(unvalidated.statusCode == 599)
            #expect(unvalidated.value.map { String(decoding: $0, as: UTF8.self) } == #"{"status":599}"#)
        }

        @Test(arguments: TransportKind.allCases)
        func aStatusCodeOutsideTheValidRange(transport: TransportKind) async throws {
            // Given: `HTTP/1.1 999` (RFC 9110 §15: valid codes are 100...599, but the grammar takes any three digits).
            let live = try LiveServer(transport: transport)
            live.server.setRoute("/999") { _ in TestResponse(status: 999, body: .text("odd")) }

            // When
            let response = await live.session.get("999").unvalidated().response

            // Then: both engines read the code as it is.
            #expect(response.statusCode == 999, "\(String(describing: response.error))")
            #expect(response.value == Data("odd".utf8))
        }

        @Test(arguments: TransportKind.allCases)
        func manyHeaderFieldsAllArrive(transport: TransportKind) async throws {
            // Given: 500 distinct fields.
            let live = try LiveServer(transport: transport)
            live.server.setRoute("/many") { _ in
                TestResponse(headers: (0..<500).map { ("X-Field-\($0)", "value-\($0)") }, body: .text("ok"))
            }

            // When
            let head = try await live.session.get("many").head

            // Then
            // One pass over the fields: looking each name up would scan them all 500 times.
            let values = Dictionary(head.headers.map { ($0.name.lowercased(), $0.value) }) { first, _ in first }
            let missing = (0..<500).filter { values["x-field-\($0)"] != "value-\($0)" }
            #expect(missing.isEmpty, "missing or wrong fields: \(missing.prefix(10))")
        }

        @Test(arguments: TransportKind.allCases)
        func aLargeHeaderFieldArrivesWhole(transport: TransportKind) async throws {
            // Given: one 64 KiB field value (below libcurl's 100 KiB per-line limit; the 1 MiB line of
            // `fault/huge-header` fails on both, see LiveFaultTests).
            let live = try LiveServer(transport: transport)
            let value = String(repeating: "abcdefgh", count: 8 * 1024)
            live.server.setRoute("/large") { _ in TestResponse(headers: [("X-Large", value)], body: .text("ok")) }

            // When
            let response = await live.session.get("large").response

            // Then
            #expect(response.response?.headers["X-Large"] == value, "\(String(describing: response.error))")
            #expect(response.value == Data("ok".utf8))
        }

        @Test(arguments: TransportKind.allCases)
        func aConnectionIsReusedAfterAFullBody(transport: TransportKind) async throws {
            // Given: three 200 KB bodies in a row on one session.
            let live = try LiveServer(transport: transport)

            // When
            for _ in 0..<3 {
                let data = try await live.session.get("bytes/200000").serializingData()
                #expect(data == TestServer.patternBytes(count: 200_000))
            }

            // Then: connections were reused (always one on URLSession; AsyncHTTPClient can open a second when the next
            // request reaches its pool just before the finished connection is back).
            #expect(live.server.requestCount == 3)
            #expect(live.server.connectionCount < 3)
        }

        @Test(arguments: TransportKind.allCases)
        func connectionCloseIsHonoured(transport: TransportKind) async throws {
            // Given: every response says `Connection: close`, and the server closes after it.
            let live = try LiveServer(transport: transport)
            live.server.setRoute("/closing") { _ in .text("bye").adding(header: "Connection", value: "close") }

            // When
            for _ in 0..<3 {
                #expect(try await live.session.get("closing").serializingString() == "bye")
            }

            // Then: a new connection each time, none reused after the close.
            #expect(live.server.connectionCount == 3)
        }
    }
}
