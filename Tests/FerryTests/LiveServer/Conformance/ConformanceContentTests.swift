import Ferry
import FerryTestServer
import Foundation
import Testing

extension ConformanceTests {
    /// Conformance: bodies and content codings, on every transport.
    @Suite("Conformance: bodies and content codings")
    struct Content {
        @Test(arguments: TransportKind.allCases, ["gzip", "deflate"])
        func aCompressedBodyIsDecodedExactly(transport: TransportKind, coding: String) async throws {
            // Given: 70,000 pattern bytes, in more than one DEFLATE block, gzip- or zlib-wrapped.
            let live = try LiveServer(transport: transport)

            // When
            let data = try await live.session.get(coding, query: [.init(name: "size", value: "70000")])
                .serializingData()

            // Then
            #expect(data == TestServer.patternBytes(count: 70_000))
        }

        @Test(arguments: TransportKind.allCases, [HTTPMethod.head, .get, .put, .post, .delete])
        func everyMethodIsSentAndAnswered(transport: TransportKind, method: HTTPMethod) async throws {
            let live = try LiveServer(transport: transport)
            let request = Request(method, url: live.server.url("/anything"))

            let data = try await live.session.request(request).serializingData()

            #expect(live.server.receivedRequests.last?.method == method.rawValue)
            if method == .head {
                #expect(data.isEmpty)
            } else {
                #expect(try JSON(parsing: data)["method"]?.stringValue == method.rawValue)
            }
        }

        @Test(arguments: TransportKind.allCases)
        func bothTransportsAdvertiseTheCodingsTheyDecode(transport: TransportKind) async throws {
            // Ferry's default `Accept-Encoding` goes out as the only one: libcurl adds none of its own (such as `br`),
            // so a server never picks a coding one transport decodes and the other does not.
            let live = try LiveServer(transport: transport)

            _ = try await live.session.get("get").serializingData()

            let received = try #require(live.server.receivedRequests.last)
            #expect(received.headerValues("Accept-Encoding") == ["gzip, deflate"])
        }

        @Test(arguments: TransportKind.allCases)
        func anUncompressedBodyIsUntouched(transport: TransportKind) async throws {
            let live = try LiveServer(transport: transport)
            live.server.setRoute("/identity") { _ in
                .text("TEST\n").adding(header: "Content-Encoding", value: "identity")
            }
            #expect(try await live.session.get("identity").serializingString() == "TEST\n")
        }

        /// A coding neither transport knows (cache-tests.fyi's `headers-store-Content-Encoding` sends one): never an
        /// empty body that reads as success. libcurl refuses it; AsyncHTTPClient hands over the bytes as sent, with
        /// the field that says they are coded.
        @Test(arguments: TransportKind.allCases)
        func anUnknownCodingIsRefusedOrHandedOverAsSent(transport: TransportKind) async throws {
            let live = try LiveServer(transport: transport)
            live.server.setRoute("/unknown-coding") { _ in
                .text("still coded").adding(header: "Content-Encoding", value: "x-unheard-of")
            }
            let response = await live.session.get("unknown-coding").response
            switch transport {
            case .urlSession:
                #expect(response.error?.reason == .transport(.invalidResponse))
            #if AsyncHTTPClient
            case .asyncHTTPClient:
                #expect(response.data.map { String(decoding: $0, as: UTF8.self) } == "still coded")
                #expect(response.response?.headers["Content-Encoding"] == "x-unheard-of")
            #endif
            }
        }

        @Test(.ownThreads, arguments: TransportKind.allCases)
        func aMegabyteEchoesByteForByte(transport: TransportKind) async throws {
            // Given: 1 MiB in which every byte value occurs, sent to a route that answers the body it got.
            let live = try LiveServer(transport: transport)
            var generator = SeededBytes(seed: 0x5eed)
            let body = Data((0..<(1 << 20)).map { _ in generator.next() })

            // When
            let echoed = try await live.session.post("echo-body", body: .data(body, contentType: "application/x-test"))
                .serializingData()

            // Then
            #expect(echoed.count == body.count)
            #expect(echoed == body)
        }

        @Test(arguments: TransportKind.allCases, [false, true])
        func aDrippedBodyIsReassembled(transport: TransportKind, chunked: Bool) async throws {
            // Given: 400 bytes sent 4 at a time, 10 ms apart (the server paces; the client just reads).
            let live = try LiveServer(transport: transport)
            let expected = TestServer.patternBytes(count: 400)
            let pieces = stride(from: 0, to: 400, by: 4).map { expected[$0..<($0 + 4)] }.map { Data($0) }
            live.server.setRoute("/drip-pattern") { _ in
                TestResponse(
                    body: chunked
                        ? .chunked(pieces, delay: .milliseconds(10)) : .paced(pieces, interval: .milliseconds(10))
                )
            }

            // When
            var received = Data()
            for try await chunk in live.session.stream("drip-pattern").bytes {
                received.append(chunk)
            }

            // Then: every byte, in order.
            #expect(received == expected)
        }

