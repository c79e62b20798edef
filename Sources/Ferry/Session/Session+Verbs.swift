import Foundation

extension Session {
    /// Makes a `GET` request, sent when its task is first awaited.
    /// - Parameters:
    ///   - url: The URL; a string or URL without a scheme is appended to the base URL.
    ///   - query: Query items appended to the URL, percent-escaped.
    ///   - headers: Headers for this request.
    /// - Returns: The task.
    public nonisolated func get(
        _ url: some URLConvertible, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> DataTask<Data> {
        send(.get, url, query: query, headers: headers, body: nil)
    }

    /// Makes a `HEAD` request, sent when its task is first awaited.
    /// - Parameters:
    ///   - url: The URL.
    ///   - query: Query items appended to the URL.
    ///   - headers: Headers for this request.
    /// - Returns: The task; its body is empty.
    public nonisolated func head(
        _ url: some URLConvertible, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> DataTask<Data> {
        send(.head, url, query: query, headers: headers, body: nil)
    }

    /// Makes a `POST` request, sent when its task is first awaited.
    /// - Parameters:
    ///   - url: The URL.
    ///   - body: The body: ``RequestBody/json(_:encoder:)``, ``RequestBody/form(_:encoder:)``, ….
    ///   - query: Query items appended to the URL.
    ///   - headers: Headers for this request.
    /// - Returns: The task.
    public nonisolated func post(
        _ url: some URLConvertible, body: RequestBody? = nil, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> DataTask<Data> {
        send(.post, url, query: query, headers: headers, body: body)
    }

    /// Makes a `PUT` request, sent when its task is first awaited.
    /// - Parameters:
    ///   - url: The URL.
    ///   - body: The body.
    ///   - query: Query items appended to the URL.
    ///   - headers: Headers for this request.
    /// - Returns: The task.
    public nonisolated func put(
        _ url: some URLConvertible, body: RequestBody? = nil, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> DataTask<Data> {
        send(.put, url, query: query, headers: headers, body: body)
    }

    /// Makes a `PATCH` request, sent when its task is first awaited.
    /// - Parameters:
    ///   - url: The URL.
    ///   - body: The body.
    ///   - query: Query items appended to the URL.
    ///   - headers: Headers for this request.
    /// - Returns: The task.
    public nonisolated func patch(
        _ url: some URLConvertible, body: RequestBody? = nil, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> DataTask<Data> {
        send(.patch, url, query: query, headers: headers, body: body)
    }

    /// Makes a `DELETE` request, sent when its task is first awaited.
    /// - Parameters:
    ///   - url: The URL.
    ///   - body: The body; form parameters go in the query string.
    ///   - query: Query items appended to the URL.
    ///   - headers: Headers for this request.
    /// - Returns: The task.
    public nonisolated func delete(
        _ url: some URLConvertible, body: RequestBody? = nil, query: [URLQueryItem] = [], headers: HTTPHeaders = [:]
    ) -> DataTask<Data> {
        send(.delete, url, query: query, headers: headers, body: body)
    }

    private nonisolated func send(
        _ method: HTTPMethod, _ url: some URLConvertible, query: [URLQueryItem], headers: HTTPHeaders,
        body: RequestBody?
    ) -> DataTask<Data> {
        switch makeRequest(method, url, query: query, headers: headers, body: body) {
        case .success(let request):
            return self.request(request)
        case .failure(let error):
            return DataTask(transfer: Transfer(failed: error), validation: configuration.validation)
        }
    }

    /// A request for `url` (a string or URL made a `URL` against the base URL, which preparing the request checks
    /// again), or the error that it is no URL at all.
    nonisolated func makeRequest(
        _ method: HTTPMethod, _ url: some URLConvertible, query: [URLQueryItem] = [], headers: HTTPHeaders,
        body: RequestBody? = nil
    ) -> Result<Request, FerryError> {
        do throws(FerryError) {
            var request = Request(
                method, url: try url.url(relativeTo: configuration.baseURL), headers: headers, body: body)
            request.appendQuery(query)
            return .success(request)
        } catch {
            return .failure(error)
        }
    }
}
