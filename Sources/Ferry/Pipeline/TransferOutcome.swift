import Foundation

/// What a finished transfer produced, before validation and serialization.
@dynamicMemberLookup
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

    /// Reads a field; setting one replaces the box with a changed copy.
    subscript<Value>(dynamicMember field: WritableKeyPath<Fields, Value>) -> Value {
        get { box.fields[keyPath: field] }
        set {
            var fields = box.fields
            fields[keyPath: field] = newValue
            box = Box(fields)
        }
    }

    struct Fields: Sendable {
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
    }

    private final class Box: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    static func failure(_ error: FerryError, request: Request?) -> TransferOutcome {
        let now = ContinuousClock.now
        let timeline = Timeline(startDate: Date(), requestStart: now, firstResponseByte: nil, requestCompleted: now)
        return TransferOutcome(
            request: request, error: error.adding(request: request, response: nil, body: nil), metrics: Metrics(),
            timeline: timeline)
    }
}
