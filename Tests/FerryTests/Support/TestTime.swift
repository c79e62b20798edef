import Foundation

/// How much wider the timing margins of the live tests are: `FERRY_TEST_TIME_SCALE` (a whole number, default 1),
/// which scripts/sanitizers.sh sets because a sanitized build runs several times slower. Only margins scale (a
/// timeout that must not fire first, a "no hang" bound); what a test measures does not, and no test is skipped.
enum TestTime {
    static let scale = max(1, ProcessInfo.processInfo.environment["FERRY_TEST_TIME_SCALE"].flatMap { Int($0) } ?? 1)
}

extension Duration {
    /// This margin, widened by ``TestTime/scale``.
    var scaled: Duration { self * TestTime.scale }
}
