import Ferry
import FerryTesting
import Foundation
import Testing

@Suite("Basic authentication (RFC 7617) and the Authorization header helpers")
struct BasicAuthenticationTests {
    /// The `user:password` that a `Basic …` value carries.
    static func decoded(_ authorization: String) throws -> String {
        let encoded = try #require(authorization.split(separator: " ", maxSplits: 1).last)
        #expect(authorization.hasPrefix("Basic "))
        let data = try #require(Data(base64Encoded: String(encoded)))
        return try #require(String(data: data, encoding: .utf8))
    }

    @Test func rfc7617sExamplesEncodeAsTheRFCShowsThem() throws {
        // Given the two examples of RFC 7617 (§2 in ASCII, §2.1 in UTF-8)
        // When they are encoded
        let ascii = try AuthenticationCredential.basic(username: "Aladdin", password: "open sesame")
        let utf8 = try AuthenticationCredential.basic(username: "test", password: "123£")
        // Then the values are the RFC's, and they do not expire
        #expect(ascii.authorization == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
        #expect(utf8.authorization == "Basic dGVzdDoxMjPCow==")
        #expect(ascii.expiration == nil)
    }

    @Test func composedAndDecomposedAccentsSendTheSameBytes() throws {
        // Given "é" precomposed (U+00E9) and as "e" + U+0301
        let composed = try AuthenticationCredential.basic(username: "Jos\u{E9}", password: "caf\u{E9}")
        let decomposed = try AuthenticationCredential.basic(username: "Jose\u{301}", password: "cafe\u{301}")
        // Then both are sent in Normalization Form C
        #expect(composed == decomposed)
        #expect(Array(try Self.decoded(composed.authorization).utf8) == Array("Jos\u{E9}:caf\u{E9}".utf8))
    }

    @Test func aColonInThePasswordIsKept() throws {
        let credential = try AuthenticationCredential.basic(username: "ada", password: "pa:ss:")
        #expect(try Self.decoded(credential.authorization) == "ada:pa:ss:")
    }

    @Test func anEmptyUserNameAndPasswordAreAllowed() throws {
        #expect(try AuthenticationCredential.basic(username: "", password: "").authorization == "Basic Og==")
    }

    @Test func aColonInTheUserNameThrowsWithoutNamingThePassword() throws {
        // Given a user name the server would split at its colon
        // When a credential is made from it
        let error = #expect(throws: FerryError.self) {
            try AuthenticationCredential.basic(username: "ada:admin", password: "hunter2")
        }
        // Then it is refused, and the message names the rule, not the secret
        let thrown = try #require(error)
        guard case .invalidRequest(let why) = thrown.reason else {
            Issue.record("expected invalidRequest, got \(thrown.reason)")
            return
        }
        #expect(why.contains("colon"))
        #expect(!thrown.localizedDescription.contains("hunter2"))
        #expect(!thrown.description.contains("hunter2"))
    }

    @Test(arguments: ["a\tb", "a\r\nb", "a\u{0}", "a\u{7F}", "\u{1B}[0m"])
    func aControlCharacterInEitherStringThrows(text: String) {
        #expect(throws: FerryError.self) { try AuthenticationCredential.basic(username: text, password: "p") }
        #expect(throws: FerryError.self) { try AuthenticationCredential.basic(username: "u", password: text) }
        #expect(throws: FerryError.self) { try HTTPHeader.authorization(username: "u", password: text) }
    }

    @Test func theHeaderHelpersMakeAnAuthorizationField() throws {
        let basic = try HTTPHeader.authorization(username: "Aladdin", password: "open sesame")
        let bearer = HTTPHeader.authorization(bearerToken: "abc.def")
        #expect(basic == HTTPHeader(name: "Authorization", value: "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="))
        #expect(bearer == HTTPHeader(name: "Authorization", value: "Bearer abc.def"))
        #expect(bearer.value == AuthenticationCredential.bearer("abc.def").authorization)
    }

    @Test func theHeaderAndTheInterceptorSendTheCredential() async throws {
        // Given a session with a Basic credential, and a request with its own Basic header
        let log = RequestLog()
        let auth = AuthenticationInterceptor(credential: try .basic(username: "ada", password: "s3cret")) { _ in
            try .basic(username: "ada", password: "n3w")
        }
        let session = stubSession(configure: { $0.interceptors = [auth] }) { request in
            log.append(request)
            return .json(#"{"ok":true}"#)
        }
        let plain = stubSession { request in
            log.append(request)
            return .json(#"{"ok":true}"#)
        }
        // When both are sent
        _ = try await session.get("me").serializingData()
        _ = try await plain.get("me", headers: [.authorization(username: "grace", password: "h0pper")])
            .serializingData()
        // Then each carries its Authorization field
        let sent = log.all.map { $0.headers["Authorization"] ?? "" }
        #expect(try sent.map(Self.decoded) == ["ada:s3cret", "grace:h0pper"])
    }

    @Test(arguments: TransportKind.allCases)
    func theTestServerAcceptsTheCredential(transport: TransportKind) async throws {
        // Given the test server's /basic-auth/{user}/{password}
        let live = try LiveServer(transport: transport)
        // When it is asked with and without the matching header
        let json = try await live.session.get(
            "basic-auth/ada/secret", headers: [.authorization(username: "ada", password: "secret")]
        ).serializingJSON()
        let refused = try await live.session.get(
            "basic-auth/ada/secret", headers: [.authorization(username: "ada", password: "wrong")]
        ).response
        // Then the right one is let in and the wrong one gets a 401
        #expect(json["authenticated"] == true)
        #expect(refused.statusCode == 401)
    }
}
