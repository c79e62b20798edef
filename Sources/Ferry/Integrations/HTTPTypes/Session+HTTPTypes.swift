#if HTTPTypes
public import Foundation
public import HTTPTypes

extension Session {
    /// Makes a task for a swift-http-types request; it is sent when the task is first awaited.
    ///
    /// A request without `:scheme` and `:authority` is relative to the session's `baseURL`.
    /// - Parameters:
    ///   - request: The request.
    ///   - body: The body.
    /// - Returns: The task.
    public nonisolated func send(_ request: HTTPRequest, body: RequestBody? = nil) -> DataTask<Data> {
        do throws(FerryError) {
            return self.request(try Request(request, body: body, baseURL: configuration.baseURL))
        } catch {
            return DataTask(transfer: Transfer(failed: error), validation: configuration.validation)
        }
    }
}
#endif
