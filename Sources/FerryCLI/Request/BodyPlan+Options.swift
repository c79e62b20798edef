import Ferry
import Foundation

extension BodyPlan {
    /// The body the options describe: `-d`/`--json`, or the body items as JSON (default), a form (`--form`) or
    /// multipart (`--multipart`, `-F`, or any `name@file` item).
    /// - Throws: ``UsageError`` for an unreadable file or invalid JSON.
    init(options: Options, readStandardInput: () -> Data) throws(UsageError) {
        if let raw = options.rawBody {
            self = try Self.raw(raw, readStandardInput: readStandardInput)
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

    private static func raw(_ raw: Options.RawBody, readStandardInput: () -> Data) throws(UsageError) -> BodyPlan {
        switch raw {
        case .text(let text):
            let isJSON = (try? JSON(parsing: text)) != nil
            return .data(Data(text.utf8), contentType: isJSON ? "application/json" : "text/plain; charset=utf-8")
        case .json(let text):
            do {
                _ = try JSON(parsing: text)
            } catch {
                throw UsageError("--json text is not valid JSON: \(error)")
            }
            return .json(Data(text.utf8))
        case .standardInput:
            let data = readStandardInput()
            let isJSON = (try? JSON(parsing: data)) != nil
            return .data(data, contentType: isJSON ? "application/json" : "application/octet-stream")
        case .file(let path):
            guard FileManager.default.isReadableFile(atPath: path) else {
                throw UsageError("-d @\(path): no readable file there")
            }
            let isJSON = path.lowercased().hasSuffix(".json")
            return .file(path: path, contentType: isJSON ? "application/json" : "application/octet-stream")
        }
    }

    private static func part(_ item: RequestItem) throws(UsageError) -> Part {
        switch item {
        case .field(let name, let value): return .text(name: name, value: value)
        case .fieldFromFile(let name, let path): return .text(name: name, value: try text(of: path))
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
        case .field(let name, let value): return Pair(name: name, value: value)
        case .fieldFromFile(let name, let path): return Pair(name: name, value: try text(of: path))
        default: throw UsageError("raw JSON fields (name:=json) cannot be sent as a form; drop --form")
        }
    }

    /// `{"name":"value","n":1}` with the members in the order typed (`JSON` itself does not keep order).
    private static func jsonObject(_ items: [RequestItem]) throws(UsageError) -> Data {
        var members: [String] = []
        for item in items {
            let name: String
            let value: JSON
            switch item {
            case .field(let field, let text):
                (name, value) = (field, .string(text))
            case .fieldFromFile(let field, let path):
                (name, value) = (field, .string(try text(of: path)))
            case .rawJSON(let field, let text):
                (name, value) = (field, try parsed(text, item: "\(field):=\(text)"))
            case .rawJSONFromFile(let field, let path):
                (name, value) = (field, try parsed(try text(of: path), item: "\(field):=@\(path)"))
            default:
                continue
            }
            members.append("\(JSON.string(name).description):\(value.description)")
        }
        return Data("{\(members.joined(separator: ","))}".utf8)
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
