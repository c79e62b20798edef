import Ferry
import Foundation

/// `ferry --stream URL`: the body printed as it arrives, line by line, or event by event for
/// `text/event-stream`.
struct StreamCommand {
    let invocation: Invocation

    func run() async -> ExitCode {
        await invocation.withRequest { request, session in await run(request, on: session) }
    }

    private func run(_ request: Request, on session: Session) async -> ExitCode {
        let layout = invocation.layout
        let task = session.stream(request).unvalidated()
        let head: HTTPResponse
        do {
            head = try await task.head
        } catch {
            return invocation.fail(error)
        }
        layout.printResponseHead(head)
        let out = invocation.layout.console.out
        let printsBody = layout.selection.responseBody
        do {
            if head.mimeType == "text/event-stream" {
                for try await event in task.serverSentEvents where printsBody {
                    out.write(Self.format(event, on: out))
                }
            } else {
                for try await line in task.lines where printsBody {
                    out.write(line + "\n")
                }
            }
        } catch let error as FerryError {
            return invocation.fail(error)
        } catch {
            layout.printError("the stream could not be read: \(error.localizedDescription)")
            return .failure
        }
        let response = await task.response
        layout.printTimeline(response.timeline, metrics: response.metrics)
        layout.printMetadata(response.timeline)
        layout.note(invocation.summary(bytes: response.metrics.bytesReceived, timeline: response.timeline))
        return invocation.checkStatus(head)
    }

    /// An event's data on a line of its own; on a terminal, after its type and id when it has them.
    static func format(_ event: ServerSentEvent, on stream: Console.Stream) -> String {
        guard stream.isTerminal else { return event.data + "\n" }
        var label = event.event == "message" ? "" : event.event
        if let id = event.id { label += (label.isEmpty ? "" : " ") + "#\(id)" }
        return (label.isEmpty ? "" : stream.styled(label, .cyan) + " ") + event.data + "\n"
    }
}
