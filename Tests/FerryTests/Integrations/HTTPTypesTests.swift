#if HTTPTypes
import Ferry
import FerryTesting
import Foundation
import HTTPTypes
import Testing

@Suite("swift-http-types conversions (HTTPTypes trait)")
struct HTTPTypesTests {
    @Test func fieldsKeepTheirOrderAndRepeats() throws {
        var headers: Ferry.HTTPHeaders = ["Set-Cookie": "a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT"]
        headers.add(name: "X-Trace", value: "1")
        headers.add(name: "set-cookie", value: "b=2")
        let fields = try HTTPFields(headers)
        #expect(fields.map(\.name.rawName) == ["Set-Cookie", "X-Trace", "set-cookie"])
        #expect(fields[values: .setCookie] == ["a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT", "b=2"])
        #expect(Ferry.HTTPHeaders(fields) == headers)
    }

    @Test func aNameThatIsNotATokenIsAnErrorNotADroppedField() {
        let headers: Ferry.HTTPHeaders = ["Bad Name": "x"]
        let error = #expect(throws: FerryError.self) { try HTTPFields(headers) }
        guard case .invalidRequest = error?.reason else {
            Issue.record("expected invalidRequest, got \(String(describing: error))")
            return
        }
    }

    @Test func requestsConvertBothWays() throws {
        var request = Ferry.Request(.post, url: URL(string: "http://127.0.0.1:8080/a%20b/c?x=1&y=%2F")!)
        request.headers.add(name: "Accept", value: "application/json")
        let converted = try HTTPRequest(request)
        #expect(converted.method == .post)
        #expect(converted.scheme == "http")
        #expect(converted.authority == "127.0.0.1:8080")
        #expect(converted.path == "/a%20b/c?x=1&y=%2F")
        #expect(converted.headerFields[.accept] == "application/json")
        let back = try Ferry.Request(converted)
        #expect(back.method == .post)
        #expect(back.url == request.url)
        #expect(back.headers == request.headers)
    }

    @Test func aRequestWithoutAuthorityIsAppendedToTheBaseURL() throws {
        let relative = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/users/7?full=1")
        let request = try Ferry.Request(relative, baseURL: URL(string: "http://127.0.0.1:9/api/")!)
        #expect(request.url.absoluteString == "http://127.0.0.1:9/api/users/7?full=1")
    }

    @Test func responsesConvertBothWays() throws {
        var headers: Ferry.HTTPHeaders = ["Content-Type": "text/plain"]
        headers.add(name: "Set-Cookie", value: "a=1")
        headers.add(name: "Set-Cookie", value: "b=2")
        let head = Ferry.HTTPResponse(statusCode: 418, headers: headers, url: URL(string: "http://127.0.0.1/")!)
        let converted = try HTTPTypes.HTTPResponse(head)
        #expect(converted.status.code == 418)
        #expect(converted.headerFields[values: .setCookie] == ["a=1", "b=2"])
        let back = Ferry.HTTPResponse(converted, url: head.url)
        #expect(back == head)
    }

    @Test func aSessionSendsAnHTTPRequest() async throws {
        let session = Session(
            configuration: .init(
                baseURL: URL(string: "http://stub.test/v1"),
                transport: InMemoryTransport(responding: { request in
                    .text("\(request.method.rawValue) \(request.url.absoluteString) \(request.headers["X-A"] ?? "")")
                })))
        var request = HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/items/3")
        request.headerFields[HTTPField.Name("X-A")!] = "1"
        let text = try await session.send(request, body: .text("hi")).serializingString()
        #expect(text == "PUT http://stub.test/v1/items/3 1")
    }
}
#endif
