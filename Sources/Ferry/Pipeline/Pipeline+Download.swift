import Foundation

extension Pipeline {
    /// Prepares a download's request and temporary file: asks for an unencoded body (a content-encoded body cannot
    /// be resumed by byte ranges, and its length says nothing of the file's), and for the missing bytes when
    /// resuming.
    static func prepareDownload(
        _ request: Request, resuming resume: ResumeData?
    ) -> (request: Request, file: DownloadFile) {
        var request = request
        if !request.headers.contains("Accept-Encoding") {
            request.headers.add(name: "Accept-Encoding", value: "identity")
        }
        let temporary: URL
        var offset: Int64 = 0
        if let resume, let validator = resume.ifRange, resume.byteCount > 0 {
            temporary = resume.partialFile
            offset = resume.byteCount
            request.headers.update(name: "Range", value: "bytes=\(resume.byteCount)-")
            request.headers.update(name: "If-Range", value: validator)
        } else {
            resume?.discard()
            temporary = DownloadTarget.temporaryFile()
        }
        return (request, DownloadFile(url: temporary, resumeOffset: offset))
    }

    /// Reads a download's body: into its temporary file when the validation accepted the head, else into memory
    /// (the error's body prefix); then applies the body's validation and places the file at its destination, or
    /// keeps the partial file for resuming, or deletes it.
    func readDownload(
        _ open: Opened, target: DownloadTarget, controls: TransferControls
    ) async
        -> TransferOutcome
    {
        guard let file = open.file else { preconditionFailure("a download opens with its file") }
        let exchange = open.exchange
        defer { exchange.close() }
        var outcome: TransferOutcome
        if open.rejection == nil {
            do {
                try await read(open, into: BodyReceiver(FileDestination(file: file)), controls: controls)
                outcome = exchange.outcome(body: nil, error: controls.signal.error)
            } catch {
                outcome = exchange.outcome(body: nil, error: error)
            }
        } else {
            let memory = BodyReceiver(MemoryDestination(limit: open.prepared.maximumBodySize))
            do {
                let body = try await read(open, into: memory, controls: controls)
                outcome = exchange.outcome(body: body, error: open.rejection)
                outcome.isRejection = true
            } catch {
                outcome = exchange.outcome(body: memory.destination.body, error: error)
            }
        }
        let written: Int64
        do {
            written = try file.close()
        } catch {
            written = 0
            if outcome.error == nil {
                outcome.error = error.adding(request: outcome.request, response: outcome.response, body: nil)
            }
        }
        guard outcome.error == nil, open.rejection == nil else {
            return finishDownload(outcome, file: file, written: written, target: target)
        }
        do throws(FerryError) {
            try open.validation.validateBody(Data(), length: written, of: open.head, for: open.prepared.request)
        } catch {
            outcome.error = error
            outcome.isRejection = true
        }
        let finished = finishDownload(outcome, file: file, written: written, target: target)
        if let write = exchange.cacheWrite, finished.error == nil, let placed = finished.file {
            // The store copies the placed file in chunks (or reads it into memory, when it fits a memory store).
            await write.cache.store(
                open.head, body: .file(placed, byteCount: Int(written)), for: write.request,
                requestTime: write.requestTime, responseTime: write.responseTime)
        }
        return finished
    }

    /// Places a download that succeeded and passed validation at its destination; for any other, keeps its partial
    /// file for resuming or deletes it.
    func finishDownload(
        _ outcome: TransferOutcome, file: DownloadFile, written: Int64, target: DownloadTarget
    ) -> TransferOutcome {
        guard outcome.error == nil, let request = outcome.request, let head = outcome.response else {
            outcome.resumeData =
                outcome.isRejection ? nil : keepForResume(outcome, file: file, written: written, target: target)
            if outcome.resumeData == nil { try? FileManager.default.removeItem(at: file.url) }
            return outcome
        }
        do throws(FerryError) {
            if !FileManager.default.fileExists(atPath: file.url.path) {
                // An empty body (204, HEAD) never opened the file.
                _ = FileManager.default.createFile(atPath: file.url.path, contents: nil)
            }
            let destination = try target.resolve(for: head)
            try target.place(file.url, at: destination)
            outcome.file = destination
        } catch {
            try? FileManager.default.removeItem(at: file.url)
            outcome.error = error.adding(request: request, response: head, body: outcome.body)
        }
        return outcome
    }

    /// Resume data for a download that failed part-way, when resuming it is safe.
    private func keepForResume(
        _ outcome: TransferOutcome, file: DownloadFile, written: Int64, target: DownloadTarget
    ) -> ResumeData? {
        guard target.options.keepsPartialFileForResume, written > 0, let request = outcome.request,
            let head = outcome.response, head.statusCode == 200 || head.statusCode == 206,
            !head.headers.contains("Content-Encoding")
        else { return nil }
        let resume = ResumeData(
            request: Self.withoutRangeHeaders(request), partialFile: file.url, byteCount: written,
            entityTag: head.headers["ETag"], lastModified: head.headers["Last-Modified"])
        return resume.ifRange == nil ? nil : resume
    }

    private static func withoutRangeHeaders(_ request: Request) -> Request {
        var request = request
        request.headers.remove(name: "Range")
        request.headers.remove(name: "If-Range")
        return request
    }
}

/// A download's temporary file as a body destination.
struct FileDestination: BodyDestination {
    let file: DownloadFile

    mutating func begin(_ head: HTTPResponse, length: Int64?) throws(FerryError) -> Int64 {
        try file.begin(head)
    }

    mutating func write(_ chunk: Data) throws(FerryError) {
        try file.write(chunk)
    }

    mutating func finish() throws(FerryError) {}
}
