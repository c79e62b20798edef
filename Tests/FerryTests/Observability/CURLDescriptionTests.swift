import Ferry
import FerryTesting
import Foundation
import Testing

@Suite("cURL descriptions")
struct CURLDescriptionTests {
    @Test func secretsAreRedactedByDefault() {
        let request = Request(
            .post, url: URL(string: "https://ada:pw@api.test/v1/users?q=1")!,
            headers: ["Authorization": "Bearer secret", "cookie": "s=1", "X-Trace": "abc"],
            body: .json(["name": "Ada"] as JSON))
        #expect(
            request.cURLDescription() == """
                curl -X POST 'https://ada:***@api.test/v1/users?q=1' \\
                  -H 'Authorization: ***' \\
                  -H 'cookie: ***' \\
                  -H 'X-Trace: abc' \\
                  -H 'Content-Type: application/json' \\
                  --data-binary '{"name":"Ada"}'
                """)
    }

    @Test func everySensitiveHeaderIsRedactedWhateverItsCase() {
        let request = Request(
            url: URL(string: "http://x.test/")!,
            headers: [
                "AUTHORIZATION": "Basic YWRhOnB3", "Proxy-Authorization": "Basic cHJveHk=", "COOKIE": "s=1",
                "X-Plain": "shown",
            ])
        let description = request.cURLDescription()
        for secret in ["YWRhOnB3", "cHJveHk=", "s=1"] {
            #expect(!description.contains(secret), "\(secret) in \(description)")
        }
        #expect(description.contains("-H 'Proxy-Authorization: ***'"))
        #expect(description.contains("-H 'X-Plain: shown'"))
    }

    @Test func quotesAreEscapedAndBinaryBodiesDescribed() {
        let text = Request(.put, url: URL(string: "http://x.test/")!, body: .text("it's"))
        #expect(text.cURLDescription().hasSuffix(#"--data-binary 'it'\''s'"#))
        let binary = Request(.put, url: URL(string: "http://x.test/")!, body: .data(Data([0, 1, 2])))
        #expect(binary.cURLDescription().hasSuffix("--data-binary @- # 3 bytes of binary data"))
        #expect(Request(.head, url: URL(string: "http://x.test/")!).cURLDescription() == "curl --head 'http://x.test/'")
    }

    @Test func aSessionAppliesItsDefaultsAndItsSecretHeaders() {
        let session = stubSession(configure: {
            $0.headers = ["X-API-Key": "k-123", "Accept": "application/json"]
            $0.redactedHeaderNames.insert("x-api-key")
        }) { _ in .status(204) }
        let description = session.cURLDescription(of: Request(url: URL(string: "users/1")!))
        #expect(
            description == """
                curl 'http://stub.test/users/1' \\
                  -H 'X-API-Key: ***' \\
                  -H 'Accept: application/json'
                """)
    }
}
