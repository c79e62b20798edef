import Foundation

/// Builders for chunked byte streams, shared by the stream framing tests.
enum Chunks {
    /// A finished stream that yields the chunks in order.
    static func stream(_ chunks: [Data]) -> AsyncStream<Data> {
        AsyncStream { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
    }

    /// A finished stream that yields the UTF-8 of each string as one chunk.
    static func stream(_ chunks: [String]) -> AsyncStream<Data> {
        stream(chunks.map { Data($0.utf8) })
    }

    /// A stream that yields the chunks, then fails with the error.
    static func failing(_ chunks: [String], error: any Error) -> AsyncThrowingStream<Data, any Error> {
        AsyncThrowingStream { continuation in
            for chunk in chunks { continuation.yield(Data(chunk.utf8)) }
            continuation.finish(throwing: error)
        }
    }

    /// The bytes cut in two at `offset`.
    static func split(_ bytes: Data, at offset: Int) -> [Data] {
        [Data(bytes.prefix(offset)), Data(bytes.dropFirst(offset))]
    }

    /// The bytes one at a time.
    static func bytewise(_ bytes: Data) -> [Data] {
        bytes.map { Data([$0]) }
    }

    /// Slices of `bytes` that do not start at index 0, so code that assumes zero-based `Data` fails.
    static func offsetSlices(_ bytes: Data, size: Int) -> [Data] {
        let padded = Data([0xAA]) + bytes
        return stride(from: 1, to: padded.count, by: size).map { padded[$0..<min($0 + size, padded.count)] }
    }
}

/// An error a base stream throws, to check that it reaches the caller unchanged.
struct BaseStreamError: Error, Equatable {
    var code: Int
}

extension AsyncSequence {
    /// Every element, in order.
    func collect() async throws -> [Element] {
        var elements: [Element] = []
        for try await element in self { elements.append(element) }
        return elements
    }
}
