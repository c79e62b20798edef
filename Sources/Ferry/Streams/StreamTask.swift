import Foundation

/// A response consumed as it arrives: the head first, then the body as ``bytes`` (or ``lines``,
/// ``serverSentEvents`` and ``jsonLines(of:decoder:)`` built on them).
///
/// ```swift
/// let stream = await session.stream("events")
/// for try await event in stream.serverSentEvents { print(event.data) }
/// ```
///
/// The head is validated (status and content type, by the session's validation) before the first chunk is handed
/// on; custom validators get an empty body. The body can be iterated once. Leaving the loop early (`break`, a
/// thrown error, cancellation of the iterating task) cancels the transfer and frees its buffer, and so does
/// releasing the task without reading its body. A consumer that
/// is slower than the network is handled by ``StreamOptions``: memory use stays bounded.
public struct StreamTask: Sendable {
    let transfer: Transfer
    let buffer: StreamBuffer
    let request: Request
    let validation: Validation
    private let lifetime: Lifetime

    init(transfer: Transfer, buffer: StreamBuffer, request: Request, validation: Validation) {
        self.transfer = transfer
        self.buffer = buffer
        self.request = request
        self.validation = validation
        self.lifetime = Lifetime(transfer: transfer, buffer: buffer)
    }

    /// Cancels the transfer when the last copy of the task (and any iterator of its body) is gone: a stream nobody
    /// can read any more must not go on filling its buffer.
    private final class Lifetime: Sendable {
        let transfer: Transfer
        let buffer: StreamBuffer

        init(transfer: Transfer, buffer: StreamBuffer) {
            self.transfer = transfer
            self.buffer = buffer
        }

        deinit {
            guard !transfer.isFinished else { return }
            transfer.cancel()
            buffer.close()
        }
    }

    /// The response head, once it arrived and passed validation.
    /// - Throws: ``FerryError``: the transfer failed before a head arrived, or the head failed validation (then
    ///   the transfer is cancelled).
    public var response: HTTPResponse {
        get async throws(FerryError) {
            let head = await withTaskCancellationHandler {
                await buffer.head()
            } onCancel: { [transfer] in
                transfer.cancel()
            }
            switch head {
            case .success(let head):
                do {
                    try validation.validate(head, body: Data(), for: request)
                } catch {
                    transfer.cancel()
                    buffer.close()
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
    public var progress: ProgressStream { ProgressStream(reporter: transfer.downloadProgress) }

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
                    throw FerryError(.bodyTooLarge(limit: Int64(limit)), request: request, body: data)
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

    /// Cancels the transfer; a consumer gets ``FerryError/Reason/cancelled`` after the chunks already buffered.
    public func cancel() {
        transfer.cancel()
    }

    /// The transfer's outcome once the body ended: metrics and timeline, or the error. Never throws.
    public var completion: StreamCompletion {
        get async {
            let outcome = await transfer.outcome()
            return StreamCompletion(
                response: outcome.response, error: outcome.error, metrics: outcome.metrics, timeline: outcome.timeline)
        }
    }
}

/// How a streamed response ended.
public struct StreamCompletion: Sendable {
    /// The final response head, when one arrived.
    public var response: HTTPResponse?
    /// The error, when the transfer failed or was cancelled.
    public var error: FerryError?
    /// What Ferry counted.
    public var metrics: Metrics
    /// When each step happened.
    public var timeline: Timeline
}
