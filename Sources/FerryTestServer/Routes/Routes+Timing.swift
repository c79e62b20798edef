import Foundation

extension Router {
    /// The longest `/delay` or `/drip` wait accepted, in seconds.
    static let longestWait = 60.0

    /// `/delay/{seconds}`, `/drip`, `/drip-chunked`.
    static let timingRoutes: [BuiltInRoute] = [
        BuiltInRoute("/delay/:seconds") { context in
            guard let seconds = context.seconds("seconds"), seconds <= longestWait else {
                return context.badRequest("seconds must be 0...\(Int(longestWait))")
            }
            return TestResponse.jsonObject(Echo.document(for: context)).delayed(by: .fractionalSeconds(seconds))
        },
        BuiltInRoute("/drip") { Drip(context: $0).response(chunked: false) },
        BuiltInRoute("/drip-chunked") { Drip(context: $0).response(chunked: true) },
    ]
}

/// `/drip?numbytes=N&duration=S&delay=D&code=C`: after D seconds, N `*` bytes spread evenly over S seconds.
///
/// Defaults: 10 bytes, 2 seconds, no delay, status 200. The bytes go out in at most 1,000 pieces, the first right
/// after the head and the last S seconds later.
struct Drip {
    static let maximumBytes = 10 * 1024 * 1024
    static let maximumPieces = 1_000

    let context: RouteContext

    func response(chunked: Bool) -> TestResponse {
        let count = context.queryInt("numbytes") ?? 10
        let duration = context.queryDouble("duration") ?? 2
        let delay = context.queryDouble("delay") ?? 0
        let status = context.queryInt("code") ?? 200
        guard (0...Self.maximumBytes).contains(count), duration <= Router.longestWait, delay <= Router.longestWait,
            (200...599).contains(status)
        else {
            return context.badRequest(
                "numbytes must be 0...\(Self.maximumBytes), duration and delay 0...60, code 200...599")
        }
        let pieceCount = min(count, Self.maximumPieces)
        let pieces = (0..<pieceCount).map { index in
            let size = count / pieceCount + (index < count % pieceCount ? 1 : 0)
            return Data(repeating: UInt8(ascii: "*"), count: size)
        }
        let interval = pieceCount > 1 ? Duration.fractionalSeconds(duration / Double(pieceCount - 1)) : .zero
        return TestResponse(
            status: status,
            headers: [("Content-Type", "application/octet-stream")],
            body: chunked ? .chunked(pieces, delay: interval) : .paced(pieces, interval: interval),
            delay: .fractionalSeconds(delay)
        )
    }
}
