import Ferry
import Foundation

/// `--curl`: the curl command that sends the same request, quoted for a POSIX shell.
enum CurlCommand {
    /// The command as one line.
    static func make(_ plan: RequestPlan, options: Options) -> String {
        var words = ["curl"]
        let impliedMethod = plan.body.isEmpty ? "GET" : "POST"
        if plan.method == .head {
            words.append("--head")
        } else if plan.method.rawValue != impliedMethod {
            words += ["-X", plan.method.rawValue]
        }
        for header in plan.headers where !(header.name == "User-Agent" && header.value == RequestPlan.userAgent) {
            words += ["-H", "\(header.name): \(header.value)"]
        }
        if plan.headers.contains("Accept-Encoding") { words.append("--compressed") }
        words += bodyWords(plan.body, headers: plan.headers)
        if let limit = plan.redirectLimit { words += ["-L", "--max-redirs", String(limit)] }
        if let idle = options.idleTimeout {
            // curl has no idle timeout: slower than 1 byte/s for that long is the closest.
            words += ["--connect-timeout", seconds(idle), "--speed-limit", "1", "--speed-time", seconds(idle)]
        }
        if let total = options.totalTimeout { words += ["--max-time", seconds(total)] }
        if options.checksStatus { words.append("--fail") }
        if options.isVerbose { words.append("-v") }
        if options.streams { words.append("-N") }
        if let output = options.output {
            words += ["-o", output]
            if options.continues { words += ["-C", "-"] }
        } else if options.downloads {
            // `-d`: named by Content-Disposition, else by the URL.
            words += ["-O", "-J"]
        }
        words.append(plan.url.absoluteString)
        return words.map(quoted).joined(separator: " ")
    }

    private static func bodyWords(_ body: BodyPlan, headers: HTTPHeaders) -> [String] {
        let typeHeader: (String) -> [String] = { type in
            headers.contains("Content-Type") ? [] : ["-H", "Content-Type: \(type)"]
        }
        switch body {
        case .none:
            return []
        case .json(let data):
            return typeHeader("application/json") + ["--data-raw", String(decoding: data, as: UTF8.self)]
        case .form(let pairs):
            return pairs.flatMap { ["--data-urlencode", "\($0.name)=\($0.value)"] }
        case .multipart(let parts):
            return parts.flatMap { part -> [String] in
                switch part {
                case .text(let name, let value): return ["--form-string", "\(name)=\(value)"]
                case .file(let name, let path): return ["-F", "\(name)=@\(path)"]
                }
            }
        case .data(let data, let type):
            guard let text = String(validating: data, as: UTF8.self), !text.contains("\u{0}") else {
                return typeHeader(type) + ["--data-binary", "@-"]
            }
            return typeHeader(type) + ["--data-raw", text]
        case .file(let path, let type):
            return typeHeader(type) + ["--data-binary", "@" + path]
        }
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// The word as is when it needs no quoting, else in single quotes (`'` written as `'\''`).
    static func quoted(_ word: String) -> String {
        let safe = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@=,+%")
        if !word.isEmpty, word.unicodeScalars.allSatisfy(safe.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
