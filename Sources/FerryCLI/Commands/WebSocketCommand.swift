import Ferry
import Foundation
import FerryLocking

/// `ferry ws URL`: a WebSocket on the command line. Each line of standard input goes out as a text message (binary
/// with `--binary`); each message the server sends is printed on a line of its own on standard output, text as it
/// is and binary in base64 (said once on standard error).
///
/// The end of standard input closes the socket with 1000 and waits for the server's answer; Ctrl-C closes it with
/// 1001; a close from the server ends the command, its code and reason on standard error. Exit status: 0 for a
/// close with 1000 (or without a code), 1 for another close code from the server, a lost connection or a message
/// Ferry refused, 3, 4 or 5 when the server answered the upgrade with a 3xx, 4xx or 5xx (whatever
/// `--check-status` says: no socket was opened), 2 for a build without the `WebSocket` trait, 130 after Ctrl-C.
struct WebSocketCommand {
    let invocation: Invocation

    /// The build command that gives `ferry` WebSockets.
    static let buildHint =
        "this ferry was built without WebSockets; build it with `swift build -c release --traits WebSocket "
        + "--product ferry`"

    /// How the message loop that reads the server's messages ended.
    private enum Reception: Sendable {
        case ended
        case failed(FerryError)
    }

    /// The close `ferry` asked for first, if any: 1000 at the end of the input, 1001 after Ctrl-C.
    private final class Closer: Sendable {
        private let code = Locked<WebSocketCloseCode?>(nil)

        /// Notes a close; the first one counts.
        func request(_ requested: WebSocketCloseCode) {
            code.withLock { code in if code == nil { code = requested } }
        }

        var requested: WebSocketCloseCode? { code.withLock { $0 } }
    }

    func run() async -> ExitCode {
        let options = invocation.options
        let plan = invocation.plan
        invocation.layout.printWebSocketRequest(
            plan, protocols: options.webSocketProtocols, cookies: invocation.cookieJar?.cookies(for: plan.url) ?? [])
        let session = Session(
            configuration: .init(
                headers: [:], idleTimeout: plan.idleTimeout ?? .seconds(60), redirectPolicy: .never,
                validation: .none, transport: invocation.transport, cookieJar: invocation.cookieJar))
        let socket = session.webSocket(
            plan.url, protocols: options.webSocketProtocols, headers: plan.headers,
            options: WebSocketOptions(
                maximumMessageSize: options.maximumMessageSize ?? WebSocketOptions().maximumMessageSize))
        let status = await run(socket)
        await session.shutdown()
        return status
    }

    private func run(_ socket: WebSocketTask) async -> ExitCode {
        let layout = invocation.layout
        let head: HTTPResponse
        do {
            head = try await socket.head
        } catch {
            return handshakeFailed(error)
        }
        layout.printResponseHead(head)
        if invocation.options.isVerbose, !invocation.options.webSocketProtocols.isEmpty {
            layout.note(head.headers["Sec-WebSocket-Protocol"].map { "subprotocol: \($0)" } ?? "no subprotocol chosen")
        }
        let closer = Closer()
        let interrupts = InterruptSignal()
        // Nothing is read or sent before Ctrl-C is seen: one pressed while Dispatch still installs the source would
        // be lost (seen under CI load: a hang with the socket open).
        await interrupts.waitUntilInstalled()
        let input = StandardInputLines(strippingCarriageReturn: !invocation.options.sendsBinary)
        let reception = await withTaskGroup(of: Reception?.self) { group in
            group.addTask { await receive(socket) }
            group.addTask {
                await send(input, on: socket, closer: closer)
                return nil
            }
            group.addTask {
                for await _ in interrupts.signals {
                    closer.request(.goingAway)
                    await socket.close(code: .goingAway)
                }
                return nil
            }
            var reception = Reception.ended
            while let next = await group.next() {
                guard let next else { continue }
                // The server's messages have ended: nothing more to send, no Ctrl-C to wait for.
                reception = next
                group.cancelAll()
            }
            return reception
        }
        interrupts.stop()
        return await ended(socket, reception: reception, closer: closer)
    }

