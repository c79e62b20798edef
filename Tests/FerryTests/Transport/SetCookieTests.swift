@testable import Ferry
import FerryTestServer
import Foundation
import Testing

@Suite("Repeated Set-Cookie fields")
struct SetCookieTests {
    @Test(arguments: [
        ("a=1", ["a=1"]),
        (
            "a=1; Path=/, b=2; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/",
            ["a=1; Path=/", "b=2; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/"]
        ),
        (
            "id=x; Expires=Thu, 01 Jan 2037 00:00:00 GMT, theme=dark, lang=en; HttpOnly",
            ["id=x; Expires=Thu, 01 Jan 2037 00:00:00 GMT", "theme=dark", "lang=en; HttpOnly"]
        ),
        ("list=1,2,3; Path=/", ["list=1,2,3; Path=/"]),
        ("a=1,  b=2", ["a=1", "b=2"]),
    ])
    func aJoinedValueIsSplitAtCookieBoundariesOnly(joined: String, cookies: [String]) {
        #expect(SetCookieSplitter.split(joined) == cookies)
    }

    /// FoundationNetworking joins them into one value; Ferry splits them back: two fields on every transport.
    @Test(arguments: TransportKind.allCases) func twoFieldsArriveAsTwo(transport: TransportKind) async throws {
        let live = try LiveServer(transport: transport)
        let first = "a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT; Path=/"
        let second = "b=2; HttpOnly"
        let query = [URLQueryItem(name: "Set-Cookie", value: first), URLQueryItem(name: "Set-Cookie", value: second)]
        let head = try await live.session.get("response-headers", query: query).head
        #expect(head.headers.values(for: "Set-Cookie") == [first, second])
    }
}
