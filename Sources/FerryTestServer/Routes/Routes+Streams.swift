import Foundation

extension Router {
    /// `/sse?count=N&interval=S`, `/ndjson?count=N&interval=S`.
    static let streamRoutes: [BuiltInRoute] = [
        BuiltInRoute("/sse") { context in
            guard let (count, interval) = StreamParameters.parse(context, defaultCount: 3) else {
                return context.badRequest("count must be 0...10000 and interval 0...60")
            }
            return TestResponse(
                status: 200,
                headers: [("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache")],
                body: .chunked(ServerSentEvents.chunks(count: count), delay: interval)
            )
        },
        BuiltInRoute("/ndjson") { context in
            guard let (count, interval) = StreamParameters.parse(context, defaultCount: 5) else {
                return context.badRequest("count must be 0...10000 and interval 0...60")
            }
            let lines = (0..<count).map { Data("{\"index\":\($0)}\n".utf8) }
            return TestResponse(
                status: 200,
                headers: [("Content-Type", "application/x-ndjson")],
                body: .chunked(lines, delay: interval)
            )
        },
    ]
}

/// `count` and `interval` for the streaming endpoints.
enum StreamParameters {
    static func parse(_ context: RouteContext, defaultCount: Int) -> (count: Int, interval: Duration)? {
        let count = context.queryInt("count") ?? defaultCount
        let interval = context.queryDouble("interval") ?? 0
        guard (0...10_000).contains(count), interval <= Router.longestWait else { return nil }
        return (count, .fractionalSeconds(interval))
    }
}

/// The `/sse` stream, built to trip up event-stream parsers.
///
/// Event `i` (from 0) is: a comment `: tick i` (LF), then `retry: 1500` (event 0 only), `id: i+1`, `event: tick`,
/// `data: event i`, `data: line 2` and the empty line, all ending with LF, CRLF or CR for `i % 3` = 0, 1, 2.
/// A parser must therefore dispatch `id` "i+1", `event` "tick", `data` "event i\nline 2". Each event is one chunk,
/// except that odd events are split in the middle of `data: event i`, and events with CRLF endings are also split
/// between the CR and the LF of their final empty line. `interval` separates every chunk.
enum ServerSentEvents {
    static let lineEndings = ["\n", "\r\n", "\r"]

    /// The chunks of `count` events.
    static func chunks(count: Int) -> [Data] {
        (0..<count).flatMap { chunks(ofEvent: $0) }
    }

    private static func chunks(ofEvent index: Int) -> [Data] {
        let end = lineEndings[index % 3]
        var lines = [": tick \(index)\n"]
        if index == 0 { lines.append("retry: 1500" + end) }
        lines += ["id: \(index + 1)" + end, "event: tick" + end, "data: event \(index)" + end, "data: line 2" + end]
        let text = Array((lines.joined() + end).utf8)
        var cuts: [Int] = []
        if !index.isMultiple(of: 2), let data = text.firstRange(of: Array("data: ev".utf8)) {
            cuts.append(data.upperBound)
        }
        if end == "\r\n" { cuts.append(text.count - 1) }
        var pieces: [Data] = []
        var start = 0
        for cut in cuts {
            pieces.append(Data(text[start..<cut]))
            start = cut
        }
        pieces.append(Data(text[start...]))
        return pieces
    }
}
