import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one delegate of a transport's URLSession: routes each callback to its ``URLSessionCall`` or
/// ``URLSessionWebSocket`` by task identifier, and answers TLS challenges from the transport's ``TLSPolicy``.
/// Callbacks for a task Ferry has finished with (cancelled, failed) are dropped.
final class URLSessionEventRouter: NSObject, URLSessionDataDelegate, URLSessionWebSocketDelegate, Sendable {
    /// Where a task's callbacks go.
    private enum Route {
        case call(URLSessionCall)
        case socket(URLSessionWebSocket)
    }

    private let routes = Locked<[Int: Route]>([:])
    /// The transport's TLS policy, read.
    let trust: URLSessionTrust

    init(trust: URLSessionTrust) {
        self.trust = trust
    }

    func register(_ call: URLSessionCall, for identifier: Int) {
        routes.withLock { $0[identifier] = .call(call) }
    }

    func register(_ socket: URLSessionWebSocket, for identifier: Int) {
        routes.withLock { $0[identifier] = .socket(socket) }
    }

    func unregister(_ identifier: Int) {
        routes.withLock { $0[identifier] = nil }
    }

    private func call(for task: URLSessionTask) -> URLSessionCall? {
        guard case .call(let call) = routes.withLock({ $0[task.taskIdentifier] }) else { return nil }
        return call
    }

    private func socket(for task: URLSessionTask) -> URLSessionWebSocket? {
        guard case .socket(let socket) = routes.withLock({ $0[task.taskIdentifier] }) else { return nil }
        return socket
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        completionHandler(.allow)
        guard let call = call(for: dataTask) else { return }
        guard let http = response as? HTTPURLResponse, let head = HTTPResponse(http) else {
            call.stop(FerryError(.transport(.invalidResponse)))
            return
        }
        call.receive(head) { wake in session.delegateQueue.addOperation(wake) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        call(for: dataTask)?.receive(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        call(for: task)?.recordSent(
            totalBytesSent, expected: totalBytesExpectedToSend,
            bodyCount: task.countOfBytesExpectedToSend > 0 ? task.countOfBytesExpectedToSend : nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Ferry follows redirects itself: the 3xx response is the answer to this hop.
        completionHandler(nil)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        #if !canImport(FoundationNetworking)
        // Apple platforms ask this delegate about every TLS connection (no session-level handler is implemented):
        // the server's trust, and a client certificate when the server wants one.
        switch trust.answer(challenge) {
        case .reply(let disposition, let credential)?:
            return completionHandler(disposition, credential)
        case .refuse(let error)?:
            call(for: task)?.stop(error)
            socket(for: task)?.refused(error)
            return completionHandler(.cancelAuthenticationChallenge, nil)
        case nil:
            break
        }
        #endif
        // HTTP authentication. Unanswered (or answered with default handling and no credential), a 401 hangs
        // forever on Linux. Ferry sends credentials as headers; the 401 itself is the response.
        call(for: task)?.recordChallenge()
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        // Apple platforms deliver this before completion; FoundationNetworking never calls it.
        call(for: task)?.context.record(metrics.transactionMetrics.map(TransactionMetrics.init))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        switch routes.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) {
        case .call(let call): call.complete(task: task, error: error)
        case .socket(let socket): socket.completed()
        case nil: break
        }
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?
    ) {
        socket(for: webSocketTask)?.opened(subprotocol: `protocol`)
    }

    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask,
        didCloseWith closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?
    ) {
        socket(for: webSocketTask)?.serverClosed(code: closeCode, reason: reason)
    }
}
