import Foundation

/// What a finished transfer produced: the request as sent, the head, the body (in memory), the file (a download's),
/// the error, and what was measured. The error is the transfer's, or the validation's of the task that ran it
/// (``validation``); serialization follows in the awaiting task.
///
/// A reference, like ``Exchange`` and for the same reason: the async frames that return or hold an outcome (the
/// transfer's, the body readers', the tasks') carry a pointer rather than 354 bytes each (Benchmarks/README, the
/// allocation row).
///
/// `@unchecked Sendable`: the one task that finishes the transfer fills it in, then publishes it under the state
/// machine's lock (``Transfer/finish(_:opened:)``); nothing changes it after, and every awaiter only reads it.
final class TransferOutcome: @unchecked Sendable {
    var request: Request?
    var response: HTTPResponse?
    var body: Data?
    var error: FerryError?
    var metrics: Metrics
    var timeline: Timeline
    /// A download's file at its destination, once placed.
    var file: URL?
    /// What a broken-off download needs to resume.
    var resumeData: ResumeData?
    /// The validation the pipeline applied, when a head arrived.
    var validation: Validation?
    /// Whether ``error`` is that validation's verdict (the transfer itself succeeded).
    var isRejection = false
    /// Whether the final head arrived (``response`` may also be a redirect's or a malformed head, for errors).
    var opened = false

    init(
        request: Request? = nil, response: HTTPResponse? = nil, body: Data? = nil, error: FerryError? = nil,
        metrics: Metrics, timeline: Timeline, file: URL? = nil, resumeData: ResumeData? = nil
    ) {
        self.request = request
        self.response = response
        self.body = body
        self.error = error
        self.metrics = metrics
        self.timeline = timeline
        self.file = file
        self.resumeData = resumeData
    }

    /// The outcome of a transfer that failed before anything was sent (a URL that cannot be resolved, a cancelled
    /// task, a session shut down).
    static func failure(_ error: FerryError, request: Request?) -> TransferOutcome {
        let now = ContinuousClock.now
        let timeline = Timeline(startDate: Date(), requestStart: now, firstResponseByte: nil, requestCompleted: now)
        return TransferOutcome(
            request: request, error: error.adding(request: request, response: nil, body: nil), metrics: Metrics(),
            timeline: timeline)
    }

    /// The final head as `validation` judges it, or why there is none: the transfer failed before it arrived, or
    /// the validation rejected it. The pipeline's verdict stands for the rule it applied; another rule judges the
    /// head again (status and declared content type).
    func head(for validation: Validation) -> Result<HTTPResponse, FerryError> {
        guard opened, let response, let request else {
            return .failure(error ?? FerryError(.transport(.invalidResponse), request: request))
        }
        // A failure after the head (the body's) leaves the head as it arrived.
        guard error == nil || isRejection else { return .success(response) }
        let judged = Transfer.JudgedHead(
            response: response, request: request, validation: self.validation ?? validation,
            rejection: isRejection ? error : nil)
        return judged.verdict(for: validation)
    }
}
