import Foundation

/// A response consumed as it arrives: the head first, then the body as ``bytes`` (or ``lines``,
/// ``serverSentEvents`` and ``jsonLines(of:decoder:)`` built on them).
///
/// ```swift
/// let stream = session.stream("events", headers: ["Accept": "text/event-stream"])
/// for try await event in stream.serverSentEvents { print(event.data) }
/// ```
///
/// Nothing is sent until the task is first needed: awaiting ``head`` (or iterating ``bytes``, which awaits it)
/// sends the request in the awaiting task; the body is then read in the task that iterates it, chunk by chunk, so
/// a transport that can pause reading (AsyncHTTPClient, in-memory) is paused by a slow consumer. One that cannot
/// (URLSession) buffers unread bytes as ``StreamOptions`` say: memory use stays bounded.
///
/// The head is judged by the validation of the task that sent the request (status and content type) before the
/// first chunk is handed on; a rejected head ends the stream with the validation's error. Custom validators get an
/// empty body. The body can be iterated once. Leaving the loop early (`break`, a thrown error, cancellation of the
/// iterating task) cancels the transfer, and so does releasing the task without reading its body. A stream that
/// nobody consumes is read and dropped by whoever awaits ``response``, ``result`` or ``value`` (or iterates its
/// progress).
public struct StreamTask: TransferTask {
    /// A stream's value is that it ended well: its body went to the consumer.
    public typealias Value = Void

    let transfer: Transfer
    /// The validation this task applies: the session's unless a `validate…` method replaced it.
    public let validation: Validation
    let lifetime: TaskLifetime

    init(transfer: Transfer, validation: Validation, lifetime: TaskLifetime? = nil) {
        self.transfer = transfer
        self.validation = validation
        self.lifetime = lifetime ?? TaskLifetime(transfer)
    }

    /// The final response head, as soon as it arrives, once it passed validation.
    /// - Throws: ``FerryError``: the transfer failed before a head arrived, or the head failed validation (then
    ///   the transfer is cancelled).
    public var head: HTTPResponse {
        get async throws(FerryError) { try await transfer.head(validation: validation).get() }
    }

    /// The body's chunks, as they arrive; iterate once.
    public var bytes: ByteStream { ByteStream(task: self) }

    /// The progress of the body: bytes received so far, of `Content-Length` when known. Iterating it starts the
    /// transfer when nobody did; with no consumer of ``bytes`` by the time the head arrives, the body is read and
    /// dropped.
    public var downloadProgress: ProgressStream { transfer.downloadProgress(validation) }

    /// The progress of the request body, if it has one; iterating it starts the transfer as ``downloadProgress``
    /// does.
    public var uploadProgress: ProgressStream { transfer.uploadProgress(validation) }

    /// Collects the whole body in memory.
    /// - Parameter limit: The most bytes accepted.
    /// - Returns: The body.
    /// - Throws: ``FerryError`` with ``FerryError/Reason/bodyTooLarge(limit:)`` as soon as the body exceeds `limit`
    ///   (the transfer is then cancelled), or the transfer's error.
    public func collect(upTo limit: Int) async throws(FerryError) -> Data {
        var data = Data()
        do {
            for try await chunk in bytes {
                guard data.count + chunk.count <= limit else {
                    throw FerryError(.bodyTooLarge(limit: Int64(limit)), request: transfer.sentRequest, body: data)
                }
                data.append(chunk)
            }
        } catch let error as FerryError {
            throw error
        } catch {
            throw FerryError.mapping(error)
        }
        return data
    }

    /// Starts the transfer on a task of its own: the request is sent and the head awaited, the body waits for a
    /// consumer.
    public func resume() {
        transfer.startHead(validation: validation)
    }

    /// Cancels the transfer: the consumer's next read throws ``FerryError/Reason/cancelled`` (a read in progress
    /// ends with it too); a stream that has not started never will.
    public func cancel() {
        transfer.cancel()
    }

    /// How the transfer ended: the head, metrics and timeline, or the error. Waits for the end of the body; when
    /// nobody iterates ``bytes``, the body is read and dropped. Never throws.
    public var response: StreamResponse {
        get async {
            let outcome = await transfer.outcome(validation: validation)
            let result: Result<Void, FerryError> = outcome.error.map { .failure($0) } ?? .success(())
            return StreamResponse(
                request: outcome.request, response: outcome.response, data: nil, result: result,
                metrics: outcome.metrics, timeline: outcome.timeline)
        }
    }

    /// Returns a task on the same transfer validated by `validation` instead of the session's (it applies when
    /// this task is the one that sends the request).
    /// - Parameter validation: The validation, e.g. ``Validation/none``.
    /// - Returns: The task.
    public func validate(using validation: Validation) -> StreamTask {
        StreamTask(transfer: transfer, validation: validation, lifetime: lifetime)
    }
}
