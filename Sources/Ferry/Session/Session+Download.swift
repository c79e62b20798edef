import Foundation

extension Session {
    /// Makes a download of a resource to a file, sent when its task is first awaited.
    /// - Parameters:
    ///   - url: The URL; relative to the base URL when it has no scheme.
    ///   - destination: The file to create. It appears only once the download succeeded, in one atomic step.
    ///   - method: The method; `GET` by default.
    ///   - query: Query items appended to the URL.
    ///   - headers: Extra headers.
    ///   - body: The request body, if any.
    ///   - options: What to do about existing files and missing directories.
    /// - Returns: The task: iterate its ``DownloadTask/downloadProgress``, await its ``DownloadTask/value``.
    public nonisolated func download(
        _ url: some URLConvertible, to destination: URL, method: HTTPMethod = .get, query: [URLQueryItem] = [],
        headers: HTTPHeaders = [:], body: RequestBody? = nil, options: DownloadOptions = DownloadOptions()
    ) -> DownloadTask {
        download(
            makeRequest(method, url, query: query, headers: headers, body: body),
            to: .file(destination), options: options, resuming: nil)
    }

    /// Makes a download into a directory, under the name the server suggests (`Content-Disposition`) or the URL's
    /// last path component. The name is reduced to one plain path component: a suggestion such as
    /// `../../etc/passwd` becomes `passwd` inside `directory`, never a path outside it.
    /// - Parameters:
    ///   - url: The URL.
    ///   - directory: The directory.
    ///   - method: The method; `GET` by default.
    ///   - query: Query items appended to the URL.
    ///   - headers: Extra headers.
    ///   - body: The request body, if any.
    ///   - options: What to do about existing files and missing directories.
    /// - Returns: The task; its value is the file created.
    public nonisolated func download(
        _ url: some URLConvertible, into directory: URL, method: HTTPMethod = .get, query: [URLQueryItem] = [],
        headers: HTTPHeaders = [:], body: RequestBody? = nil, options: DownloadOptions = DownloadOptions()
    ) -> DownloadTask {
        download(
            makeRequest(method, url, query: query, headers: headers, body: body),
            to: .directory(directory), options: options, resuming: nil)
    }

    /// Makes a download of a request's response body to a file.
    /// - Parameters:
    ///   - request: The request.
    ///   - destination: The file to create.
    ///   - options: What to do about existing files and missing directories.
    /// - Returns: The task.
    public nonisolated func download(
        _ request: Request, to destination: URL, options: DownloadOptions = DownloadOptions()
    ) -> DownloadTask {
        download(.success(request), to: .file(destination), options: options, resuming: nil)
    }

    /// Resumes a download that failed or was cancelled part-way, from its partial file.
    ///
    /// Ferry asks for the missing bytes with `Range` and `If-Range`. A `206` continues the partial file; a `200`
    /// (the server ignores ranges, or the resource changed) starts the file over. Either way the destination gets
    /// the complete, current resource or nothing.
    /// - Parameters:
    ///   - resumeData: From ``DownloadTask/resumeData`` or ``DataResponse/resumeData`` (a ``DownloadResponse``'s).
    ///   - destination: The file to create.
    ///   - options: What to do about existing files and missing directories.
    /// - Returns: The task.
    public nonisolated func download(
        resuming resumeData: ResumeData, to destination: URL, options: DownloadOptions = DownloadOptions()
    ) -> DownloadTask {
        download(.success(resumeData.request), to: .file(destination), options: options, resuming: resumeData)
    }

    private nonisolated func download(
        _ made: Result<Request, FerryError>, to destination: DownloadTarget.Destination, options: DownloadOptions,
        resuming resumeData: ResumeData?
    ) -> DownloadTask {
        let request: Request
        switch made {
        case .success(let made): request = made
        case .failure(let error):
            return DownloadTask(transfer: Transfer(failed: error), validation: configuration.validation)
        }
        let target = DownloadTarget(destination: destination, options: options)
        return DownloadTask(
            transfer: Transfer(.download(pipeline, request, target, resuming: resumeData), registry: registry),
            validation: configuration.validation)
    }
}
