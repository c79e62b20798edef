import Foundation

/// What a finished transfer produced, before validation and serialization.
struct TransferOutcome: Sendable {
    var request: Request?
    var response: HTTPResponse?
    var body: Data?
    var error: FerryError?
    var metrics: Metrics
    var timeline: Timeline
    /// A download's file at its destination, once placed.
    var file: URL?
    /// How to resume a download that failed part-way.
    var resumeData: ResumeData?

    static func failure(_ error: FerryError, request: Request?) -> TransferOutcome {
        let now = ContinuousClock.now
        let timeline = Timeline(startDate: Date(), requestStart: now, firstResponseByte: nil, requestCompleted: now)
        return TransferOutcome(
            request: request, error: error.adding(request: request, response: nil, body: nil), metrics: Metrics(),
            timeline: timeline)
    }
}
