import Foundation

extension Session {
    /// Downloads a resource to a file.
    /// - Parameters:
    ///   - url: The URL; relative to the base URL when it has no scheme.
    ///   - destination: The file to create. It appears only once the download succeeded, in one atomic step.
    ///   - headers: Extra headers.
    ///   - options: What to do about existing files and missing directories, and the validation.
    /// - Returns: The task: iterate its ``DownloadTask/progress``, await its ``DownloadTask/value``.
    public func download(
        _ url: some URLConvertible, to destination: URL, headers: HTTPHeaders = [:],
        options: DownloadOptions = DownloadOptions()
    ) -> DownloadTask {
        download(makeRequest(.get, url, headers: headers), target: DownloadTarget(destination: .file(destination), options: options))
    }

    /// Downloads a resource into a directory, under the name the server suggests (`Content-Disposition`) or the
    /// URL's last path component. The name is reduced to one plain path component: a suggestion such as
    /// `../../etc/passwd` becomes `passwd` inside `directory`, never a path outside it.
    /// - Parameters:
    ///   - url: The URL.
    ///   - directory: The directory.
    ///   - headers: Extra headers.
    ///   - options: Destination options and validation.
    /// - Returns: The task; its value is the file created.
    public func download(
        _ url: some URLConvertible, into directory: URL, headers: HTTPHeaders = [:],
        options: DownloadOptions = DownloadOptions()
    ) -> DownloadTask {
        download(
            makeRequest(.get, url, headers: headers), target: DownloadTarget(destination: .directory(directory), options: options))
    }

    /// Sends a request and downloads its response body to a file.
    /// - Parameters:
    ///   - request: The request.
    ///   - destination: The file to create.
    ///   - options: Destination options and validation.
    /// - Returns: The task.
    public func download(_ request: Request, to destination: URL, options: DownloadOptions = DownloadOptions())
        -> DownloadTask
    {
        download(.success(request), target: DownloadTarget(destination: .file(destination), options: options))
    }

    /// Resumes a download that failed or was cancelled part-way, from its partial file.
    ///
    /// Ferry asks for the missing bytes with `Range` and `If-Range`. A `206` continues the partial file; a `200`
    /// (the server ignores ranges, or the resource changed) starts the file over. Either way the destination gets
    /// the complete, current resource or nothing.
    /// - Parameters:
    ///   - resumeData: From ``DownloadTask/resumeData`` or ``DownloadResponse/resumeData``.
    ///   - destination: The file to create.
    ///   - options: Destination options and validation.
    /// - Returns: The task.
    public func download(
        resuming resumeData: ResumeData, to destination: URL, options: DownloadOptions = DownloadOptions()
    ) -> DownloadTask {
        let target = DownloadTarget(destination: .file(destination), options: options)
        let transfer = start(resumeData.request) { pipeline, request, transfer in
            await pipeline.runDownload(request, to: target, resuming: resumeData, finishing: transfer)
        }
        return DownloadTask(transfer: transfer)
    }

    private func download(_ made: Result<Request, FerryError>, target: DownloadTarget) -> DownloadTask {
        let request: Request
        switch made {
        case .success(let made): request = made
        case .failure(let error): return DownloadTask(transfer: Self.failedTransfer(error))
        }
        let transfer = start(request) { pipeline, request, transfer in
            await pipeline.runDownload(request, to: target, resuming: nil, finishing: transfer)
        }
        return DownloadTask(transfer: transfer)
    }
}
