import Foundation

extension DataTask {
    /// Returns a task with the same transfer and validation whose value `serializer` makes.
    /// - Parameter serializer: The serializer, e.g. `.json` or `.decodable(User.self)`.
    /// - Returns: The task.
    public func serialized<Serializer: ResponseSerializer>(by serializer: Serializer) -> DataTask<Serializer.Output> {
        with(validation: validation) { request, response, body throws(FerryError) in
            try serializer.serialize(request: request, response: response, body: body)
        }
    }

    /// Waits for the response and serializes it with `serializer`.
    /// - Parameter serializer: The serializer.
    /// - Returns: The value.
    /// - Throws: ``FerryError``.
    public func serializing<Serializer: ResponseSerializer>(
        _ serializer: Serializer
    ) async throws(FerryError) -> Serializer.Output {
        // No derived task: the serializer runs straight on the outcome, without a closure to allocate.
        let outcome = await transfer.outcome(validation: validation)
        return try Self.value(of: outcome, validation: validation) { request, response, body throws(FerryError) in
            try serializer.serialize(request: request, response: response, body: body)
        }
    }

    /// Waits for the response and returns its body.
    /// - Returns: The body; empty for `HEAD`, 204 and 205.
    /// - Throws: ``FerryError``.
    public func serializingData() async throws(FerryError) -> Data {
        try await serializing(DataResponseSerializer())
    }

    /// Waits for the response and decodes its body as text.
    /// - Parameter encoding: The encoding; when `nil`, the `Content-Type` charset, else UTF-8, else ISO-8859-1.
    /// - Returns: The text; `""` for an empty body.
    /// - Throws: ``FerryError``; bytes invalid in a declared charset fail with
    ///   ``FerryError/Reason/serializationFailed``.
    public func serializingString(encoding: String.Encoding? = nil) async throws(FerryError) -> String {
        try await serializing(StringResponseSerializer(encoding: encoding))
    }

    /// Waits for the response and parses its body as ``JSON``.
    /// - Returns: The document; `.null` for `HEAD`, 204, 205 and a body of a single space.
    /// - Throws: ``FerryError``.
    public func serializingJSON() async throws(FerryError) -> JSON {
        try await serializing(JSONResponseSerializer())
    }

    /// Waits for the response and decodes its body.
    /// - Parameters:
    ///   - type: The type; an ``EmptyResponse`` type such as ``Empty`` also accepts an empty body.
    ///   - decoder: The decoder: `JSONDecoder` by default, or any ``DataDecoder`` such as `PropertyListDecoder`.
    /// - Returns: The value.
    /// - Throws: ``FerryError``; a decoding failure is ``FerryError/Reason/serializationFailed`` with the
    ///   `DecodingError` as underlying error.
    public func serializingDecodable<Decoded: Decodable & Sendable>(
        _ type: Decoded.Type = Decoded.self, decoder: some DataDecoder = JSONDecoder()
    ) async throws(FerryError) -> Decoded {
        try await serializing(DecodableResponseSerializer<Decoded>(decoder: decoder))
    }
}

extension ResponseSerializer {
    /// Serializes `body`, reporting any failure as a ``FerryError`` that carries the request, head and body.
    func serialize(request: Request, response: HTTPResponse, body: Data) throws(FerryError) -> Output {
        do {
            return try serialize(request: request, response: response, data: body)
        } catch let error as FerryError {
            throw error.adding(request: request, response: response, body: body)
        } catch {
            throw FerryError(
                .serializationFailed, request: request, response: response, body: body, underlyingError: error)
        }
    }
}
