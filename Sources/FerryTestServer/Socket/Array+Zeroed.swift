#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension [UInt8] {
    /// `count` zero bytes, set with one `memset`: `Array(repeating:count:)` and `append(contentsOf:
    /// repeatElement(…))` go element by element through generic code, which a debug build, and far more a sanitizer
    /// build, does not specialise (64 KiB of them per connection made sanitizer runs crawl).
    /// - Parameters:
    ///   - count: how many bytes.
    ///   - prefix: bytes copied to the front (at most `count` of them), the rest staying zero.
    static func zeroed(count: Int, prefix: UnsafeBufferPointer<UInt8> = .init(start: nil, count: 0)) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
            guard let base = storage.baseAddress else { return }
            memset(base, 0, count)
            if let source = prefix.baseAddress { memcpy(base, source, Swift.min(prefix.count, count)) }
            initialized = count
        }
    }
}
