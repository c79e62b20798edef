import Foundation

extension MultipartFormData {
    /// One part of a form: its name, its optional file name and media type, and where its bytes come from.
    struct Part: Sendable {
        /// Where a part's bytes come from.
        enum Content: Sendable {
            /// Bytes held in memory.
            case data(Data)
            /// A file, read when the form is encoded.
            case file(URL)
        }

        var name: String
        var fileName: String?
        var mimeType: String?
        var content: Content

        /// The delimiter line and the header lines that open this part, up to and including the empty line.
        func head(boundary: String) -> Data {
            var text = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.escaped(name))\""
            if let fileName { text += "; filename=\"\(Self.escaped(fileName))\"" }
            text += "\r\n"
            if let mimeType { text += "Content-Type: \(mimeType)\r\n" }
            text += "\r\n"
            return Data(text.utf8)
        }

        /// `value` made safe inside a quoted `Content-Disposition` parameter, as the HTML living standard does:
        /// `"` becomes `%22`, CR `%0D` and LF `%0A`.
        static func escaped(_ value: String) -> String {
            var result = ""
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": result += "%22"
                case "\r": result += "%0D"
                case "\n": result += "%0A"
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result
        }
    }
}
