import Foundation

/// A response body as a transport delivers it: chunks in order, read once, by one reader at a time.
public protocol ResponseBodySource: Sendable {
    /// The next chunk of the body, waiting for it when needed.
    /// - Returns: The chunk, or `nil` at the end of a complete body.
    /// - Throws: ``FerryError`` (or `URLError`) when the body cannot be completed.
    func next() async throws -> Data?

    /// Reads the rest of the body, handing each chunk to `consume` as it arrives, in order, one at a time.
    ///
    /// The default implementation calls ``next()`` in a loop; a transport whose every wait costs something extra
    /// (``TransportContext/stoppable(_:)``) overrides it to pay that once, and may call `consume` from the child
    /// task it reads in.
    /// - Parameter consume: Takes a chunk; throwing stops the read.
    /// - Throws: What ``next()`` or `consume` throws.
    func forEach(_ consume: @escaping @Sendable (Data) throws -> Void) async throws

    /// The reader will read no further: release what the body holds (the transport may close the connection).
    func cancel()
}

extension ResponseBodySource {
    /// Calls ``next()`` until the end.
    public func forEach(_ consume: @escaping @Sendable (Data) throws -> Void) async throws {
        while let chunk = try await next() {
            try consume(chunk)
        }
    }
}

/// The body of a ``TransportResponse``.
public struct ResponseBody: Sendable {
    let source: (any ResponseBodySource)?

    /// A body read from `source`.
    /// - Parameter source: Where the chunks come from.
    public init(_ source: some ResponseBodySource) {
        self.source = source
    }

    private init() {
        source = nil
    }

    /// No body at all (`HEAD`, 204, 304).
    public static let empty = ResponseBody()

    /// A body whose chunks are already in memory.
    /// - Parameter chunks: The chunks, in order.
    /// - Returns: The body.
    public static func chunks(_ chunks: [Data]) -> ResponseBody {
        chunks.isEmpty ? .empty : ResponseBody(ChunkListSource(chunks))
    }

    /// The next chunk; `nil` at the end.
    func next() async throws -> Data? {
        try await source?.next()
    }

    /// Reads the rest into `consume`.
    func forEach(_ consume: @escaping @Sendable (Data) throws -> Void) async throws {
        try await source?.forEach(consume)
    }

    /// Releases the body unread.
    func cancel() {
        source?.cancel()
    }
}
