import Ferry
import Foundation

extension BodyPlan {
    /// The body the options describe: `--raw`, or the body items as JSON (default, nested paths allowed), a form
    /// (`--form`) or multipart (`--multipart`, or any `name@file` item).
    /// - Throws: ``UsageError`` for an unreadable file or invalid JSON.
    init(options: Options, readStandardInput: () -> Data) throws(UsageError) {
        if let raw = options.rawBody {
            self = try Self.raw(raw, json: options.isJSON, readStandardInput: readStandardInput)
            // `-f --raw 'a=1&b=2'`: the text is the form, as in httpie.
            if options.isForm, case .data(let data, _) = self {
                self = .data(data, contentType: "application/x-www-form-urlencoded; charset=utf-8")
            }
            return
        }
        let items = options.items.filter(\.isBodyItem)
        guard !items.isEmpty else {
            self = .none
            return
        }
        let hasFiles = items.contains {
            if case .file = $0 { return true }
            return false
        }
        if options.isMultipart || hasFiles {
            self = .multipart(try items.map(Self.part))
        } else if options.isForm {
            self = .form(try items.map(Self.pair))
        } else {
            self = .json(try Self.jsonObject(items))
        }
    }

    /// `--raw`: with `-j`, or when the text parses as JSON, sent as `application/json`.
    private static func raw(
        _ raw: Options.RawBody, json: Bool, readStandardInput: () -> Data
    ) throws(UsageError) -> BodyPlan {
        switch raw {
        case .text(let text):
            let isJSON = json || (try? JSON(parsing: text)) != nil
            return .data(Data(text.utf8), contentType: isJSON ? "application/json" : "text/plain; charset=utf-8")
        case .standardInput:
            let data = readStandardInput()
            let isJSON = json || (try? JSON(parsing: data)) != nil
            return .data(data, contentType: isJSON ? "application/json" : "application/octet-stream")
        case .file(let path):
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw UsageError("--raw @\(path): no readable file there")
            }
            let isJSON = json || path.lowercased().hasSuffix(".json")
            return .file(path: path, contentType: isJSON ? "application/json" : "application/octet-stream")
        }
    }

    private static func part(_ item: RequestItem) throws(UsageError) -> Part {
        switch item {
        case .field(let name, let value): return .text(name: RequestItem.literalName(name), value: value)
        case .fieldFromFile(let name, let path):
            return .text(name: RequestItem.literalName(name), value: try text(of: path))
        case .file(let name, let path):
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw UsageError("\(name)@\(path): no readable file there")
            }
            return .file(name: name, path: path)
        default: throw UsageError("raw JSON fields (name:=json) cannot be sent as multipart")
        }
    }

    private static func pair(_ item: RequestItem) throws(UsageError) -> Pair {
        switch item {
        case .field(let name, let value): return Pair(name: RequestItem.literalName(name), value: value)
        case .fieldFromFile(let name, let path):
            return Pair(name: RequestItem.literalName(name), value: try text(of: path))
        default: throw UsageError("raw JSON fields (name:=json) cannot be sent as a form; drop -f/--form")
        }
    }

    /// The JSON body, members in the order typed (`JSON` itself does not keep order), nested paths resolved
    /// (``NestedJSON``).
    private static func jsonObject(_ items: [RequestItem]) throws(UsageError) -> Data {
        var body = NestedJSON()
        for item in items {
            switch item {
            case .field(let field, let text):
                try body.set(field, to: .string(text))
            case .fieldFromFile(let field, let path):
                try body.set(field, to: .string(try text(of: path)))
            case .rawJSON(let field, let text):
                try body.set(field, to: try parsed(text, item: "\(field):=\(text)"))
            case .rawJSONFromFile(let field, let path):
                try body.set(field, to: try parsed(try text(of: path), item: "\(field):=@\(path)"))
            default:
                continue
            }
        }
        return Data(body.encoded.utf8)
    }

    private static func parsed(_ text: String, item: String) throws(UsageError) -> JSON {
        do {
            return try JSON(parsing: text)
        } catch {
            throw UsageError("\(item): not valid JSON (\(error))")
        }
    }

    private static func text(of path: String) throws(UsageError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageError("cannot read \(path)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
