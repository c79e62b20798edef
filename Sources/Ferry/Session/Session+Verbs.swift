import Foundation

extension Session {
    /// Starts a `GET`.
    /// - Parameters:
    ///   - url: The URL; a string or URL without a scheme is appended to the base URL.
    ///   - query: Query items appended to the URL, percent-escaped.
    ///   - headers: Headers for this request.
    /// - Returns: The task.
    public func get(_ url: some URLConvertible, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) -> DataTask<Data> {
        send(.get, url, query: query, headers: headers, body: nil)
    }

    /// Starts a `HEAD`.
    /// - Parameters:
    ///   - url: The URL.
    ///   - query: Query items appended to the URL.
    ///   - headers: Headers for this request.
    /// - Returns: The task; its body is empty.
    public func head(_ url: some URLConvertible, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]) -> DataTask<Data> {
        send(.head, url, query: query, headers: headers, body: nil)
    }

    /// Starts a `POST`.
    /// - Parameters:
    ///   - url: The URL.
    ///   - body: The body: ``RequestBody/json(_:encoder:)``, ``RequestBody/form(_:encoder:)``, ….
    ///   - query: Query items appended to the URL.
    ///   - headers: Headers for this request.
    /// - Returns: The task.
    public func post(
        _ url: some URLConvertible, body: RequestBody? = nil, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> DataTask<Data> {
        send(.post, url, query: query, headers: headers, body: body)
    }

    /// Starts a `PUT`.
    /// - Parameters:
    ///   - url: The URL.
    ///   - body: The body.
    ///   - query: Query items appended to the URL.
    ///   - headers: Headers for this request.
    /// - Returns: The task.
    public func put(
        _ url: some URLConvertible, body: RequestBody? = nil, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> DataTask<Data> {
        send(.put, url, query: query, headers: headers, body: body)
    }

    /// Starts a `PATCH`.
    /// - Parameters:
    ///   - url: The URL.
    ///   - body: The body.
    ///   - query: Query items appended to the URL.
    ///   - headers: Headers for this request.
    /// - Returns: The task.
    public func patch(
        _ url: some URLConvertible, body: RequestBody? = nil, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> DataTask<Data> {
        send(.patch, url, query: query, headers: headers, body: body)
    }

    /// Starts a `DELETE`.
    /// - Parameters:
    ///   - url: The URL.
    ///   - body: The body; form parameters go in the query string.
    ///   - query: Query items appended to the URL.
    ///   - headers: Headers for this request.
    /// - Returns: The task.
    public func delete(
        _ url: some URLConvertible, body: RequestBody? = nil, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> DataTask<Data> {
        send(.delete, url, query: query, headers: headers, body: body)
    }

    private func send(
        _ method: HTTPMethod, _ url: some URLConvertible, query: [URLQueryItem], headers: HTTPHeaders,
        body: RequestBody?
    ) -> DataTask<Data> {
        switch makeRequest(method, url, query: query, headers: headers, body: body) {
        case .success(let request):
            return self.request(request)
        case .failure(let error):
            return DataTask(transfer: Self.failedTransfer(error), validation: configuration.validation)
        }
    }

    /// A request for `url` resolved against the base URL, or the error that the URL cannot be resolved.
    nonisolated func makeRequest(
        _ method: HTTPMethod, _ url: some URLConvertible, query: [URLQueryItem] = [], headers: HTTPHeaders,
        body: RequestBody? = nil
    ) -> Result<Request, FerryError> {
        do throws(FerryError) {
            var request = Request(method, url: try url.url(relativeTo: configuration.baseURL), headers: headers, body: body)
            request.appendQuery(query)
            return .success(request)
        } catch {
            return .failure(error)
        }
    }

    /// A transfer that failed before it started.
    static func failedTransfer(_ error: FerryError) -> Transfer {
        Transfer(id: 0, finished: .failure(error, request: nil))
    }
}
