extension URLSessionTransport {
    /// How far a compressed (`Content-Encoding`) response body may expand on a URLSession transport before Ferry
    /// stops it with ``FerryError/Reason/decompressionLimitExceeded``.
    ///
    /// libcurl (FoundationNetworking) and Foundation decode gzip and deflate themselves and hand Ferry only the
    /// decoded bytes, never the compressed count, so the ratio that AsyncHTTPClient checks as it goes can only be
    /// checked here against the compressed `Content-Length` the server declared. A body without one (chunked) is
    /// held to ``maximumDecodedSize`` alone, which also caps every compressed body.
    public struct DecompressionLimit: Sendable, Hashable {
        /// The most decoded bytes per byte of declared compressed `Content-Length`. 100 by default, the ratio
        /// `AsyncHTTPClientTransport.defaultConfiguration` allows.
        public var ratio: Int64
        /// The most decoded bytes of any compressed body, declared length or not. 64 MiB by default.
        public var maximumDecodedSize: Int64

        /// Creates a limit.
        /// - Parameters:
        ///   - ratio: The most decoded bytes per declared compressed byte.
        ///   - maximumDecodedSize: The most decoded bytes of any compressed body.
        public init(ratio: Int64 = 100, maximumDecodedSize: Int64 = 64 << 20) {
            self.ratio = ratio
            self.maximumDecodedSize = maximumDecodedSize
        }

        /// A ratio of 100 and at most 64 MiB decoded.
        public static let `default` = DecompressionLimit()

        /// No limit: only for servers you trust not to send decompression bombs.
        public static let none = DecompressionLimit(ratio: .max, maximumDecodedSize: .max)

        /// The most decoded bytes `head`'s body may reach, or `nil` when it is not content-encoded.
        func decodedLimit(for head: HTTPResponse) -> Int64? {
            guard let coding = head.headers["Content-Encoding"],
                !coding.isEmpty, coding.lowercased() != "identity"
            else { return nil }
            guard let declared = head.expectedContentLength else { return maximumDecodedSize }
            let (scaled, overflow) = declared.multipliedReportingOverflow(by: ratio)
            return overflow ? maximumDecodedSize : min(scaled, maximumDecodedSize)
        }
    }
}
