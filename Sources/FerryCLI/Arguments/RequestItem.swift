/// One request item after the URL: `name=value`, `name:=json`, `name==value`, `Header:value`, `name@file`,
/// `name=@file` or `name:=@file`.
///
/// The separator is the first unescaped one from the left; where several start at the same place the longest wins,
/// so `a:=1` is raw JSON, not a header `a` with value `=1`. In the name a backslash makes the next character
/// literal (`a\=b=c` is the field `a=b` with value `c`); the value is kept exactly as typed. A data field's name
/// keeps `\[`, `\]` and `\\` escaped, for ``NestedJSON`` to read as literal characters (`a\[b\]=1` is the member
/// `a[b]`); ``literalName(_:)`` removes those backslashes where names are not paths.
enum RequestItem: Equatable, Sendable {
    /// `Header:value`; an empty value removes the header (`User-Agent:`).
    case header(name: String, value: String)
    /// `name==value`: a query parameter.
    case query(name: String, value: String)
    /// `name=value`: a string field (JSON, form or multipart).
    case field(name: String, value: String)
    /// `name=@path`: a string field read from a file.
    case fieldFromFile(name: String, path: String)
    /// `name:=json`: a raw JSON field.
    case rawJSON(name: String, json: String)
    /// `name:=@path`: a raw JSON field read from a file.
    case rawJSONFromFile(name: String, path: String)
    /// `name@path`: a file uploaded as a multipart part.
    case file(name: String, path: String)

    /// The separators, longest first among those that share a first character.
    private static let separators: [(text: String, make: @Sendable (String, String) -> RequestItem)] = [
        (":=@", { .rawJSONFromFile(name: $0, path: $1) }),
        (":=", { .rawJSON(name: $0, json: $1) }),
        (":", { .header(name: $0, value: $1) }),
        ("==", { .query(name: $0, value: $1) }),
        ("=@", { .fieldFromFile(name: $0, path: $1) }),
        ("=", { .field(name: $0, value: $1) }),
        ("@", { .file(name: $0, path: $1) }),
    ]

    /// Parses one item.
    /// - Parameter argument: The argument as the shell passed it.
    /// - Throws: ``UsageError`` when it has no separator or no name.
    init(parsing argument: String) throws(UsageError) {
        let characters = Array(argument)
        var name = ""
        // The name with `\[` and `\]` still escaped, for data fields.
        var pathName = ""
        var index = 0
        while index < characters.count {
            let character = characters[index]
            if character == "\\", index + 1 < characters.count {
                let escaped = characters[index + 1]
                name.append(escaped)
                if "[]\\".contains(escaped) { pathName.append("\\") }
                pathName.append(escaped)
                index += 2
                continue
            }
            if let separator = Self.separator(in: characters, at: index) {
                guard !name.isEmpty else {
                    throw UsageError("request item \"\(argument)\" has no name before \"\(separator.text)\"")
                }
                let value = String(characters[(index + separator.text.count)...])
                var item = separator.make(name, value)
                if item.isDataField { item = separator.make(pathName, value) }
                if case .header(let headerName, _) = item, headerName.contains(" ") {
                    throw UsageError("request item \"\(argument)\": a header name cannot contain spaces")
                }
                self = item
                return
            }
            name.append(character)
            pathName.append(character)
            index += 1
        }
        throw UsageError(
            "\"\(argument)\" is not a request item (name=value, name:=json, name==query, Header:value, name@file)")
    }

    private static func separator(
        in characters: [Character], at index: Int
    ) -> (text: String, make: @Sendable (String, String) -> RequestItem)? {
        separators.first { separator in
            let text = Array(separator.text)
            return index + text.count <= characters.count && Array(characters[index..<(index + text.count)]) == text
        }
    }

    /// Whether the item is a data field (`=`, `:=`, `=@`, `:=@`), whose name may be a ``NestedJSON`` path.
    var isDataField: Bool {
        switch self {
        case .field, .fieldFromFile, .rawJSON, .rawJSONFromFile: return true
        case .header, .query, .file: return false
        }
    }

    /// A data field's name as a form or multipart name: `\[`, `\]` and `\\` without their escaping backslash.
    static func literalName(_ name: String) -> String {
        var literal = ""
        var escaping = false
        for character in name {
            if !escaping, character == "\\" {
                escaping = true
                continue
            }
            if escaping, !"[]\\".contains(character) { literal.append("\\") }
            literal.append(character)
            escaping = false
        }
        return escaping ? literal + "\\" : literal
    }

    /// Whether the item puts something in the body.
    var isBodyItem: Bool {
        switch self {
        case .header, .query: return false
        case .field, .fieldFromFile, .rawJSON, .rawJSONFromFile, .file: return true
        }
    }
}
