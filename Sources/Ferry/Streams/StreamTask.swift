import Foundation

/// A response consumed as it arrives: the head first, then the body as ``bytes`` (or ``lines``,
/// ``serverSentEvents`` and ``jsonLines(of:decoder:)`` built on them).
///
/// ```swift
/// let stream = session.stream("events", headers: ["Accept": "text/event-stream"])
/// for try await event in stream.serverSentEvents { print(event.data) }
/// ```
///
/// Nothing is sent until the task is first awaited: awaiting ``head`` (or iterating ``bytes``, which awaits it)
/// sends the request in the awaiting task; the body is then read in the task that iterates it, chunk by chunk, so
/// a transport that can pause reading (AsyncHTTPClient, in-memory) is paused by a slow consumer. One that cannot
/// (URLSession) buffers unread bytes as ``StreamOptions`` say: memory use stays bounded.
///
/// The head is validated (status and content type, by the session's validation or the task's ``validate(using:)``)
/// before the first chunk is handed on; custom validators get an empty body. The body can be iterated once.
/// Leaving the loop early (`break`, a thrown error, cancellation of the iterating task) cancels the transfer, and
/// so does releasing the task without reading its body.
public struct StreamTask: Sendable {
    let transfer: StreamTransfer
    let validation: Validation
    private let lifetime: Lifetime

    init(transfer: StreamTransfer, validation: Validation) {
        self.transfer = transfer
        self.validation = validation
        self.lifetime = Lifetime(transfer: transfer)
    }

    private init(_ task: StreamTask, validation: Validation) {
        self.transfer = task.transfer
        self.validation = validation
        self.lifetime = task.lifetime
    }

    /// Cancels the transfer when the last copy of the task (and any iterator of its body) is gone: a stream nobody
    /// can read any more must not hold its connection.
    private final class Lifetime: Sendable {
        let transfer: StreamTransfer

        init(transfer: StreamTransfer) {
            self.transfer = transfer
        }

        deinit {
            guard !transfer.isFinished else { return }
            transfer.cancel()
        }
    }

    /// The response head, once it arrived and passed validation.
    /// - Throws: ``FerryError``: the transfer failed before a head arrived, or the head failed validation (then
    ///   the transfer is cancelled).
    public var head: HTTPResponse {
        get async throws(FerryError) {
            let head = await transfer.head()
            switch head {
            case .success(let head):
                do {
                    try validation.validate(head, body: Data(), for: transfer.sentRequest)
                } catch {
                    transfer.reject(error)
                    throw error
                }
                return head
            case .failure(let error):
                throw error
            }
        }
    }

    /// The body's chunks, as they arrive; iterate once.
    public var bytes: ByteStream { ByteStream(task: self) }

    /// The progress of the body: bytes received so far, of `Content-Length` when known.
    public var downloadProgress: ProgressStream { ProgressStream(reporter: transfer.controls.downloadProgress) }

    /// The progress of the request body, if it has one.
    public var uploadProgress: ProgressStream { ProgressStream(reporter: transfer.controls.uploadProgress) }

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
        let transfer = transfer
        Task { _ = await transfer.head() }
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
            _ = try? await head  // validates the head: a rejected one ends the stream with the validation error
            let outcome = await transfer.completion()
            return StreamResponse(
                request: outcome.request, response: outcome.response, error: outcome.error, metrics: outcome.metrics,
                timeline: outcome.timeline)
        }
    }

    /// Returns a task on the same transfer validated by `validation` instead of the session's.
    /// - Parameter validation: The validation, e.g. ``Validation/none``.
    /// - Returns: The task.
    public func validate(using validation: Validation) -> StreamTask {
        StreamTask(self, validation: validation)
    }

    /// Returns a task that accepts only these status codes (replacing the session's status check).
    /// - Parameter statusCodes: The acceptable codes.
    /// - Returns: The task.
    public func validate(statusCode statusCodes: some Sequence<Int>) -> StreamTask {
        var validation = self.validation
        validation.acceptableStatusCodes = Set(statusCodes)
        return StreamTask(self, validation: validation)
    }

    /// Returns a task that accepts only these content types (wildcards such as `text/*` allowed).
    /// - Parameter contentTypes: The acceptable media types.
    /// - Returns: The task.
    public func validate(contentType contentTypes: [String]) -> StreamTask {
        var validation = self.validation
        validation.acceptableContentTypes = .types(contentTypes)
        return StreamTask(self, validation: validation)
    }

    /// Returns a task that accepts every head, whatever its status.
    /// - Returns: The task.
    public func unvalidated() -> StreamTask {
        StreamTask(self, validation: .none)
    }
}

/// How a streamed response ended.
public struct StreamResponse: Sendable {
    /// The request as it was sent, with the session's defaults applied.
    public var request: Request?
    /// The final response head, when one arrived.
    public var response: HTTPResponse?
    /// The error, when the transfer failed or was cancelled.
    public var error: FerryError?
    /// What Ferry counted.
    public var metrics: Metrics
    /// When each step happened.
    public var timeline: Timeline
}
