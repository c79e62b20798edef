import Ferry
import FerryTesting
import Foundation
import Testing

/// A transport that hands on an interim (1xx) head as the final one, as FoundationNetworking does with
/// `103 Early Hints`: the pipeline refuses it instead of returning it with another response's body.
@Suite("Interim heads")
struct InterimHeadTests {
    @Test(arguments: [100, 102, 103, 199])
    func anInterimStatusAsTheFinalHeadIsInvalid(status: Int) async {
        let session = stubSession { _ in StubResponse(statusCode: status, body: Data("final body".utf8)) }

        let response = await session.get("early").unvalidated().response

        #expect(response.error?.reason == .transport(.invalidResponse))
        #expect(response.error?.statusCode == status)
        #expect(response.value == nil)
    }

    @Test func switchingProtocolsIsNotAnInterimHead() async {
        let session = stubSession { _ in .status(101) }

        let response = await session.get("upgrade").unvalidated().response

        #expect(response.statusCode == 101)
        #expect(response.error == nil)
    }
}
