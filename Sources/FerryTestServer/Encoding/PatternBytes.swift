import Foundation

/// The deterministic byte pattern of `/bytes`, `/range` and the faults: byte `i` is `UInt8(i % 251)`.
///
/// 251 is prime, so the pattern does not line up with power-of-two buffer sizes and a misplaced block shows.
enum PatternBytes {
    static let period = 251
    /// The largest block `withBlock` hands out.
    static let blockSize = 64 * 1024
    private static let cycle: [UInt8] = (0..<(period + blockSize)).map { UInt8($0 % period) }

    /// The pattern bytes `offset..<offset + count`.
    static func make(count: Int, offset: Int = 0) -> Data {
        var data = Data(capacity: max(0, count))
        var produced = 0
        while produced < count {
            let length = min(blockSize, count - produced)
            withBlock(offset: offset + produced, count: length) { data.append(contentsOf: $0) }
            produced += length
        }
        return data
    }

    /// Calls `body` with the pattern bytes `offset..<offset + count`, without allocating.
    /// - Precondition: `count <= blockSize`.
    static func withBlock<Output>(offset: Int, count: Int, _ body: (UnsafeRawBufferPointer) -> Output) -> Output {
        precondition(count <= blockSize)
        let start = offset % period
        return cycle.withUnsafeBytes { raw in
            body(UnsafeRawBufferPointer(rebasing: raw[start..<start + count]))
        }
    }
}
