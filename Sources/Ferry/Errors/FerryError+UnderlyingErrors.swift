import Foundation

extension FerryError {
    /// The system error number of a file system failure's underlying error, when it has one.
    var systemErrorCode: Int32? {
        underlyingError.flatMap { Self.systemErrorCode(of: $0, depth: 0) }
    }

    /// The POSIX error number of `error` or of the errors under it (a `CocoaError` keeps one as its underlying
    /// error).
    private static func systemErrorCode(of error: any Error, depth: Int) -> Int32? {
        if let error = error as? POSIXError { return error.code.rawValue }
        let bridged = error as NSError
        if bridged.domain == NSPOSIXErrorDomain { return Int32(truncatingIfNeeded: bridged.code) }
        guard depth < 3, let underlying = bridged.userInfo[NSUnderlyingErrorKey] as? any Error else { return nil }
        return systemErrorCode(of: underlying, depth: depth + 1)
    }

    /// An underlying error in a few words: a decoding error's path and problem, a `LocalizedError`'s description,
    /// or the error's own description, on one line.
    static func summary(of error: any Error) -> String {
        if let error = error as? FerryError { return error.clause }
        if let error = error as? DecodingError { return summary(of: error) }
        if let error = error as? any LocalizedError, let description = error.errorDescription {
            return MessageText.oneLine(description)
        }
        return MessageText.oneLine(String(describing: error))
    }

    private static func summary(of error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "no value for the key \"\(key.stringValue)\"" + location(context.codingPath)
        case .valueNotFound(let type, let context):
            return "expected \(type) but found null" + location(context.codingPath)
        case .typeMismatch(_, let context), .dataCorrupted(let context):
            var description = MessageText.lowercasingFirst(MessageText.oneLine(context.debugDescription))
            if description.hasSuffix(".") { description.removeLast() }
            return description + location(context.codingPath)
        @unknown default:
            return MessageText.oneLine(String(describing: error))
        }
    }

    /// ` at users[0].name`, or nothing at the top level.
    private static func location(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "" }
        var text = ""
        for key in path {
            if let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += (text.isEmpty ? "" : ".") + key.stringValue
            }
        }
        return " at \(text)"
    }

    /// `url` for a message, with any password replaced by `***`.
    static func display(_ url: URL) -> String {
        guard url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.percentEncodedPassword = "***"
        return components.string ?? url.absoluteString
    }
}
