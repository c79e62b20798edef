import Ferry
import Foundation
import Testing

@Suite("Interop: nginx", .enabled(if: InteropServers.nginx != nil))
struct NginxInteropTests {
    let session = Session(configuration: .init(baseURL: InteropServers.nginx))

    struct Item: Decodable {
        var id: Int
        var name: String
        var price: Double
        var tags: [String]
    }

    @Test func gzipJSONIsDecoded() async throws {
        let response = await session.get("small.json").serialized(by: .json).response
        #expect(response.value?.objectValue != nil)
        #expect(response.response?.headers["Content-Encoding"] == "gzip")
    }

    @Test func decodesTheTenKilobyteArray() async throws {
        let items = try await session.get("array-10k.json").serializingDecodable([Item].self)
        #expect(items.count > 100)
        #expect(items.first?.id == 1)
    }

    @Test func largeFileArrivesIntact() async throws {
        let root = try #require(InteropServers.staticRoot)
        let expected = try Data(contentsOf: root.appending(path: "16mib.bin"))
        let response = await session.get("16mib.bin").response
        #expect(response.value == expected)
        #expect(response.metrics.bytesReceived == Int64(expected.count))
    }

    @Test func rangeRequestGives206() async throws {
        let root = try #require(InteropServers.staticRoot)
        let expected = try Data(contentsOf: root.appending(path: "1mib.bin"))
        let response = await session.get("1mib.bin", headers: ["Range": "bytes=1000-1999"]).response
        #expect(response.statusCode == 206)
        #expect(response.response?.headers["Content-Range"] == "bytes 1000-1999/\(expected.count)")
        #expect(response.value == expected[1000..<2000])
        #expect(response.response?.headers["ETag"] != nil)
    }

    @Test func notFoundAndRedirect() async throws {
        let error = await #expect(throws: FerryError.self) { try await session.get("status/404").value }
        #expect(error?.statusCode == 404)
        let redirected = await session.get("redirect").response
        #expect(redirected.response?.url.path == "/small.json")
        #expect(redirected.metrics.redirectCount == 1)
    }

    @Test func manyConcurrentRequests() async throws {
        let session = self.session
        let count = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<500 { group.addTask { try await session.get("small.json").serializingData().count } }
            return try await group.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
        }
        #expect(count == 500)
    }
}
