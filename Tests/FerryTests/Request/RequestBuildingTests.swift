import Ferry
import FerryTesting
import Foundation
import Testing

@Suite("Request building")
struct RequestBuildingTests {
    @Test func defaultHeadersAreAddedAndRequestHeadersWin() async throws {
        let log = RequestLog()
        let session = stubSession { request in
            log.append(request)
            return .status(204)
        }
        _ = try await session.get("a", headers: ["user-agent": "Mine/1", "X-Trace": "1"]).serializingData()
        let headers = try #require(log.all.first).headers
        #expect(headers["User-Agent"] == "Mine/1")
        #expect(headers.values(for: "user-agent").count == 1)
        #expect(headers["X-Trace"] == "1")
        #expect(headers["Accept-Encoding"] == "gzip, deflate")
        #expect(headers["Accept-Language"] != nil)
        #expect(Session.Configuration.defaultHeaders["User-Agent"] == "Ferry/\(Session.version)")
    }

    @Test(arguments: ["bad\r\nInjected: yes", "bad\nvalue", "nul\u{0}byte"])
    func headerValueWithLineBreakIsRejected(value: String) async throws {
        let calls = Counter()
        let session = stubSession { _ in
            calls.increment()
            return .status(200)
        }
        let error = await #expect(throws: FerryError.self) {
            try await session.get("a", headers: ["X-Evil": value]).serializingData()
        }
        guard case .invalidRequest(let why) = error?.reason else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
        #expect(why.contains("X-Evil"))
        #expect(calls.count == 0)
    }

    @Test func headerNameMustBeAToken() async throws {
        let session = stubSession { _ in .status(200) }
        let result = await session.get("a", headers: ["Bad Name": "v"]).result
        guard case .failure(let error) = result, case .invalidRequest = error.reason else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
    }

    @Test func anInvalidSessionDefaultHeaderFailsEveryRequestWithoutSending() async throws {
        let sent = Counter()
        let session = stubSession(configure: { $0.headers.add(name: "X-Bad", value: "line\r\nbreak") }) { _ in
            sent.increment()
            return .status(200)
        }
        for _ in 0..<2 {
            let result = await session.get("a").result
            guard case .failure(let error) = result, case .invalidRequest = error.reason else {
                Issue.record("expected invalidRequest, got \(result)")
                return
            }
        }
        #expect(sent.count == 0)
    }

    @Test func queryItemsArePercentEscaped() async throws {
        let log = RequestLog()
        let session = stubSession { request in
            log.append(request)
            return .status(204)
        }
        let query = [
            URLQueryItem(name: "q", value: "a b&c=d+e/f?g#h"), URLQueryItem(name: "flag", value: nil),
            URLQueryItem(name: "ü", value: "☃"),
        ]
        _ = try await session.get("search?x=1", query: query).serializingData()
        let url = try #require(log.all.first).url
        #expect(url.query(percentEncoded: true) == "x=1&q=a%20b%26c%3Dd%2Be%2Ff%3Fg%23h&flag&%C3%BC=%E2%98%83")
    }

    @Test func formParametersGoInTheQueryForGETAndTheBodyForPOST() async throws {
        let log = RequestLog()
        let session = stubSession { request in
            log.append(request)
            return .status(204)
        }
        let form = RequestBody.form([(name: "a", value: "1 2"), (name: "b", value: "&")])
        _ = try await session.request(Request(.get, url: URL(string: "http://stub.test/f")!, body: form)).value
        _ = try await session.post("f", body: form).value
        _ = try await session.delete("f", body: form).value
        let requests = log.all
        #expect(requests[0].url.query(percentEncoded: true) == "a=1%202&b=%26")
        #expect(requests[0].body == nil)
        #expect(requests[2].url.query(percentEncoded: true) == "a=1%202&b=%26")
        #expect(requests[1].url.query == nil)
        #expect(requests[1].headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        guard case .data(let body)? = requests[1].body?.content else {
            Issue.record("POST form body missing")
            return
        }
        #expect(String(decoding: body, as: UTF8.self) == "a=1%202&b=%26")
    }

    @Test func jsonBodySetsContentTypeUnlessGiven() async throws {
        let log = RequestLog()
        let session = stubSession { request in
            log.append(request)
            return .status(204)
        }
        _ = try await session.post("u", body: .json(User(id: 1, name: "A"))).value
        _ = try await session.post(
            "u", body: .json(User(id: 1, name: "A")), headers: ["Content-Type": "application/vnd.x+json"]
        ).value
        let requests = log.all
        #expect(requests[0].headers["Content-Type"] == "application/json")
        #expect(requests[1].headers["Content-Type"] == "application/vnd.x+json")
        guard case .data(let body)? = requests[0].body?.content else {
            Issue.record("JSON body missing")
            return
        }
        #expect(try JSONDecoder().decode(User.self, from: body) == User(id: 1, name: "A"))
    }

    @Test func unencodableBodyFailsWithoutSending() async throws {
        struct Unencodable: Encodable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "nope"))
            }
        }
        let calls = Counter()
        let session = stubSession { _ in
            calls.increment()
            return .status(200)
        }
        let result = await session.post("u", body: .json(Unencodable())).result
        guard case .failure(let error) = result, case .invalidRequest = error.reason else {
            Issue.record("expected invalidRequest, got \(result)")
            return
        }
        #expect(error.underlyingError is EncodingError)
        #expect(calls.count == 0)
    }

    @Test func headersAreOrderedAndCaseInsensitive() {
        var headers: HTTPHeaders = ["Accept": "a", "X-One": "1"]
        headers.add(name: "x-one", value: "2")
        #expect(headers["X-ONE"] == "1, 2")
        #expect(headers.values(for: "x-one") == ["1", "2"])
        headers["X-One"] = "3"
        #expect(headers.map(\.name) == ["Accept", "X-One"])
        #expect(headers["x-one"] == "3")
        headers["accept"] = nil
        #expect(!headers.contains("Accept"))
        #expect(headers.count == 1)
    }
}
