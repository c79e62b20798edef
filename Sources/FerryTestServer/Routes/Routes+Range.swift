import Foundation

extension Router {
    /// `/range/{n}`: pattern bytes with `Range`, `If-Range`, `?ignore-range=1` and `?reset-at=K`.
    static let rangeRoutes: [BuiltInRoute] = [
        BuiltInRoute("/range/:n") { context in
            guard let count = context.int("n"), count >= 0 else { return context.badRequest("n must be >= 0") }
            return RangeResponder(count: count, request: context.request).response()
        }
    ]
}

/// Answers `/range/{n}`.
///
/// The validators are `ETag: "range-{n}"` and a fixed `Last-Modified`. A `Range` of one `bytes=a-b`, `bytes=a-` or
/// `bytes=-suffix` gets 206; a range starting past the end gets 416; several ranges, a malformed one, a
/// non-matching `If-Range` or `?ignore-range=1` get the full 200. `?reset-at=K` resets the connection after K body
/// bytes of a full 200 answer only, so a client can resume from the same URL with a `Range` request.
struct RangeResponder {
    static let lastModified = "Wed, 21 Oct 2015 07:28:00 GMT"

    let count: Int
    let request: TestRequest

    var etag: String { "\"range-\(count)\"" }

    private var headers: [(name: String, value: String)] {
        [
            ("Content-Type", "application/octet-stream"), ("Accept-Ranges", "bytes"), ("ETag", etag),
            ("Last-Modified", Self.lastModified),
        ]
    }

    func response() -> TestResponse {
        switch requestedRange() {
        case .full:
            return fullResponse()
        case .unsatisfiable:
            return TestResponse(status: 416, headers: headers + [("Content-Range", "bytes */\(count)")])
        case .partial(let range):
            return TestResponse(
                status: 206,
                headers: headers + [("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound)/\(count)")],
                body: .pattern(count: range.count, offset: range.lowerBound)
            )
        }
    }

    private func fullResponse() -> TestResponse {
        if let resetAt = request.query("reset-at").flatMap({ Int($0) }), resetAt >= 0, resetAt < count {
            return .fault(
                .partialBody(headers: headers, declaredLength: count, sentLength: resetAt, then: .reset)
            )
        }
        return TestResponse(status: 200, headers: headers, body: .pattern(count: count))
    }

    private enum Requested {
        case full
        case unsatisfiable
        case partial(ClosedRange<Int>)
    }

    private func requestedRange() -> Requested {
        guard request.query("ignore-range") != "1", let header = request.header("Range") else { return .full }
        if let validator = request.header("If-Range"), validator != etag, validator != Self.lastModified {
            return .full
        }
        let spec = header.trimmingCharacters(in: .whitespaces)
        guard spec.lowercased().hasPrefix("bytes="), !spec.contains(",") else { return .full }
        let bounds = spec.dropFirst("bytes=".count).split(
            separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2 else { return .full }
        let first = bounds[0].trimmingCharacters(in: .whitespaces)
        let last = bounds[1].trimmingCharacters(in: .whitespaces)
        if first.isEmpty {
            guard let suffix = Int(last), suffix >= 0 else { return .full }
            guard suffix > 0, count > 0 else { return .unsatisfiable }
            return .partial(max(0, count - suffix)...(count - 1))
        }
        guard let start = Int(first), start >= 0 else { return .full }
        guard start < count else { return .unsatisfiable }
        if last.isEmpty { return .partial(start...(count - 1)) }
        guard let end = Int(last), end >= start else { return .full }
        return .partial(start...min(end, count - 1))
    }
}
