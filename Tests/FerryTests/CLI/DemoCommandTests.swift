import Foundation
import Testing

/// `ferry demo` run as a user runs it: the README's first command.
@Suite("ferry demo", .timeLimit(.minutes(2)))
struct DemoCommandTests {
    @Test("every step works, and errors print as users read them")
    func demoPrintsErrorsAsSentences() async throws {
        // Given the built binary, with standard error a pipe (no progress bar)
        // When the demo runs
        let run = try await FerryBinary.run(["demo"])
        // Then it succeeds, and each error is the sentence localizedDescription gives
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.out.contains("Demo finished: everything worked."))
        #expect(run.out.contains("/status/404 failed: the server answered 404 Not Found."))
        #expect(run.out.contains("error.reason == .unacceptableStatus(404)"))
        #expect(run.out.contains("/delay/2 failed: nothing was sent or received for"))
        #expect(!run.out.contains("caught FerryError"))
        #expect(run.out.contains("saved ferry-demo-"))
    }
}
