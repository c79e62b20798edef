/// One option `ferry` accepts: its names, whether it takes a value, and what it sets.
struct OptionSpec: Sendable {
    /// A one-letter name without the dash (`o` for `-o`), if it has one.
    let short: Character?
    /// The long name without the dashes (`output` for `--output`).
    let long: String
    /// The value's placeholder in messages (`FILE`), or `nil` for a flag.
    let value: String?
    let apply: @Sendable (inout Options, String) throws -> Void

    init(
        _ short: Character?, _ long: String, value: String? = nil,
        apply: @escaping @Sendable (inout Options, String) throws -> Void
    ) {
        self.short = short
        self.long = long
        self.value = value
        self.apply = apply
    }

    /// How the option was named in messages: `-o/--output`.
    var displayName: String {
        short.map { "-\($0)/--\(long)" } ?? "--\(long)"
    }
}

extension OptionSpec {
    /// Every option, as `ferry --help` lists them.
    static let all: [OptionSpec] = [
        OptionSpec("X", "method", value: "METHOD") { options, value in options.method = value.uppercased() },
        OptionSpec("H", "header", value: "'Name: value'") { options, value in
            guard let colon = value.firstIndex(of: ":") else {
                throw UsageError("-H/--header \"\(value)\" has no colon between name and value")
            }
            options.items.append(
                .header(name: String(value[..<colon]), value: String(value[value.index(after: colon)...])))
        },
        OptionSpec("j", "json") { options, _ in options.isJSON = true },
        OptionSpec("f", "form") { options, _ in options.isForm = true },
        OptionSpec(nil, "multipart") { options, _ in options.isMultipart = true },
        OptionSpec(nil, "raw", value: "TEXT|@FILE|@-") { options, value in
            options.rawBody =
                value == "@-" ? .standardInput : value.hasPrefix("@") ? .file(String(value.dropFirst())) : .text(value)
        },
        OptionSpec("a", "auth", value: "USER[:PASS]|TOKEN") { options, value in options.auth = value },
        OptionSpec("A", "auth-type", value: "basic|bearer") { options, value in
            guard let type = Options.AuthType(rawValue: value.lowercased()) else {
                throw UsageError("-A/--auth-type takes basic or bearer, not \"\(value)\"")
            }
            options.authType = type
        },
        OptionSpec(nil, "session", value: "NAME|PATH") { options, value in
            guard !value.isEmpty else { throw UsageError("--session takes a name or a path") }
            options.session = value
        },
        OptionSpec(nil, "session-read-only", value: "NAME|PATH") { options, value in
            guard !value.isEmpty else { throw UsageError("--session-read-only takes a name or a path") }
            options.session = value
            options.sessionIsReadOnly = true
        },
        OptionSpec(nil, "offline") { options, _ in options.isOffline = true },
        // httpie reads a piped standard input as the body unless told not to; ferry reads it only for --raw @-.
        OptionSpec("I", "ignore-stdin") { _, _ in },
        OptionSpec("p", "print", value: "HBhbm") { options, value in
            options.print = try PrintSelection(parsing: value)
        },
        OptionSpec("h", "headers") { options, _ in options.print = try PrintSelection(parsing: "h") },
        OptionSpec("b", "body") { options, _ in options.print = try PrintSelection(parsing: "b") },
        OptionSpec("m", "meta") { options, _ in options.print = try PrintSelection(parsing: "m") },
        OptionSpec("v", "verbose") { options, _ in options.isVerbose = true },
        OptionSpec("q", "quiet") { options, _ in options.isQuiet = true },
        OptionSpec(nil, "no-color") { options, _ in options.usesColor = false },
        OptionSpec(nil, "timeline") { options, _ in options.showsTimeline = true },
        OptionSpec(nil, "curl") { options, _ in options.printsCurl = true },
        OptionSpec("d", "download") { options, _ in options.downloads = true },
        OptionSpec("o", "output", value: "FILE") { options, value in options.output = value },
        OptionSpec("c", "continue") { options, _ in options.continues = true },
        OptionSpec("S", "stream") { options, _ in options.streams = true },
        OptionSpec("F", "follow") { options, _ in options.follows = true },
        OptionSpec(nil, "max-redirects", value: "N") { options, value in
            guard let limit = Int(value), limit >= 0 else {
                throw UsageError("--max-redirects takes a whole number of redirects, not \"\(value)\"")
            }
            options.maxRedirects = limit
            options.follows = true
        },
        OptionSpec(nil, "timeout", value: "SECONDS") { options, value in
            options.idleTimeout = try seconds(value, for: "--timeout")
        },
        OptionSpec(nil, "max-time", value: "SECONDS") { options, value in
            options.totalTimeout = try seconds(value, for: "--max-time")
        },
        OptionSpec(nil, "check-status") { options, _ in options.checksStatus = true },
        OptionSpec(nil, "cache", value: "DIR") { options, value in
            guard !value.isEmpty else { throw UsageError("--cache takes a directory") }
            options.cacheDirectory = value
        },
        OptionSpec(nil, "proxy", value: "URL") { options, value in
            guard !value.isEmpty else {
                throw UsageError("--proxy takes a URL: http://host:port or socks5://host:port")
            }
            options.proxy = value
        },
        OptionSpec(nil, "unix-socket", value: "PATH") { options, value in
            guard !value.isEmpty else { throw UsageError("--unix-socket takes the socket's path") }
            options.unixSocket = value
        },
        OptionSpec(nil, "verify") { options, _ in options.skipsVerification = false },
        OptionSpec(nil, "no-verify") { options, _ in options.skipsVerification = true },
        OptionSpec(nil, "cacert", value: "FILE") { options, value in options.caCertificate = value },
        OptionSpec(nil, "cert", value: "FILE") { options, value in options.clientCertificate = value },
        OptionSpec(nil, "key", value: "FILE") { options, value in options.clientKey = value },
        OptionSpec(nil, "pin", value: "sha256/BASE64") { options, value in options.pins.append(value) },
        OptionSpec(nil, "protocol", value: "NAME") { options, value in
            guard !value.isEmpty, !value.contains(where: { $0 == "," || $0.isWhitespace }) else {
                throw UsageError("--protocol takes one subprotocol name (repeat it to offer more), not \"\(value)\"")
            }
            options.webSocketProtocols.append(value)
        },
        OptionSpec(nil, "binary") { options, _ in options.sendsBinary = true },
        OptionSpec(nil, "max-message-size", value: "BYTES") { options, value in
            options.maximumMessageSize = try byteCount(value, for: "--max-message-size")
        },
        OptionSpec(nil, "completions", value: "bash|zsh|fish") { options, value in
            guard let shell = CompletionScript.Shell(rawValue: value) else {
                throw UsageError("--completions takes bash, zsh or fish, not \"\(value)\"")
            }
            options.completions = shell
        },
        OptionSpec(nil, "help") { options, _ in options.showsHelp = true },
        OptionSpec(nil, "version") { options, _ in options.showsVersion = true },
    ]

    /// A size in bytes: a whole number, or one with `k` or `M` (KiB, MiB); at least 125, a control frame's size.
    static func byteCount(_ value: String, for option: String) throws(UsageError) -> Int {
        let multipliers: [Character: Int] = ["k": 1 << 10, "K": 1 << 10, "m": 1 << 20, "M": 1 << 20]
        var digits = Substring(value)
        var multiplier = 1
        if let last = digits.last, let factor = multipliers[last] {
            multiplier = factor
            digits = digits.dropLast()
        }
        guard let number = Int(digits), number > 0, number <= Int(Int32.max) / multiplier,
            number * multiplier >= 125
        else {
            throw UsageError("\(option) takes a size in bytes of at least 125 (64k and 16M work too), not \"\(value)\"")
        }
        return number * multiplier
    }

    private static func seconds(_ value: String, for option: String) throws(UsageError) -> Double {
        guard let seconds = Double(value), seconds > 0, seconds.isFinite else {
            throw UsageError("\(option) takes a positive number of seconds, not \"\(value)\"")
        }
        return seconds
    }
}
