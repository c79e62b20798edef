import Foundation

extension Pipeline {
    /// Runs a download: the body goes to a temporary file; on success the response is validated and the file
    /// placed at its destination; on failure the partial file is kept for resuming or deleted.
    func runDownload(
        _ request: Request, to target: DownloadTarget, resuming resume: ResumeData?, finishing transfer: Transfer
    ) async {
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
        var outcome = await perform(request, transfer: transfer, destination: .file(file))
        let written: Int64
        do {
            written = try file.close()
        } catch {
            written = 0
            if outcome.error == nil { outcome.error = error.adding(request: request, response: outcome.response, body: nil) }
        }
        outcome = finish(outcome, file: file, written: written, target: target)
        transfer.finish(outcome)
    }

    private func finish(_ outcome: TransferOutcome, file: DownloadFile, written: Int64, target: DownloadTarget)
        -> TransferOutcome
    {
        var outcome = outcome
        guard outcome.error == nil, let request = outcome.request, let head = outcome.response else {
            outcome.resumeData = keepForResume(outcome, file: file, written: written, target: target)
            if outcome.resumeData == nil { try? FileManager.default.removeItem(at: file.url) }
            return outcome
        }
        do throws(FerryError) {
            let validation = target.options.validation ?? configuration.validation
            try validation.validate(head, body: head.isSuccessful ? Data() : outcome.body ?? Data(), for: request)
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
