import Ferry
import FerryTesting
import Foundation
import Testing

@Suite("Serializers")
struct SerializerTests {
    static func bytes(_ data: Data, type: String?, status: Int = 200) -> StubResponse {
        StubResponse(statusCode: status, headers: type.map { ["Content-Type": $0] } ?? [:], body: data)
    }

    @Test func stringFollowsTheDeclaredCharset() async throws {
        let latin1 = Data([0x63, 0x61, 0x66, 0xE9])  // "café" in ISO-8859-1
        let session = stubSession { _ in Self.bytes(latin1, type: "text/plain; charset=ISO-8859-1") }
        #expect(try await session.get("x").serializingString() == "café")
    }

    @Test func stringFallsBackToUTF8ThenLatin1() async throws {
        let session = stubSession { request in
            request.url.path == "/utf8"
                ? Self.bytes(Data("naïve ☃".utf8), type: "text/plain")
                : Self.bytes(Data([0x63, 0x61, 0x66, 0xE9]), type: nil)
        }
        #expect(try await session.get("utf8").serializingString() == "naïve ☃")
        #expect(try await session.get("latin1").serializingString() == "café")
    }

    @Test func invalidBytesForADeclaredCharsetAreAnError() async throws {
        let session = stubSession { _ in Self.bytes(Data([0x66, 0xFF, 0xFE, 0x80]), type: "text/plain; charset=utf-8") }
        let error = await #expect(throws: FerryError.self) { try await session.get("x").serializingString() }
        #expect(error?.reason == .serializationFailed)
        #expect(error?.underlyingError is SerializationFailure)
    }

    @Test func utf16WithDeclaredCharset() async throws {
        let text = "Grüße"
        let data = try #require(text.data(using: .utf16LittleEndian))
        let session = stubSession { _ in Self.bytes(data, type: "text/plain; charset=\"utf-16le\"") }
        #expect(try await session.get("x").serializingString() == text)
    }

    @Test(arguments: [204, 205])
    func emptyStatusGivesEmptyValues(status: Int) async throws {
        let session = stubSession { _ in .status(status) }
        #expect(try await session.get("x").serializingData().isEmpty)
        #expect(try await session.get("x").serializingString() == "")
        #expect(try await session.get("x").serializingJSON() == .null)
        #expect(try await session.get("x").serializingDecodable(Empty.self) == Empty())
        #expect(try await session.get("x").serializingDecodable(User?.self) == nil)
    }

    @Test func headGivesEmptyValues() async throws {
        let session = stubSession { _ in .json(#"{"id":1,"name":"x"}"#) }
        #expect(try await session.head("x").serializingData().isEmpty)
        #expect(try await session.head("x").serializingJSON() == .null)
        #expect(try await session.head("x").serializingDecodable(Empty.self) == Empty())
    }

    @Test func singleSpaceIsEmptyForJSON() async throws {
        let session = stubSession { _ in .json(" ") }
        #expect(try await session.get("x").serializingJSON() == .null)
        #expect(try await session.get("x").serializingDecodable(Empty.self) == Empty())
    }

    @Test func emptyBodyForATypeThatNeedsContentIsAnError() async throws {
        let session = stubSession { _ in .status(200) }
        let error = await #expect(throws: FerryError.self) {
            try await session.get("x").serializingDecodable(User.self)
        }
        #expect(error?.reason == .serializationFailed)
        let jsonError = await #expect(throws: FerryError.self) { try await session.get("x").serializingJSON() }
        #expect(jsonError?.reason == .serializationFailed)
    }

    @Test func decodingErrorIsTheUnderlyingError() async throws {
        let session = stubSession { _ in .json(#"{"id":"not a number","name":"x"}"#) }
        let error = await #expect(throws: FerryError.self) {
            try await session.get("x").serializingDecodable(User.self)
        }
        #expect(error?.reason == .serializationFailed)
        #expect(error?.underlyingError is DecodingError)
        #expect(error?.bodyPrefix != nil)
    }

    @Test func anyDecoderWorks() async throws {
        let plist = try PropertyListEncoder().encode(User(id: 7, name: "P"))
        let session = stubSession { _ in Self.bytes(plist, type: "application/x-plist") }
        let user = try await session.get("x").serializingDecodable(User.self, decoder: PropertyListDecoder())
        #expect(user == User(id: 7, name: "P"))
    }

    @Test func compoundSerializerReturnsTheFirstSuccess() async throws {
        let plist = try PropertyListEncoder().encode(User(id: 7, name: "P"))
        let session = stubSession { _ in Self.bytes(plist, type: "application/x-plist") }
        let compound = CompoundResponseSerializer<User>(
            .decodable(User.self), .decodable(User.self, decoder: PropertyListDecoder()))
        #expect(try await session.get("x").serializing(compound) == User(id: 7, name: "P"))
    }

    @Test func customSerializerInAFewLines() async throws {
        struct LineCount: ResponseSerializer {
            func serialize(request: Request, response: HTTPResponse, data: Data) throws -> Int {
                String(decoding: data, as: UTF8.self).split(separator: "\n").count
            }
        }
        let session = stubSession { _ in .text("a\nb\nc\n") }
        #expect(try await session.get("x").serializing(LineCount()) == 3)
    }

    @Test func jsonFrontDoor() async throws {
        let session = stubSession { _ in .json(#"{"args":{"a":"1"},"n":9007199254740993,"list":[true,null,1.5]}"#) }
        let json: JSON = try await session.get("x").serializingJSON()
        #expect(json["args"]?["a"] == "1")
        #expect(json["n"] == 9_007_199_254_740_993)
        #expect(json["list"]?[0] == true)
        #expect(json["list"]?[1] == .null)
        #expect(json["list"]?[2] == 1.5)
    }

    @Test func invalidJSONIsASerializationError() async throws {
        let session = stubSession { _ in .json(#"{"broken":"#) }
        let error = await #expect(throws: FerryError.self) { try await session.get("x").serializingJSON() }
        #expect(error?.reason == .serializationFailed)
    }
}
