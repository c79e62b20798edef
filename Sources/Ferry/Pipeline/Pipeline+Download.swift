import Foundation

extension Pipeline {
    /// Runs a download: a 2xx body goes to a temporary file, any other to memory (for the error); on success the
    /// response is validated and the file placed at its destination; on failure the partial file is kept for
    /// resuming or deleted.
    nonisolated(nonsending) func runDownload(
        _ request: Request, to target: DownloadTarget, resuming resume: ResumeData?, controls: TransferControls
    ) async -> TransferOutcome {
        var request = request
        // A content-encoded body cannot be resumed by byte ranges, and its length says nothing of the file's.
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
        let file = DownloadFile(url: temporary, resumeOffset: offset)
        var exchange = Exchange(start: timeouts.now)
        defer { exchange.close() }
        var outcome: TransferOutcome
        do {
            let opened = try await open(request, controls: controls, exchange: &exchange)
            outcome = try await receive(opened, into: file, controls: controls, exchange: &exchange)
        } catch {
            outcome = exchange.outcome(body: nil, error: error)
        }
        let written: Int64
        do {
            written = try file.close()
        } catch {
            written = 0
            if outcome.error == nil {
                outcome.error = error.adding(request: request, response: outcome.response, body: nil)
            }
        }
        return finish(outcome, file: file, written: written, target: target)
    }

    /// Reads a 2xx body into the file, any other into memory (an error's body prefix, or a custom validation's
    /// accepted answer).
    nonisolated(nonsending) private func receive(
        _ opened: Opened, into file: DownloadFile, controls: TransferControls, exchange: inout Exchange
    ) async throws(FerryError) -> TransferOutcome {
        if opened.head.isSuccessful {
            try await read(
                opened, into: BodyReceiver(FileDestination(file: file)), controls: controls, exchange: &exchange)
            return exchange.outcome(body: nil, error: nil)
        }
        let memory = BodyReceiver(MemoryDestination(limit: opened.prepared.maximumBodySize))
        do {
            let body = try await read(opened, into: memory, controls: controls, exchange: &exchange)
            return exchange.outcome(body: body, error: nil)
        } catch {
            return exchange.outcome(body: memory.destination.body, error: error)
        }
    }

    private func finish(
        _ outcome: TransferOutcome, file: DownloadFile, written: Int64, target: DownloadTarget
    )
        -> TransferOutcome
    {
        var outcome = outcome
        guard outcome.error == nil, let request = outcome.request, let head = outcome.response else {
            outcome.resumeData = keepForResume(outcome, file: file, written: written, target: target)
            if outcome.resumeData == nil { try? FileManager.default.removeItem(at: file.url) }
            return outcome
        }
        do throws(FerryError) {
            try target.validation.validate(
                head, body: head.isSuccessful ? Data() : outcome.body ?? Data(), for: request)
            if !head.isSuccessful {
                // Accepted by a custom validation: the (in-memory) error body is the download.
                do {
                    try (outcome.body ?? Data()).write(to: file.url)
                } catch {
                    throw FerryError(.fileSystemFailed("cannot write \(file.url.path)"), underlyingError: error)
                }
            } else if !FileManager.default.fileExists(atPath: file.url.path) {
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
