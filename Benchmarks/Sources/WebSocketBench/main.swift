import Ferry
import Foundation
import Logging
import NIOCore
import Synchronization
import WSClient

// Ferry's WebSocket against swift-websocket's own client (the library Ferry's `WebSocket` trait runs on), one
// (client, workload) per process, against EchoServer in a process of its own. run-websocket.sh interleaves rounds.
//
//   WebSocketBench serve [--port P]
//   WebSocketBench raw|ferry echo-32|parallel-32|binary-1mib|idle --url ws://127.0.0.1:P/ [--count N]
//
// Each run prints one JSON line. Both clients validate UTF-8, run no automatic pings and accept messages up to
// 2 MiB; both send each message as one frame.

struct Usage: Error, CustomStringConvertible {
    var description: String
}

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

if arguments.first == "serve" {
    try await EchoServer.run(port: option("--port").flatMap(Int.init) ?? 0)
    exit(0)
}

guard arguments.count >= 2, let url = option("--url") else {
    FileHandle.standardError.write(Data("usage: WebSocketBench raw|ferry WORKLOAD --url URL [--count N]\n".utf8))
    exit(64)
}
let client = arguments[0]
let workload = arguments[1]
let limit = 2 << 20
let text = String(repeating: "0123456789abcdef", count: 2)  // 32 bytes
let megabyte = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })

/// What one connection does: `count` round trips of `message`, each reply checked for its size.
protocol EchoClient: Sendable {
    func echo(url: String, count: Int, message: Ferry.WebSocketMessage) async throws
}

struct BenchFailure: Error, CustomStringConvertible {
    var description: String
}

func size(of message: Ferry.WebSocketMessage) -> Int {
    switch message {
    case .text(let text): text.utf8.count
    case .binary(let data): data.count
    }
}

/// Ferry: `Session.webSocket`, `send`, the messages' iterator, `close()` (which waits for the close handshake).
struct FerryEcho: EchoClient {
    let session = Session()

    func echo(url: String, count: Int, message: Ferry.WebSocketMessage) async throws {
        let socket = session.webSocket(url, options: WebSocketOptions(maximumMessageSize: limit))
        var messages = socket.messages.makeAsyncIterator()
        let expected = size(of: message)
        for _ in 0..<count {
            try await socket.send(message)
            guard let reply = try await messages.next(), size(of: reply) == expected else {
                throw BenchFailure(description: "ferry: a reply was missing or of the wrong size")
            }
        }
        await socket.close()
    }
}

/// swift-websocket's `WebSocketClient.connect`, its outbound writer and inbound message iterator; returning from
/// the handler closes the socket (and waits for the server's close).
struct RawEcho: EchoClient {
    static let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
    static let configuration = WebSocketClientConfiguration(maxFrameSize: limit, validateUTF8: true)

    func echo(url: String, count: Int, message: Ferry.WebSocketMessage) async throws {
        let frame: WebSocketOutboundWriter.OutboundFrame =
            switch message {
            case .text(let text): .text(text)
            case .binary(let data): .binary(ByteBuffer(bytes: data))
            }
        let expected = size(of: message)
        try await WebSocketClient.connect(url: url, configuration: Self.configuration, logger: Self.logger) {
            inbound, outbound, _ in
            var messages = inbound.messages(maxSize: limit).makeAsyncIterator()
            for _ in 0..<count {
                // Ferry's API takes `Data`, so Ferry copies each binary message into a buffer; the raw client is
                // given that copy too, so both do the same work per message.
                let outgoing: WebSocketOutboundWriter.OutboundFrame =
                    switch message {
                    case .text: frame
                    case .binary(let data): .binary(ByteBuffer(bytes: data))
                    }
                try await outbound.write(outgoing)
                let reply = try await messages.next()
                let got: Int? =
                    switch reply {
                    case .text(let text): text.utf8.count
                    case .binary(let buffer): buffer.readableBytes
                    case nil: nil
                    }
                guard got == expected else { throw BenchFailure(description: "raw: a reply was missing or short") }
            }
        }
    }
}

/// The process's resident memory in KiB, its open descriptors and its threads, from /proc/self.
struct ProcessCounts: Encodable {
    var rssKiB: Int
    var descriptors: Int
    var threads: Int

    static func now() -> ProcessCounts {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        func field(_ name: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return -1 }
            return Int(line.split(whereSeparator: \.isWhitespace).dropFirst().first ?? "") ?? -1
        }
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
        return ProcessCounts(rssKiB: field("VmRSS"), descriptors: descriptors, threads: field("Threads"))
    }
}

struct Report: Encodable {
    var client: String
    var workload: String
    var count: Int
    var seconds: Double
    var rate: Double
    var unit: String
    var before: ProcessCounts?
    var open: ProcessCounts?
    var after: ProcessCounts?
    var perConnectionKiB: Double?
}

func emit(_ report: Report) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    guard let line = try? encoder.encode(report) else { return }
    print(String(decoding: line, as: UTF8.self))
}

let echoClient: any EchoClient =
    switch client {
    case "ferry": FerryEcho()
    case "raw": RawEcho()
    default:
        { () -> any EchoClient in
            FileHandle.standardError.write(Data("unknown client \(client)\n".utf8))
            exit(64)
        }()
    }

let clock = ContinuousClock()
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
}

// A warm-up connection, so that event loops and run-time structures exist before anything is measured.
try await echoClient.echo(url: url, count: 10, message: Ferry.WebSocketMessage.text(text))

switch workload {
case "echo-32":
    let count = option("--count").flatMap(Int.init) ?? 20_000
    let elapsed = try await clock.measure {
        try await echoClient.echo(url: url, count: count, message: Ferry.WebSocketMessage.text(text))
    }
    emit(
        Report(
            client: client, workload: workload, count: count, seconds: seconds(elapsed),
            rate: Double(count) / seconds(elapsed), unit: "round trips/s"))
case "parallel-32":
    let perConnection = (option("--count").flatMap(Int.init) ?? 64_000) / 64
    let elapsed = try await clock.measure {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    try await echoClient.echo(
                        url: url, count: perConnection, message: Ferry.WebSocketMessage.text(text))
                }
            }
            try await group.waitForAll()
        }
    }
    let count = perConnection * 64
    emit(
        Report(
            client: client, workload: workload, count: count, seconds: seconds(elapsed),
            rate: Double(count) / seconds(elapsed), unit: "round trips/s"))
case "binary-1mib":
    let count = option("--count").flatMap(Int.init) ?? 200
    let elapsed = try await clock.measure {
        try await echoClient.echo(url: url, count: count, message: Ferry.WebSocketMessage.binary(megabyte))
    }
    // Each round trip moves the megabyte twice.
    emit(
        Report(
            client: client, workload: workload, count: count, seconds: seconds(elapsed),
            rate: Double(2 * count * megabyte.count) / seconds(elapsed) / 1e6, unit: "MB/s"))
case "idle":
    let count = option("--count").flatMap(Int.init) ?? 10_000
    let report =
        try await client == "ferry"
        ? IdleConnections.ferry(url: url, count: count)
        : IdleConnections.raw(url: url, count: count)
    emit(report)
default:
    FileHandle.standardError.write(Data("unknown workload \(workload)\n".utf8))
    exit(64)
}
