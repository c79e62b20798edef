#if Logging
@testable import Ferry
import FerryTesting
import Foundation
import Logging
import Testing

/// A log handler that keeps every record, for tests.
final class RecordingLogHandler: LogHandler, Sendable {
    struct Record: Sendable {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata
    }

    private let storage = Locked<[Record]>([])
    private let base = Locked<(Logger.Metadata, Logger.Level)>(([:], .trace))

    var records: [Record] { storage.withLock { $0 } }

    var metadata: Logger.Metadata {
        get { base.withLock { $0.0 } }
        set { base.withLock { $0.0 = newValue } }
    }

    var logLevel: Logger.Level {
        get { base.withLock { $0.1 } }
        set { base.withLock { $0.1 = newValue } }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let record = Record(
            level: event.level, message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 })
        storage.withLock { $0.append(record) }
    }
}

@Suite("Logging trait: a line per request")
struct LoggingTests {
    private func session(logger: Logger) -> Session {
        Session(
            configuration: .init(
                baseURL: URL(string: "http://user:secret@stub.test"),
                transport: InMemoryTransport(responding: { request in
                    request.url.path == "/fail" ? .failure(.connectionRefused) : .text("ok")
                })),
            logger: logger)
    }

    @Test func aRequestIsOneDebugLineAndATransportFailureAnErrorLine() async throws {
        let handler = RecordingLogHandler()
        let session = session(logger: Logger(label: "test") { _ in handler })
        _ = try await session.get("items").serializingString()
        _ = await session.get("fail").result
        try await waitUntil { handler.records.count == 2 }
        let records = handler.records
        let success = try #require(records.first { $0.level == .debug })
        #expect(success.message.hasPrefix("GET http://stub.test/items 200 in "))
        #expect(success.metadata["http.response.status_code"] == "200")
        #expect(success.metadata["http.request.method"] == "GET")
        #expect(success.metadata["url.full"] == "http://stub.test/items")
        #expect(success.metadata["ferry.attempts"] == "1")
        let failure = try #require(records.first { $0.level == .error })
        #expect(failure.message.contains("could not connect to stub.test"))
        #expect(failure.metadata["error.type"] != nil)
        #expect(!records.contains { $0.message.contains("secret") || "\($0.metadata)".contains("secret") })
    }

    @Test func aRequestsOwnLoggerWins() async throws {
        let sessionHandler = RecordingLogHandler()
        let requestHandler = RecordingLogHandler()
        let session = session(logger: Logger(label: "session") { _ in sessionHandler })
        var request = Request(url: URL(string: "http://stub.test/mine")!)
        var logger = Logger(label: "request") { _ in requestHandler }
        logger[metadataKey: "incoming.request_id"] = "abc"
        request.logger = logger
        _ = try await session.request(request).serializingData()
        try await waitUntil { requestHandler.records.count == 1 }
        #expect(requestHandler.records.first?.metadata["incoming.request_id"] == "abc")
        #expect(sessionHandler.records.isEmpty)
    }
}
#endif
