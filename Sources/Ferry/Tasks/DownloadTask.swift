import Foundation

/// A running or finished download.
///
/// The body goes to a temporary file Ferry owns and appears at the destination only when the download succeeded
/// and passed validation, in one atomic step; on failure or cancellation nothing is left at the destination, and
/// the partial file is either kept for ``resumeData`` or deleted.
///
/// ```swift
/// let download = session.download(url, to: destinationFileURL)
/// let file: URL = try await download.value
/// ```
///
/// Like a ``DataTask``, it starts when first needed, in the awaiting task (iterating a progress stream first, or
/// ``resume()``, starts it on a task of its own), and runs once. The validation of the task that starts it decides
/// where the body goes: a head it accepts sends the body to the file, one it rejects sends it to memory, for the
/// error. A task derived with another validation after the start gets that verdict.
public struct DownloadTask: TransferTask {
    let transfer: Transfer
    /// The validation this task applies: the session's unless a `validate…` method replaced it.
    public let validation: Validation
    let lifetime: TaskLifetime

    init(transfer: Transfer, validation: Validation, lifetime: TaskLifetime? = nil) {
        self.transfer = transfer
        self.validation = validation
        self.lifetime = lifetime ?? TaskLifetime(transfer)
    }

    /// The download's progress: bytes written to disk (a resumed download counts the bytes it already had).
    /// Iterating it starts the download when nobody did.
    public var downloadProgress: ProgressStream { transfer.downloadProgress(validation) }

    /// The upload progress of the request body, if it has one. Iterating it starts the download when nobody did.
    public var uploadProgress: ProgressStream { transfer.uploadProgress(validation) }

    /// The final response head, as soon as it arrives, once it passed the status and content-type checks; the body
    /// is then written by whoever awaits ``value`` (or ``response``).
    /// - Throws: ``FerryError``: the download failed before the head arrived, or the head failed validation.
    public var head: HTTPResponse {
        get async throws(FerryError) { try await transfer.head(validation: validation).get() }
    }

    /// Starts the download on a task of its own, for a caller that will not await it now.
    public func resume() {
        transfer.start(validation: validation)
    }

    /// Returns a task on the same download validated by `validation` instead of the session's.
    /// - Parameter validation: The validation, e.g. ``Validation/none``.
    /// - Returns: The task.
    public func validate(using validation: Validation) -> DownloadTask {
        DownloadTask(transfer: transfer, validation: validation, lifetime: lifetime)
    }

    /// The outcome: request, head, file, result, metrics, timeline and resume data. Never throws.
    public var response: DownloadResponse {
        get async {
            let outcome = await transfer.outcome(validation: validation)
            var timeline = outcome.timeline
            timeline.moments.serializationCompleted = timeline.moments.requestCompleted
            let result: Result<URL, FerryError> =
                if let error = outcome.error {
                    .failure(error)
                } else if let file = outcome.file {
                    .success(file)
                } else {
                    .failure(FerryError(.transport(.invalidResponse), request: outcome.request))
                }
            return DownloadResponse(
                request: outcome.request, response: outcome.response, data: outcome.body, result: result,
                metrics: outcome.metrics, timeline: timeline, resumeData: outcome.resumeData)
        }
    }

    /// How to resume, when the download failed part-way and its partial file was kept; `nil` otherwise.
    public var resumeData: ResumeData? {
        get async { await response.resumeData }
    }

    /// Cancels the download; its partial file is kept for ``resumeData`` when that is possible. A download that
    /// has not started never will.
    public func cancel() {
        transfer.cancel()
    }

    /// Reads the downloaded file with `serializer`. Only this file is read, mapped into memory when possible.
    /// - Parameter serializer: The serializer.
    /// - Returns: The value.
    /// - Throws: The download's ``FerryError``, or one with ``FerryError/Reason/serializationFailed``.
    public func serializing<Serializer: ResponseSerializer>(
        _ serializer: Serializer
    ) async throws(FerryError)
        -> Serializer.Output
    {
        let response = await response
        let file = try response.result.get()
        guard let request = response.request, let head = response.response else {
            throw FerryError(.transport(.invalidResponse))
        }
        let data: Data
        do {
            data = try Data(contentsOf: file, options: .mappedIfSafe)
        } catch {
            throw FerryError(
                .fileSystemFailed("cannot read \(file.path)"), request: request, response: head, underlyingError: error)
        }
        do {
            return try serializer.serialize(request: request, response: head, data: data)
        } catch let error as FerryError {
            throw error
        } catch {
            throw FerryError(.serializationFailed, request: request, response: head, body: data, underlyingError: error)
        }
    }

    /// Decodes the downloaded file.
    /// - Parameters:
    ///   - type: The type.
    ///   - decoder: The decoder; `JSONDecoder` by default.
    /// - Returns: The value.
    /// - Throws: ``FerryError``.
    public func serializingDecodable<Decoded: Decodable & Sendable>(
        _ type: Decoded.Type, decoder: some DataDecoder = JSONDecoder()
    ) async throws(FerryError) -> Decoded {
        try await serializing(DecodableResponseSerializer<Decoded>(decoder: decoder))
    }

    /// Parses the downloaded file as ``JSON``.
    /// - Returns: The document.
    /// - Throws: ``FerryError``.
    public func serializingJSON() async throws(FerryError) -> JSON {
        try await serializing(JSONResponseSerializer())
    }
}
