/// Turns `ferry`'s arguments into ``Options``.
///
/// Options may come anywhere, before or after the URL. Long options take their value as the next argument or after
/// `=` (`--output=f`); short ones as the next argument or attached (`-XPOST`), and flags combine (`-vL`). `--` ends
/// the options. The first positional argument is the method when it is a known method or all capitals and more
/// positionals follow (`ferry DELETE :8080/x`); the next one is the URL; the rest are request items.
enum CommandLineParser {
    /// The methods recognised as a leading positional whatever their case.
    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE"]

    /// Parses the arguments (without the program name).
    /// - Throws: ``UsageError`` for an unknown option, a missing value, a missing URL or an item that is not one.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        if arguments.first == "demo" {
            options.isDemo = true
            for argument in arguments.dropFirst() {
                switch argument {
                case "--help": options.showsHelp = true
                case "--no-color": options.usesColor = false
                default:
                    throw UsageError("ferry demo takes only --help and --no-color, not \"\(argument)\"")
                }
            }
            return options
        }
        var positionals: [String] = []
        var remaining = arguments[...]
        if remaining.first == "ws" {
            options.isWebSocket = true
            remaining.removeFirst()
        }
        var optionsEnded = false
        while let argument = remaining.popFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument.hasPrefix("--") {
                try parseLong(argument, remaining: &remaining, into: &options)
            } else {
                try parseShort(argument, remaining: &remaining, into: &options)
            }
        }
        if options.showsHelp || options.showsVersion || options.completions != nil { return options }
        try assign(positionals, to: &options)
        try check(options)
        return options
    }

    private static func parseLong(
        _ argument: String, remaining: inout ArraySlice<String>, into options: inout Options
    ) throws(UsageError) {
        let body = argument.dropFirst(2)
        let name = body.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
        let attached = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
        guard let spec = OptionSpec.all.first(where: { $0.long == name }) else {
            throw UsageError("unknown option --\(name)" + suggestion(for: name))
        }
        if spec.value == nil {
            guard attached == nil else { throw UsageError("--\(name) takes no value") }
            try apply(spec, "", to: &options)
        } else if let attached {
            try apply(spec, attached, to: &options)
        } else {
            try apply(spec, try value(for: spec, from: &remaining), to: &options)
        }
    }

    private static func parseShort(
        _ argument: String, remaining: inout ArraySlice<String>, into options: inout Options
    ) throws(UsageError) {
        var letters = argument.dropFirst()[...]
        while let letter = letters.popFirst() {
            guard let spec = OptionSpec.all.first(where: { $0.short == letter }) else {
                throw UsageError("unknown option -\(letter)" + (argument.count > 2 ? " in \(argument)" : ""))
            }
            guard spec.value != nil else {
                try apply(spec, "", to: &options)
                continue
            }
            // The rest of the argument is the value (`-XPOST`), or else the next argument is.
            let value = letters.isEmpty ? try value(for: spec, from: &remaining) : String(letters)
            try apply(spec, value, to: &options)
            return
        }
    }

    private static func apply(_ spec: OptionSpec, _ value: String, to options: inout Options) throws(UsageError) {
        do {
            try spec.apply(&options, value)
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError("\(spec.displayName): \(error)")
        }
    }

    private static func value(
        for spec: OptionSpec, from remaining: inout ArraySlice<String>
    ) throws(UsageError)
        -> String
    {
        guard let value = remaining.popFirst() else {
            throw UsageError("\(spec.displayName) needs a value: \(spec.value ?? "")")
        }
        return value
    }

    private static func assign(_ positionals: [String], to options: inout Options) throws(UsageError) {
        var positionals = positionals[...]
        // `ferry ws` always sends a GET upgrade: its first positional is the URL.
        if !options.isWebSocket, positionals.count >= 2, let first = positionals.first, isMethod(first) {
            if let method = options.method, method != first.uppercased() {
                throw UsageError("two methods given: -X \(method) and \(first)")
            }
            options.method = first.uppercased()
            positionals.removeFirst()
        }
        guard let url = positionals.popFirst() else {
            let headersOnly = try? PrintSelection(parsing: "h")
            throw UsageError(
                options.print == headersOnly && headersOnly != nil
                    ? "no URL given (-h is --headers, as in httpie; help is --help)" : "no URL given")
        }
        options.url = url
        for item in positionals {
            do {
                options.items.append(try RequestItem(parsing: item))
            } catch {
                if !item.contains(where: { "=:@".contains($0) }), item.contains(".") || item.contains("/") {
                    throw UsageError("\"\(item)\" looks like a second URL; ferry sends one request at a time")
                }
                throw error
            }
        }
    }

    /// A leading positional is a method when it is a known one, or all capital letters (`PURGE`).
    static func isMethod(_ argument: String) -> Bool {
        guard !argument.isEmpty, argument.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return knownMethods.contains(argument.uppercased()) || argument == argument.uppercased()
    }

    private static func check(_ options: Options) throws(UsageError) {
        try checkWebSocket(options)
        let hasBodyItems = options.items.contains(where: \.isBodyItem)
        if options.rawBody != nil, hasBodyItems {
            throw UsageError("--raw and body items (name=value, name:=json, name@file) cannot be combined")
        }
        if options.isJSON, options.isForm || options.isMultipart {
            throw UsageError("-j/--json and -f/--form or --multipart cannot be combined; choose one")
        }
        if options.isForm || options.isMultipart,
            options.items.contains(where: {
                if case .rawJSON = $0 { return true }
                if case .rawJSONFromFile = $0 { return true }
                return false
            })
        {
            throw UsageError("raw JSON fields (name:=json) cannot be sent as a form; drop -f/--form or --multipart")
        }
        if options.continues, options.output == nil {
            throw UsageError("-c/--continue resumes a download and needs -o FILE")
        }
        if options.streams, options.savesToFile {
            throw UsageError("-S/--stream prints the body as it arrives and cannot be combined with -d or -o")
        }
        if options.auth == nil, options.authType == .bearer {
            throw UsageError("-A bearer needs the token: -a TOKEN")
        }
    }

    /// The options of `ferry ws` alone, and the ones that mean nothing for a WebSocket.
    private static func checkWebSocket(_ options: Options) throws(UsageError) {
        guard options.isWebSocket else {
            let given = [
                (!options.webSocketProtocols.isEmpty, "--protocol"), (options.sendsBinary, "--binary"),
                (options.maximumMessageSize != nil, "--max-message-size"),
            ].first { $0.0 }
            if let given { throw UsageError("\(given.1) is for WebSockets: ferry ws URL \(given.1) …") }
            return
        }
        if options.method != nil {
            throw UsageError("ferry ws sends a GET upgrade request; -X/--method does not apply")
        }
        if options.items.contains(where: \.isBodyItem) || options.rawBody != nil {
            throw UsageError(
                "ferry ws sends standard input's lines as messages; the upgrade request takes headers (Name:value) "
                    + "and query parameters (name==value) only")
        }
        let unsupported: [(Bool, String)] = [
            (options.isJSON, "-j/--json"), (options.isForm, "-f/--form"), (options.isMultipart, "--multipart"),
            (options.downloads, "-d/--download"), (options.output != nil, "-o/--output"),
            (options.continues, "-c/--continue"), (options.streams, "-S/--stream"), (options.follows, "-F/--follow"),
            (options.totalTimeout != nil, "--max-time"), (options.cacheDirectory != nil, "--cache"),
            (options.printsCurl, "--curl"), (options.showsTimeline, "--timeline"),
            (options.unixSocket != nil, "--unix-socket"),
        ]
        if let (_, flag) = unsupported.first(where: { $0.0 }) {
            throw UsageError("\(flag) does not apply to ferry ws (see ferry ws --help for what does)")
        }
    }

    /// ` (did you mean --follow?)` for a long name close to a real one.
    private static func suggestion(for name: String) -> String {
        let scored = OptionSpec.all.map { ($0.long, EditDistance.between(name, $0.long)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(1, name.count / 3) else { return "" }
        return " (did you mean --\(best.0)?)"
    }
}