        @Test(arguments: TransportKind.allCases)
        func readingPartOfABodyThenLeavingEndsTheTransfer(transport: TransportKind) async throws {
            // Given: a 4 MB body of which the caller reads only the first chunk.
            let live = try LiveServer(transport: transport)

            // When
            var first: Data?
            for try await chunk in live.session.stream("bytes/4000000").bytes {
                first = chunk
                break
            }

            // Then: the bytes read are right, the rest is not waited for, and the session goes on.
            let prefix = try #require(first)
            #expect(!prefix.isEmpty && prefix == TestServer.patternBytes(count: prefix.count))
            #expect(try await live.session.get("bytes/10").serializingData() == TestServer.patternBytes(count: 10))
        }

        @Test(arguments: TransportKind.allCases)
        func aRepeatedResponseFieldKeepsEveryValue(transport: TransportKind) async throws {
            // Given: two `X-Multi` fields, `a` and `b`.
            let live = try LiveServer(transport: transport)

            // When
            let head = try await live.session.get(
                "response-headers", query: [.init(name: "X-Multi", value: "a"), .init(name: "X-Multi", value: "b")]
            ).head

            // Then: the subscript gives the combined value on both transports (RFC 9110 §5.3). FoundationNetworking
            // joins the fields before Ferry sees them, so `values(for:)` has one joined value there and two fields on
            // AsyncHTTPClient. (`Set-Cookie` is split back: `SetCookieTests.twoFieldsArriveAsTwo`.)
            #expect(head.headers["X-Multi"] == "a, b")
            #expect(head.headers.values(for: "X-Multi").joined(separator: ", ") == "a, b")
            #expect(head.headers.values(for: "X-Multi") == (transport == .urlSession ? ["a, b"] : ["a", "b"]))
        }

        @Test(arguments: TransportKind.allCases)
        func aRepeatedRequestFieldKeepsEveryValue(transport: TransportKind) async throws {
            let live = try LiveServer(transport: transport)
            var headers = HTTPHeaders()
            headers.add(name: "X-Multi", value: "a")
            headers.add(name: "X-Multi", value: "b")

            _ = try await live.session.get("get", headers: headers).serializingData()

            // URLSession sends one field `a,b` (URLRequest joins added values); AsyncHTTPClient sends two fields. Both
            // mean the same (RFC 9110 §5.3).
            let received = try #require(live.server.receivedRequests.last)
            let values = received.headerValues("X-Multi")
            #expect(values == (transport == .urlSession ? ["a,b"] : ["a", "b"]))
        }

        @Test(arguments: TransportKind.allCases)
        func anEmptyRequestFieldValueIsSent(transport: TransportKind) async throws {
            let live = try LiveServer(transport: transport)

            _ = try await live.session.get("get", headers: ["X-Empty": ""]).serializingData()

            let received = try #require(live.server.receivedRequests.last)
            #expect(received.headerValues("X-Empty") == [""])
        }

        @Test(arguments: TransportKind.allCases)
        func repeatedQueryItemsAreSentInOrder(transport: TransportKind) async throws {
            let live = try LiveServer(transport: transport)
            let items: [URLQueryItem] = [
                .init(name: "foo", value: "bar"), .init(name: "bar", value: "baz"), .init(name: "qux", value: ""),
                .init(name: "foo", value: "phew"), .init(name: "sp ace", value: "a&b=c"),
            ]

            _ = try await live.session.get("get", query: items).serializingData()

            let received = try #require(live.server.receivedRequests.last)
            #expect(received.queryItems.map(\.name) == items.map(\.name))
            #expect(received.queryItems.map(\.value) == items.map { $0.value ?? "" })
        }

        @Test(arguments: TransportKind.allCases)
        func anETagRevalidatesToNotModified(transport: TransportKind) async throws {
            // Given: a resource with `ETag: "ferry"`.
            let live = try LiveServer(transport: transport)
            let first = try await live.session.get("cache").head
            let tag = try #require(first.headers["ETag"])

            // When: asked again with `If-None-Match`.
            let response = await live.session.get("cache", headers: ["If-None-Match": tag]).validate(statusCode: [304])
                .response

            // Then: 304 with no body, passed through as the server sent it (URLSession's cache is off).
            #expect(tag == #""ferry""#)
            #expect(response.statusCode == 304, "\(String(describing: response.error))")
            #expect(response.value == Data())
            let received = try #require(live.server.receivedRequests.last)
            #expect(received.header("If-None-Match") == tag)
        }

        @Test(arguments: TransportKind.allCases)
        func aHundredConcurrentRequestsGetTheirOwnBodies(transport: TransportKind) async throws {
            // Given: 100 requests at once, each for a body of a different size.
            let live = try LiveServer(transport: transport) { $0.idleTimeout = .seconds(60) }
            let session = live.session

            // When
            let mismatched = try await withThrowingTaskGroup(of: Int?.self) { group in
                for index in 0..<100 {
                    group.addTask {
                        let count = 1_000 + index * 97
                        let data = try await session.get("bytes/\(count)").serializingData()
                        return data == TestServer.patternBytes(count: count) ? nil : index
                    }
                }
                return try await group.reduce(into: [Int]()) { if let index = $1 { $0.append(index) } }
            }

            // Then
            #expect(mismatched.isEmpty)
            #expect(live.server.requestCount == 100)
        }
    }
}

/// A small deterministic byte generator (SplitMix64), so that a failing body can be reproduced.
struct SeededBytes {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt8 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt8(truncatingIfNeeded: mixed ^ (mixed >> 31))
    }
}
