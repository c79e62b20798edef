// libFuzzer target: the HTTP cache's parsers (CacheControl, CacheKey, VaryKey, DiskCacheRecord, HTTPDate, the
// client's If-None-Match, Range).
// Properties: parsing `Cache-Control` is total, its names come out non-empty, lowercased and trimmed, its
// delta-seconds within 0...2^31; the text fast path of the cache key agrees with URLComponents wherever it answers;
// a Vary line called normal is its own normal form; a disk record is total to decode (whatever its payload, behind a
// valid checksum), and what decodes encodes and decodes back to the same record; an HTTP-date that parses is one of
// the three forms' lengths; an If-None-Match list's tags are never empty; a Range names offsets inside the body.
import Foundation

@testable import Ferry

/// libFuzzer's entry point: checks the properties above on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPCache(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let which = input.byte() % 7
    let rest = input.rest()
    let text = String(decoding: rest, as: UTF8.self)
    switch which {
    case 0: checkCacheControl(text)
    case 1: checkCacheKey(text)
    case 2: checkVary(text)
    case 4: checkHTTPDate(text)
    case 5: checkIfNoneMatch(text)
    case 6: checkRange(text)
    default: checkRecord(rest)
    }
    return 0
}

private func checkCacheControl(_ value: String) {
    for directive in CacheControlDirective.list(in: value) {
        let name = directive.name
        if name.isEmpty || name != name.lowercased() || name != name.trimmingOWS || name.contains(",")
            || name.contains("=")
        {
            fuzzFailure("directive name \(name.debugDescription) from \(value.debugDescription)")
        }
    }
    let parsed = CacheControl(parsing: value)
    let limit = CacheControl.deltaSecondsLimit
    for seconds in [
        parsed.maxAge, parsed.sharedMaxAge, parsed.minFresh, parsed.staleWhileRevalidate,
        parsed.staleIfError,
    ].compactMap({ $0 }) where !(0...limit).contains(seconds) {
        fuzzFailure("delta-seconds \(seconds) from \(value.debugDescription)")
    }
}

private func checkCacheKey(_ text: String) {
    for candidate in [text, "http://" + text, "https://" + text] {
        guard let url = URL(string: candidate), let fast = CacheKey.plainHTTPURI(url.absoluteString) else { continue }
        let general = CacheKey.componentsURI(url)
        if fast != general {
            fuzzFailure(
                "\(candidate.debugDescription): text path \(fast.debugDescription), URLComponents \(String(describing: general))"
            )
        }
    }
}

private func checkVary(_ line: String) {
    if VaryKey.isNormalised(line), VaryKey.normalised([line]) != line {
        fuzzFailure(
            "\(line.debugDescription) is called normal but normalises to \(VaryKey.normalised([line]).debugDescription)"
        )
    }
}

private func checkRecord(_ payload: [UInt8]) {
    // Behind a valid magic line and checksum, so that the decoder's field reading is what gets fuzzed.
    var file = Data("FERRYC1\n".utf8)
    withUnsafeBytes(of: CacheChecksum.of(Data(payload)).littleEndian) { file.append(contentsOf: $0) }
    file.append(contentsOf: payload)
    guard let record = DiskCacheRecord(decoding: file) else { return }
    guard let again = DiskCacheRecord(decoding: record.encoded()) else {
        fuzzFailure("a decoded record does not decode after encoding: \(record)")
    }
    if again.key != record.key || again.entries.count != record.entries.count
        || zip(again.entries, record.entries).contains(where: {
            $0.bodyName != $1.bodyName || $0.byteCount != $1.byteCount || $0.checksum != $1.checksum
                || $0.stored.response.headers != $1.stored.response.headers
                || $0.stored.requestHeaders != $1.stored.requestHeaders
                || $0.stored.response.statusCode != $1.stored.response.statusCode
        })
    {
        fuzzFailure("a record changed through encoding: \(record) → \(again)")
    }
}

private func checkHTTPDate(_ text: String) {
    guard HTTPDate.parse(text) != nil else { return }
    // IMF-fixdate and asctime have fixed lengths; RFC 850's day name is 6 to 9 letters (or 3, tolerated).
    let length = text.trimmingOWS.utf8.count
    if ![24, 27, 29, 30, 31, 32, 33].contains(length) {
        fuzzFailure("\(text.debugDescription) parsed as an HTTP-date of \(length) bytes")
    }
}

private func checkIfNoneMatch(_ value: String) {
    for case .tag(let tag) in ReceivedValidation.entityTags(in: value) where tag.opaqueTag.isEmpty {
        fuzzFailure("an empty entity tag from \(value.debugDescription)")
    }
}

private func checkRange(_ value: String) {
    for length in [1, 10, 1_000] {
        guard let offsets = StoredRange.offsets(of: value, length: length) else { continue }
        if offsets.lowerBound < 0 || offsets.upperBound >= length {
            fuzzFailure("\(value.debugDescription) names \(offsets) of \(length) bytes")
        }
    }
}