    /// Prints the server's messages until the socket closes.
    private func receive(_ socket: WebSocketTask) async -> Reception {
        let out = invocation.layout.console.out
        let printsMessages = invocation.layout.selection.responseBody
        var saidBinary = false
        do {
            for try await message in socket.messages where printsMessages {
                switch message {
                case .text(let text):
                    out.write(text + "\n")
                case .binary(let data):
                    if !saidBinary {
                        invocation.layout.note("binary messages are printed in base64, one per line")
                        saidBinary = true
                    }
                    out.write(data.base64EncodedString() + "\n")
                }
            }
            return .ended
        } catch {
            return .failed(error)
        }
    }

    /// Sends standard input's lines until it ends, then closes with 1000; stops when the socket no longer takes
    /// messages or the task is cancelled.
    private func send(_ input: StandardInputLines, on socket: WebSocketTask, closer: Closer) async {
        let binary = invocation.options.sendsBinary
        for await line in input.lines {
            defer { input.consumed() }
            do {
                try await socket.send(binary ? .binary(line) : .text(String(decoding: line, as: UTF8.self)))
            } catch {
                return  // closed or lost: the messages' end says how
            }
        }
        guard !Task.isCancelled else { return }
        closer.request(.normalClosure)
        // The replies still on their way are printed: the receiving task reads on until the server's close.
        await socket.close(code: .normalClosure, drainingMessages: true)
    }

    /// The exit status once the socket has ended, and what is said about it on standard error.
    private func ended(_ socket: WebSocketTask, reception: Reception, closer: Closer) async -> ExitCode {
        let layout = invocation.layout
        let frame = await socket.closeFrame
        if case .failed(let error) = reception {
            if error.reason == .webSocketClosed(.messageTooBig) {
                let limit = invocation.options.maximumMessageSize ?? WebSocketOptions().maximumMessageSize
                layout.printError(error.localizedDescription)
                layout.note("allow larger messages with --max-message-size (it is \(Units.bytes(Int64(limit))))")
                return .failure
            }
            return invocation.fail(error)
        }
        switch closer.requested {
        case .goingAway?:
            layout.note("interrupted: closed with \(Self.describe(frame ?? WebSocketClose(code: .goingAway)))")
            return .interrupted
        case .some:
            if let frame {
                layout.note("closed: \(Self.describe(frame))")
            } else {
                layout.note("closed: the server ended the connection without answering the close")
            }
            return .success
        case nil:
            guard let frame else {
                layout.printError("the server ended the connection without a close frame")
                return .network
            }
            if frame.code == nil || frame.code == .normalClosure {
                layout.note("closed by the server: \(Self.describe(frame))")
                return .success
            }
            layout.printError("the server closed the WebSocket: \(Self.describe(frame))")
            return .failure
        }
    }

    /// `1000 (normal closure)`, with the reason in quotes when there is one; `no close code` when there is none.
    static func describe(_ frame: WebSocketClose) -> String {
        let code = frame.code.map { "\($0)" } ?? "no close code"
        return frame.reason.isEmpty ? code : "\(code) \"\(frame.reason)\""
    }

    /// Reports a handshake that failed: a refused upgrade with the server's head, a build without WebSockets with
    /// the way to build one.
    private func handshakeFailed(_ error: FerryError) -> ExitCode {
        let layout = invocation.layout
        switch error.reason {
        case .unsupportedSetting:
            layout.printError(error.localizedDescription)
            layout.note(Self.buildHint)
            return .usage
        case .unacceptableStatus:
            if let head = error.response { layout.printResponseHead(head) }
            let status = invocation.fail(error)
            layout.note("the server did not accept a WebSocket there; is the URL a WebSocket endpoint?")
            return status
        default:
            return invocation.fail(error)
        }
    }
}
