import Ferry
import FerryTesting
import Foundation
import Testing

@Suite("Validation")
struct ValidationTests {
    let session = stubSession { request in
        switch request.url.path {
        case "/missing":
            StubResponse(statusCode: 404, headers: ["Content-Type": "text/plain"], body: Data("no such thing".utf8))
        case "/html": StubResponse(headers: ["Content-Type": "text/html; charset=utf-8"], body: Data("<p>".utf8))
        case "/json": .json("{}")
        case "/redirect": StubResponse(statusCode: 304)
        default: .status(500)
        }
    }

    @Test func errorCarriesStatusHeadersAndBodyPrefix() async throws {
        let error = await #expect(throws: FerryError.self) { try await session.get("missing").serializingString() }
        #expect(error?.reason == .unacceptableStatus(404))
        #expect(error?.response?.headers["Content-Type"] == "text/plain")
        #expect(error?.bodyPrefix == Data("no such thing".utf8))
        #expect(error?.request?.url.path == "/missing")
    }

    @Test func optOutAcceptsAnyStatus() async throws {
        let text = try await session.get("missing").unvalidated().serializingString()
        #expect(text == "no such thing")
        let response = await session.get("missing").validate(statusCode: 200..<500).response
        #expect(response.value == Data("no such thing".utf8))
    }

    @Test func statusValidationReplacesTheDefault() async throws {
        let error = await #expect(throws: FerryError.self) {
            try await session.get("json").validate(statusCode: [201]).serializingData()
        }
        #expect(error?.reason == .unacceptableStatus(200))
    }

    @Test func contentTypeIsCheckedAgainstAccept() async throws {
        let json = try await session.get("json", headers: ["Accept": "application/json"])
            .validateContentTypeAgainstAccept().serializingData()
        #expect(json == Data("{}".utf8))
        let error = await #expect(throws: FerryError.self) {
            try await session.get("html", headers: ["Accept": "application/json, text/plain;q=0.5"])
                .validateContentTypeAgainstAccept().serializingData()
        }
        #expect(
            error?.reason
                == .unacceptableContentType(received: "text/html", acceptable: ["application/json", "text/plain"]))
        let wildcard = try await session.get("html", headers: ["Accept": "text/*"]).validateContentTypeAgainstAccept()
            .value
        #expect(wildcard == Data("<p>".utf8))
    }

    @Test func explicitContentTypes() async throws {
        let error = await #expect(throws: FerryError.self) {
            try await session.get("html").validate(contentType: ["application/json"]).value
        }
        guard case .unacceptableContentType(let received, _) = error?.reason else {
            Issue.record("wrong reason \(String(describing: error))")
            return
        }
        #expect(received == "text/html")
    }

    @Test func customValidatorErrorsAreWrapped() async throws {
        struct TooShort: Error {}
        let error = await #expect(throws: FerryError.self) {
            try await session.get("json").validate { _, _, body in
                if body.count < 10 { throw TooShort() }
            }.value
        }
        #expect(error?.reason == .validationFailed)
        #expect(error?.underlyingError is TooShort)
        #expect(error?.statusCode == 200)
    }

    @Test func sessionWideValidationCanBeNone() async throws {
        let session = stubSession(configure: { $0.validation = .none }) { _ in .status(503) }
        let data = try await session.get("x").serializingData()
        #expect(data.isEmpty)
    }
}
