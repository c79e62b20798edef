import Ferry
import FerryTesting
import Foundation
import Testing

/// `Request` shares its fields between copies until one changes (copy-on-write): each copy must still behave as a
/// value of its own.
@Suite("Request value semantics")
struct RequestValueSemanticsTests {
    private static let original = Request(
        .post, url: URL(string: "https://example.com/a")!, headers: ["X-A": "1"], body: .data(Data("body".utf8)))

    @Test func changingACopyLeavesTheOriginalAlone() {
        let original = Self.original
        var copy = original
        copy.method = .put
        copy.url = URL(string: "https://example.com/b")!
        copy.headers.add(name: "X-B", value: "2")
        copy.body = nil
        copy.idleTimeout = .seconds(1)
        copy.totalTimeout = .seconds(2)
        copy.redirectPolicy = .never
        copy.maximumBodySize = 10
        copy.interceptors.append(Interceptor.adapter { request in request })

        #expect(original.method == .post)
        #expect(original.url.absoluteString == "https://example.com/a")
        #expect(original.headers["X-B"] == nil)
        #expect(original.headers["X-A"] == "1")
        #expect(original.body?.count == 4)
        #expect(original.idleTimeout == nil)
        #expect(original.totalTimeout == nil)
        #expect(original.redirectPolicy == nil)
        #expect(original.maximumBodySize == nil)
        #expect(original.interceptors.isEmpty)

        #expect(copy.method == .put)
        #expect(copy.url.absoluteString == "https://example.com/b")
        #expect(copy.headers["X-B"] == "2")
        #expect(copy.body == nil)
        #expect(copy.idleTimeout == .seconds(1))
        #expect(copy.totalTimeout == .seconds(2))
        #expect(copy.maximumBodySize == 10)
        #expect(copy.interceptors.count == 1)
    }

    @Test func changingTheOriginalLeavesACopyAlone() {
        var original = Self.original
        let copy = original
        original.headers.remove(name: "X-A")
        original.headers.add(name: "X-A", value: "changed")
        original.appendQuery([URLQueryItem(name: "q", value: "1")])
        #expect(copy.headers["X-A"] == "1")
        #expect(copy.url.query == nil)
        #expect(original.headers["X-A"] == "changed")
        #expect(original.url.query == "q=1")
    }

    @Test func copiesChangedFromSeveralTasksStayTheirOwn() async {
        let shared = Self.original
        let urls = await withTaskGroup(of: String.self) { group in
            for index in 0..<32 {
                group.addTask {
                    var request = shared
                    request.url = URL(string: "https://example.com/\(index)")!
                    request.headers.add(name: "X-Index", value: String(index))
                    return "\(request.url.lastPathComponent)=\(request.headers["X-Index"] ?? "")"
                }
            }
            var all: Set<String> = []
            for await url in group { all.insert(url) }
            return all
        }
        #expect(urls == Set((0..<32).map { "\($0)=\($0)" }))
        #expect(shared.url.absoluteString == "https://example.com/a")
        #expect(shared.headers["X-Index"] == nil)
    }

    /// A request changed after a session resolved its URL is checked again: the check is skipped only for a URL
    /// that has not changed since it was resolved.
    @Test func aURLChangedByAnAdapterIsCheckedBeforeItIsSent() async throws {
        let sent = Counter()
        let session = Session(
            configuration: .init(
                transport: InMemoryTransport { _ in
                    sent.increment()
                    return .status(200)
                },
                interceptors: [
                    Interceptor.adapter { request in
                        var request = request
                        request.url = URL(string: "ftp://example.com/file")!
                        return request
                    }
                ]))
        let result = await session.get("https://example.com/a").result
        guard case .failure(let error) = result, case .invalidURL = error.reason else {
            Issue.record("expected invalidURL, got \(result)")
            return
        }
        #expect(error.request?.url.scheme == "ftp")
        #expect(sent.count == 0)
    }

    @Test func aURLChangedByAnAdapterToAnotherHTTPURLIsSent() async throws {
        let log = RequestLog()
        let session = Session(
            configuration: .init(
                transport: InMemoryTransport { request in
                    log.append(request)
                    return .status(204)
                },
                interceptors: [
                    Interceptor.adapter { request in
                        var request = request
                        request.url = URL(string: "https://mirror.example.com/b?x=1")!
                        return request
                    }
                ]))
        _ = try await session.get("https://example.com/a").serializingData()
        #expect(log.all.map(\.url.absoluteString) == ["https://mirror.example.com/b?x=1"])
    }

    @Test func aRequestMadeByHandIsChecked() async {
        let session = Session(transport: InMemoryTransport { _ in .status(200) })
        let request = Request(url: URL(string: "ftp://example.com/file")!)
        let result = await session.request(request).result
        guard case .failure(let error) = result, case .invalidURL = error.reason else {
            Issue.record("expected invalidURL, got \(result)")
            return
        }
    }
}
