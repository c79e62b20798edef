import Ferry
import FerryTesting
import Foundation
import Testing

@Suite("Header fields and the declared length")
struct HeaderFieldTests {
    private func head(contentLength: String?) -> HTTPResponse {
        var headers: HTTPHeaders = [:]
        if let contentLength { headers.add(name: "Content-Length", value: contentLength) }
        return HTTPResponse(statusCode: 200, headers: headers, url: URL(string: "http://127.0.0.1/")!)
    }

    @Test(arguments: [
        ("0", Int64(0)), ("1234", 1234), (" 42\t", 42), ("9223372036854775807", Int64.max), ("10, 10", 10),
        ("7,7 ,\t7", 7),
    ])
    func aValidContentLengthIsRead(field: String, expected: Int64) {
        #expect(head(contentLength: field).expectedContentLength == expected)
        #expect(!head(contentLength: field).hasInvalidContentLength)
    }

    @Test(arguments: [
        "", " ", "-1", "+5", "1 2", "12a", "0x10", "99999999999999999999999", "9223372036854775808", "10, 4", "10,",
        ",10", "10,,10",
    ])
    func anInvalidContentLengthIsNotALength(field: String) {
        #expect(head(contentLength: field).expectedContentLength == nil)
        #expect(head(contentLength: field).hasInvalidContentLength)
    }

    @Test func twoConflictingFieldsAreInvalidAndTwoEqualOnesAreALength() {
        var headers: HTTPHeaders = ["Content-Length": "10"]
        headers.add(name: "content-length", value: "4")
        let url = URL(string: "http://127.0.0.1/")!
        #expect(HTTPResponse(statusCode: 200, headers: headers, url: url).hasInvalidContentLength)
        let equal: HTTPHeaders = [
            HTTPHeader(name: "Content-Length", value: "4"), HTTPHeader(name: "Content-Length", value: "4"),
        ]
        #expect(HTTPResponse(statusCode: 200, headers: equal, url: url).expectedContentLength == 4)
    }

    @Test func aMissingContentLengthIsNotALength() {
        #expect(head(contentLength: nil).expectedContentLength == nil)
        #expect(!head(contentLength: nil).hasInvalidContentLength)
    }

    @Test func oneFieldIsReturnedAsItIsAndRepeatedFieldsAreJoined() {
        var headers: HTTPHeaders = ["Accept": "text/plain"]
        #expect(headers["accept"] == "text/plain")
        headers.add(name: "ACCEPT", value: "application/json")
        #expect(headers["Accept"] == "text/plain, application/json")
        #expect(headers["Missing"] == nil)
    }

    @Test func defaultsFillOnlyWhatTheRequestLacks() {
        let defaults: HTTPHeaders = ["User-Agent": "Ferry", "Accept": "*/*"]
        #expect(HTTPHeaders().merging(defaults: defaults) == defaults)
        let merged = (["accept": "application/json"] as HTTPHeaders).merging(defaults: defaults)
        #expect(
            Array(merged) == [
                HTTPHeader(name: "accept", value: "application/json"), HTTPHeader(name: "User-Agent", value: "Ferry"),
            ])
    }

    @Test func aTransportThatAnswersAtOnceRunsTheWholePipeline() async throws {
        let calls = Counter()
        let session = Session(
            transport: InMemoryTransport(responding: { request in
                calls.increment()
                return request.url.path == "/missing" ? .status(404) : .text("hello")
            }))
        #expect(try await session.get("http://stub.test/hello").serializingString() == "hello")
        let error = await #expect(throws: FerryError.self) {
            try await session.get("http://stub.test/missing").serializingData()
        }
        #expect(error?.statusCode == 404)
        #expect(calls.count == 2)
    }
}
