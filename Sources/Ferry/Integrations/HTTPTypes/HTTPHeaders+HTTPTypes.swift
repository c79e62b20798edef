#if HTTPTypes
public import HTTPTypes

extension HTTPHeaders {
    /// The fields of `fields`, in order, repeated fields kept as separate fields.
    /// - Parameter fields: swift-http-types fields.
    public init(_ fields: HTTPFields) {
        self.init(fields.map { HTTPHeader(name: $0.name.rawName, value: $0.value) })
    }
}

extension HTTPFields {
    /// The fields of `headers`, in order, repeated fields kept as separate fields.
    /// - Parameter headers: Ferry's headers.
    /// - Throws: ``FerryError/Reason/invalidRequest(_:)`` for a name that is not an HTTP token (Ferry rejects
    ///   such a field before sending too), so the conversion never drops a field silently.
    public init(_ headers: HTTPHeaders) throws(FerryError) {
        self.init()
        reserveCapacity(headers.count)
        for header in headers {
            guard let name = HTTPField.Name(header.name) else {
                throw FerryError(.invalidRequest("\"\(header.name)\" is not a valid header field name"))
            }
            append(HTTPField(name: name, value: header.value))
        }
    }
}
#endif
