import Foundation

/// The body of a request, with the `Content-Type` it implies.
///
/// Make one with a static factory: ``data(_:contentType:)``, ``text(_:contentType:)``, ``json(_:encoder:)``,
/// ``json(_:)``, ``form(_:encoder:)``, ``file(_:contentType:)``, ``stream(_:count:contentType:)`` or
/// ``multipart(_:memoryThreshold:)``. Encoding happens when the body is made; an encoding failure is kept and
/// reported as a ``FerryError`` when the request is sent, so building a request never throws.
public struct RequestBody: Sendable {
    /// The bytes a transport sends.
    public enum Content: Sendable {
        /// Bytes held in memory.
        case data(Data)
        /// The contents of a file, read as they are sent.
        case file(URL)
        /// Chunks from an asynchronous sequence, read once as they are sent.
        case stream(ByteSource, count: Int64?)
    }

    enum Storage: Sendable {
        case content(Content)
        case form([(name: String, value: String)])
        indirect case failure(FerryError)
    }

    let storage: Storage

    /// The `Content-Type` this body implies, used when the request has none.
    public let contentType: String?

    /// A temporary file this body owns (a large multipart form, a spooled stream), deleted with the last copy.
    let temporaryFile: TemporaryFile?

    init(_ storage: Storage, contentType: String?, temporaryFile: TemporaryFile? = nil) {
        self.storage = storage
        self.contentType = contentType
        self.temporaryFile = temporaryFile
    }

    /// The bytes to send. A form body is percent-encoded; a body that failed to encode is empty.
    public var content: Content {
        switch storage {
        case .content(let content): content
        case .form(let pairs): .data(Data(FormURLEncoding.query(pairs).utf8))
        case .failure: .data(Data())
        }
    }

    /// The number of bytes to send, when known.
    public var count: Int64? {
        switch content {
        case .data(let data): Int64(data.count)
        case .file(let url):
            (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        case .stream(_, let count): count
        }
    }

    /// Raw bytes.
    /// - Parameters:
    ///   - data: The bytes.
    ///   - contentType: Their media type; `application/octet-stream` by default.
    /// - Returns: The body.
    public static func data(_ data: Data, contentType: String? = "application/octet-stream") -> RequestBody {
        RequestBody(.content(.data(data)), contentType: contentType)
    }

    /// Text, encoded as UTF-8.
    /// - Parameters:
    ///   - text: The text.
    ///   - contentType: Its media type; `text/plain; charset=utf-8` by default.
    /// - Returns: The body.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        RequestBody(.content(.data(Data(text.utf8))), contentType: contentType)
    }

    /// A value encoded as JSON.
    /// - Parameters:
    ///   - value: The value.
    ///   - encoder: The encoder; a default `JSONEncoder` when omitted.
    /// - Returns: The body, `application/json`. If encoding fails, sending the request fails with
    ///   ``FerryError/Reason/invalidRequest(_:)`` and the encoding error as the underlying error.
    public static func json<Value: Encodable>(_ value: Value, encoder: JSONEncoder = JSONEncoder()) -> RequestBody {
        do {
            return RequestBody(.content(.data(try encoder.encode(value))), contentType: "application/json")
        } catch {
            let failure = FerryError(.invalidRequest("the JSON body could not be encoded"), underlyingError: error)
            return RequestBody(.failure(failure), contentType: "application/json")
        }
    }

    /// A ``JSON`` document.
    /// - Parameter json: The document.
    /// - Returns: The body, `application/json`.
    public static func json(_ json: JSON) -> RequestBody {
        RequestBody(.content(.data(json.encoded(sortedKeys: false))), contentType: "application/json")
    }

    /// A value encoded as `application/x-www-form-urlencoded`.
    ///
    /// For `GET`, `HEAD` and `DELETE` requests the parameters go in the query string instead of the body.
    /// - Parameters:
    ///   - value: The value, a struct or dictionary of simple values.
    ///   - encoder: The form encoder.
    /// - Returns: The body.
    public static func form<Value: Encodable>(_ value: Value, encoder: FormEncoder = FormEncoder()) -> RequestBody {
        do {
            return form(try encoder.encode(value))
        } catch {
            let failure = FerryError(.invalidRequest("the form body could not be encoded"), underlyingError: error)
            return RequestBody(.failure(failure), contentType: formContentType)
        }
    }

    /// Name–value pairs encoded as `application/x-www-form-urlencoded`, in order.
    ///
    /// For `GET`, `HEAD` and `DELETE` requests the parameters go in the query string instead of the body.
    /// - Parameter pairs: The pairs.
    /// - Returns: The body.
    public static func form(_ pairs: [(name: String, value: String)]) -> RequestBody {
        RequestBody(.form(pairs), contentType: formContentType)
    }

    static let formContentType = "application/x-www-form-urlencoded; charset=utf-8"
}
