import Ferry
import Foundation

/// `ferry URL`: one request whose whole response is read, then printed.
struct FetchCommand {
    let invocation: Invocation

    func run() async -> ExitCode {
        let layout = invocation.layout
        let request = invocation.plan.request()
        layout.printRequest(
            invocation.plan, body: request.body,
            cookies: invocation.cookieJar?.cookies(for: invocation.plan.url) ?? [])
        let session = invocation.makeSession()
        let response = await session.request(request).response
        await session.shutdown()
        if let head = response.response {
            layout.printResponseHead(head)
            layout.printResponseBody(response.data ?? Data(), head: head)
            layout.printMetadata(response.timeline)
        }
        layout.printTimeline(response.timeline, metrics: response.metrics)
        if let error = response.error { return invocation.fail(error) }
        layout.note(
            invocation.summary(
                bytes: response.metrics.bytesReceived, timeline: response.timeline, cache: response.metrics.cacheStatus)
        )
        return response.response.map(invocation.checkStatus) ?? .success
    }
}
