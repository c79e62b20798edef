import Ferry
import Foundation
import Testing

@Suite("Interop: nginx", .enabled(if: InteropServers.nginx != nil))
struct NginxInteropTests {
    func makeSession(_ transport: TransportKind) -> Session {
        Session(configuration: .init(baseURL: InteropServers.nginx, transport: transport.makeTransport()))
    }

    struct Item: Decodable {
        var id: Int
        var name: String
        var price: Double
        var tags: [String]
    }

    @Test(arguments: TransportKind.allCases) func gzipJSONIsDecoded(transport: TransportKind) async throws {
        let session = makeSession(transport)
        let response = await session.get("small.json").serialized(by: .json).response
        #expect(response.value?.objectValue != nil)
        #expect(response.response?.headers["Content-Encoding"] == "gzip")
    }

    @Test(arguments: TransportKind.allCases) func decodesTheTenKilobyteArray(transport: TransportKind) async throws {
        let session = makeSession(transport)
        let items = try await session.get("array-10k.json").serializingDecodable([Item].self)
        #expect(items.count > 100)
        #expect(items.first?.id == 1)
    }

    @Test(arguments: TransportKind.allCases) func largeFileArrivesIntact(transport: TransportKind) async throws {
        let session = makeSession(transport)
        let root = try #require(InteropServers.staticRoot)
        let expected = try Data(contentsOf: root.appending(path: "16mib.bin"))
        let response = await session.get("16mib.bin").response
        #expect(response.value == expected)
        #expect(response.metrics.bytesReceived == Int64(expected.count))
    }

    @Test(arguments: TransportKind.allCases) func rangeRequestGives206(transport: TransportKind) async throws {
        let session = makeSession(transport)
        let root = try #require(InteropServers.staticRoot)
        let expected = try Data(contentsOf: root.appending(path: "1mib.bin"))
        let response = await session.get("1mib.bin", headers: ["Range": "bytes=1000-1999"]).response
        #expect(response.statusCode == 206)
        #expect(response.response?.headers["Content-Range"] == "bytes 1000-1999/\(expected.count)")
        #expect(response.value == expected[1000..<2000])
        #expect(response.response?.headers["ETag"] != nil)
    }

    @Test(arguments: TransportKind.allCases) func notFoundAndRedirect(transport: TransportKind) async throws {
        let session = makeSession(transport)
        let error = await #expect(throws: FerryError.self) { try await session.get("status/404").value }
        #expect(error?.statusCode == 404)
        let redirected = await session.get("redirect").response
        #expect(redirected.response?.url.path == "/small.json")
        #expect(redirected.metrics.redirectCount == 1)
    }

    @Test(arguments: TransportKind.allCases) func manyConcurrentRequests(transport: TransportKind) async throws {
        let session = makeSession(transport)
        let count = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<500 { group.addTask { try await session.get("small.json").serializingData().count } }
            return try await group.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
        }
        #expect(count == 500)
    }

    @Test(arguments: TransportKind.allCases) func largeFileDownloadsToDiskAndResumesWithTheETag(
        transport: TransportKind
    ) async throws {
        let session = makeSession(transport)
        let root = try #require(InteropServers.staticRoot)
        let expected = try Data(contentsOf: root.appending(path: "16mib.bin"))
        let directory = try TemporaryDirectory()
        let whole = try await session.download("16mib.bin", to: directory.file("whole.bin")).value
        #expect(try Data(contentsOf: whole) == expected)

        // A partial file holding the first 5 MB of the version nginx names by its ETag.
        let head = try #require(await session.head("16mib.bin").response.response)
        let partial = directory.file("partial.bin")
        try expected.prefix(5_000_000).writeUnsynced(to: partial)
        let resume = ResumeData(
            request: Request(url: try #require(InteropServers.nginx).appending(path: "16mib.bin")),
            partialFile: partial,
            byteCount: 5_000_000, entityTag: head.headers["ETag"], lastModified: head.headers["Last-Modified"])
        let resumed = await session.download(resuming: resume, to: directory.file("resumed.bin")).response
        #expect(resumed.statusCode == 206)
        #expect(resumed.metrics.bytesReceived == Int64(expected.count - 5_000_000))
        #expect(try Data(contentsOf: try resumed.result.get()) == expected)

        // A stale validator: nginx sends the whole file (200) and the download starts over cleanly.
        try expected.prefix(1_000).writeUnsynced(to: partial)
        var stale = resume
        stale.byteCount = 1_000
        stale.entityTag = "\"stale\""
        stale.lastModified = nil
        let restarted = await session.download(resuming: stale, to: directory.file("restarted.bin")).response
        #expect(restarted.statusCode == 200)
        #expect(try Data(contentsOf: try restarted.result.get()) == expected)
    }
}
