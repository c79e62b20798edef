import Foundation

/// What a finished transfer produced, before validation and serialization.
struct TransferOutcome: Sendable {
    /// The fields, in one shared box: the outcome passes through several async frames (the transfer, each awaiter,
    /// serialization), which then hold a reference instead of a large value.
    private var box: Box

    init(
        request: Request? = nil, response: HTTPResponse? = nil, body: Data? = nil, error: FerryError? = nil,
        metrics: Metrics, timeline: Timeline, file: URL? = nil, resumeData: ResumeData? = nil
    ) {
        box = Box(
            Fields(
                request: request, response: response, body: body, error: error, metrics: metrics, timeline: timeline,
                file: file, resumeData: resumeData))
    }

    var request: Request? {
        get { box.fields.request }
        set { mutate { $0.request = newValue } }
    }
    var response: HTTPResponse? {
        get { box.fields.response }
        set { mutate { $0.response = newValue } }
    }
    var body: Data? {
        get { box.fields.body }
        set { mutate { $0.body = newValue } }
    }
    var error: FerryError? {
        get { box.fields.error }
        set { mutate { $0.error = newValue } }
    }
    var metrics: Metrics {
        get { box.fields.metrics }
        set { mutate { $0.metrics = newValue } }
    }
    var timeline: Timeline {
        get { box.fields.timeline }
        set { mutate { $0.timeline = newValue } }
    }
    /// A download's file at its destination, once placed.
    var file: URL? {
        get { box.fields.file }
        set { mutate { $0.file = newValue } }
    }
    /// What a broken-off download needs to resume.
    var resumeData: ResumeData? {
        get { box.fields.resumeData }
        set { mutate { $0.resumeData = newValue } }
    }

    private struct Fields: Sendable {
        var request: Request?
        var response: HTTPResponse?
        var body: Data?
        var error: FerryError?
        var metrics: Metrics
        var timeline: Timeline
        var file: URL?
        var resumeData: ResumeData?
    }

    private final class Box: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private mutating func mutate(_ change: (inout Fields) -> Void) {
        var fields = box.fields
        change(&fields)
        box = Box(fields)
    }

    static func failure(_ error: FerryError, request: Request?) -> TransferOutcome {
        let now = ContinuousClock.now
        let timeline = Timeline(startDate: Date(), requestStart: now, firstResponseByte: nil, requestCompleted: now)
        return TransferOutcome(
            request: request, error: error.adding(request: request, response: nil, body: nil), metrics: Metrics(),
            timeline: timeline)
    }
}
