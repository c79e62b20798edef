import Foundation

/// What a ``DiskCacheStorage`` keeps for one key, in one file: the key, and for each stored response its head, its
/// times and the name, length and checksum of its body's file.
///
/// The file is a magic line, a checksum of the rest, then the fields, each length-prefixed and little-endian. Any
/// file that does not read back whole (truncated, corrupt, another version) decodes as `nil`: a miss.
struct DiskCacheRecord: Equatable {
    /// One stored response.
    struct Entry: Equatable {
        var stored: StoredResponse
        var bodyName: String
        var byteCount: Int
        var checksum: UInt64
    }

    /// The cache key (`GET https://example.com/a`).
    var key: String
    var entries: [Entry]

    private static let magic = Array("FERRYC1\n".utf8)

    /// The record as the bytes of its file.
    func encoded() -> Data {
        var payload = RecordWriter()
        payload.string(key)
        payload.integer(UInt64(entries.count))
        for entry in entries {
            payload.headers(entry.stored.requestHeaders)
            let response = entry.stored.response
            payload.integer(UInt64(response.statusCode))
            payload.string(response.httpVersion ?? "")
            payload.string(response.url.absoluteString)
            payload.headers(response.headers)
            payload.integer(entry.stored.requestTime.timeIntervalSince1970.bitPattern)
            payload.integer(entry.stored.responseTime.timeIntervalSince1970.bitPattern)
            payload.string(entry.bodyName)
            payload.integer(UInt64(entry.byteCount))
            payload.integer(entry.checksum)
        }
        var file = RecordWriter()
        file.bytes.append(contentsOf: Self.magic)
        file.integer(CacheChecksum.of(payload.bytes))
        file.bytes.append(payload.bytes)
        return file.bytes
    }

    /// Reads a record back.
    /// - Parameter data: A record file's bytes.
    /// - Returns: The record, or `nil` unless the bytes are a whole, uncorrupted record of this version.
    init?(decoding data: Data) {
        var reader = RecordReader(data)
        guard reader.take(Self.magic.count).map(Array.init) == Self.magic, let checksum = reader.integer(),
            CacheChecksum.of(reader.rest) == checksum, let key = reader.string(), let count = reader.count()
        else { return nil }
        var entries: [Entry] = []
        for _ in 0..<count {
            guard let requestHeaders = reader.headers(), let status = reader.integer(), (100...999).contains(status),
                let version = reader.string(), let urlString = reader.string(), let url = URL(string: urlString),
                let headers = reader.headers(), let requestTime = reader.integer(),
                let responseTime = reader.integer(), let bodyName = reader.string(), let byteCount = reader.integer(),
                byteCount <= Int.max,
                let bodyChecksum = reader.integer()
            else { return nil }
            let response = HTTPResponse(
                statusCode: Int(status), headers: headers, url: url, httpVersion: version.isEmpty ? nil : version)
            let stored = StoredResponse(
                requestHeaders: requestHeaders, response: response,
                requestTime: Date(timeIntervalSince1970: Double(bitPattern: requestTime)),
                responseTime: Date(timeIntervalSince1970: Double(bitPattern: responseTime)))
            entries.append(Entry(stored: stored, bodyName: bodyName, byteCount: Int(byteCount), checksum: bodyChecksum))
        }
        guard reader.isAtEnd else { return nil }
        self.key = key
        self.entries = entries
    }

    init(key: String, entries: [Entry]) {
        self.key = key
        self.entries = entries
    }
}

private struct RecordWriter {
    var bytes = Data()

    mutating func integer(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        let utf8 = Array(value.utf8)
        integer(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    mutating func headers(_ headers: HTTPHeaders) {
        integer(UInt64(headers.count))
        for field in headers {
            string(field.name)
            string(field.value)
        }
    }
}

private struct RecordReader {
    private let data: Data
    private var offset: Int

    init(_ data: Data) {
        self.data = data
        offset = data.startIndex
    }

    var isAtEnd: Bool { offset == data.endIndex }
    var rest: Data { data[offset...] }

    mutating func take(_ count: Int) -> Data? {
        guard count >= 0, data.endIndex - offset >= count else { return nil }
        defer { offset += count }
        return data[offset..<offset + count]
    }

    mutating func integer() -> UInt64? {
        guard let bytes = take(8) else { return nil }
        return UInt64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) })
    }

    /// An integer that counts something in this file (fields, bytes): never more than the bytes it has.
    mutating func count() -> Int? {
        guard let value = integer(), value <= UInt64(data.count) else { return nil }
        return Int(value)
    }

    mutating func string() -> String? {
        guard let length = count(), let bytes = take(length) else { return nil }
        // The record's checksum has already vouched for its bytes.
        return String(decoding: bytes, as: UTF8.self)
    }

    mutating func headers() -> HTTPHeaders? {
        guard let count = count() else { return nil }
        var fields: [HTTPHeader] = []
        for _ in 0..<count {
            guard let name = string(), let value = string() else { return nil }
            fields.append(HTTPHeader(name: name, value: value))
        }
        return HTTPHeaders(fields)
    }
}
