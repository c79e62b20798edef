import Ferry
import Foundation

/// Ferry on a given transport, used the way its README shows.
struct FerryClient: HTTPBenchClient {
    let session: Session

    init(transport: any Transport, cache: HTTPCache? = nil) {
        session = Session(configuration: .init(transport: transport, cache: cache))
    }

    func data(from url: URL) async throws -> Int {
        try await session.get(url).serializingData().count
    }

    func decode<Value: Decodable & Sendable>(_ type: Value.Type, from url: URL) async throws -> Value {
        try await session.get(url).serializingDecodable(Value.self)
    }

    func download(from url: URL, to destination: URL) async throws -> Int64 {
        let file = try await session.download(url, to: destination).value
        return try fileSize(file)
    }

    func upload(file: URL, to url: URL) async throws -> Int64 {
        let receipt = try await session.post(url, body: .file(file)).serializingDecodable(UploadReceipt.self)
        return receipt.bytes
    }

    func streamUpload(_ chunks: RepeatedChunks, to url: URL) async throws -> Int64 {
        let body = RequestBody.stream(chunks, count: chunks.totalBytes)
        return try await session.post(url, body: body).serializingDecodable(UploadReceipt.self).bytes
    }

    func shutdown() async {
        await session.shutdown()
    }
}

func fileSize(_ file: URL) throws -> Int64 {
    (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? -1
}
