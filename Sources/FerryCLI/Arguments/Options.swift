/// Everything the command line says, before any file is read or any URL is resolved.
struct Options: Equatable, Sendable {
    /// Where a raw body (`--raw`) comes from.
    enum RawBody: Equatable, Sendable {
        /// `--raw text`
        case text(String)
        /// `--raw @path`
        case file(String)
        /// `--raw @-`
        case standardInput
    }

    /// How `-a/--auth` is sent (`-A/--auth-type`).
    enum AuthType: String, Equatable, Sendable, CaseIterable {
        /// `Authorization: Basic …` from `USER[:PASS]`.
        case basic
        /// `Authorization: Bearer TOKEN`.
        case bearer
    }

    /// `ferry demo`.
    var isDemo = false
    /// `ferry ws URL`: a WebSocket, standard input's lines out, the server's messages in.
    var isWebSocket = false
    /// `--help` (or `ferry demo --help`).
    var showsHelp = false
    /// `--version`.
    var showsVersion = false
    /// `--completions SHELL`: print a completion script and exit.
    var completions: CompletionScript.Shell?

    /// The method, from `-X` or a leading positional; `nil` to choose GET or POST from the body.
    var method: String?
    /// The URL as typed.
    var url = ""
    /// The request items, in order (`-H` headers included).
    var items: [RequestItem] = []
    /// `--raw`.
    var rawBody: RawBody?
    /// `-j`, `--json`: data items as JSON (the default) and JSON asked for.
    var isJSON = false
    /// `-f`, `--form`: fields go urlencoded.
    var isForm = false
    /// `--multipart`: fields go as multipart parts.
    var isMultipart = false

    /// `-a`, `--auth`: `USER[:PASS]` or a token.
    var auth: String?
    /// `-A`, `--auth-type`.
    var authType = AuthType.basic
    /// `--session NAME|PATH`: headers and cookies kept between runs.
    var session: String?
    /// `--session-read-only`: the session is read, not written back.
    var sessionIsReadOnly = false
    /// `--offline`: build and print the request, send nothing.
    var isOffline = false

    /// `-p`, `--print` (`-h`, `-b` for `h`, `b`): what to print, or `nil` for the default layout.
    var print: PrintSelection?
    /// `-v`, `--verbose`: the request too.
    var isVerbose = false
    /// `-q`, `--quiet`: nothing on standard error but errors.
    var isQuiet = false
    /// `--no-color`, or `NO_COLOR` in the environment.
    var usesColor = true
    /// `--timeline`: a waterfall on standard error.
    var showsTimeline = false
    /// `--curl`: print the equivalent curl command and send nothing.
    var printsCurl = false

    /// `-d`, `--download`: the body to a file named from the response or the URL.
    var downloads = false
    /// `-o`, `--output`: download to this file.
    var output: String?
    /// `-c`, `--continue`: resume a partial download.
    var continues = false
    /// `-S`, `--stream`: print lines or server-sent events as they arrive.
    var streams = false

    /// `-F`, `--follow`, `-L`, or implied by `--max-redirects`.
    var follows = false
    /// `--max-redirects`.
    var maxRedirects = 30
    /// `--timeout`: seconds without any byte moving.
    var idleTimeout: Double?
    /// `--max-time`: seconds for the whole exchange.
    var totalTimeout: Double?
    /// `--check-status`: 3xx, 4xx and 5xx answers exit non-zero.
    var checksStatus = false
    /// `--cache DIR`: an HTTP cache on disk in DIR, kept between runs.
    var cacheDirectory: String?
    /// `--proxy URL`: an HTTP or SOCKS5 proxy.
    var proxy: String?
    /// `--unix-socket PATH`: the request goes to the server on this Unix domain socket.
    var unixSocket: String?
    /// `--no-verify`: any certificate is accepted (`--verify`, the default, sets it back).
    var skipsVerification = false
    /// `--cacert FILE`: the only certificate authorities trusted (PEM or DER).
    var caCertificate: String?
    /// `--cert FILE`: the client certificate chain (PEM), with its key in it unless `--key` is given.
    var clientCertificate: String?
    /// `--key FILE`: the client certificate's private key (PEM).
    var clientKey: String?
    /// `--pin sha256/BASE64` (repeatable): public keys of which the server's chain must contain one.
    var pins: [String] = []

    /// `--protocol NAME` (repeatable, `ferry ws`): the subprotocols offered, in order of preference.
    var webSocketProtocols: [String] = []
    /// `--binary` (`ferry ws`): each line goes as a binary message rather than a text one.
    var sendsBinary = false
    /// `--max-message-size BYTES` (`ferry ws`): the largest message accepted from the server.
    var maximumMessageSize: Int?

    /// Whether the body goes to a file: `-d`, or `-o FILE`.
    var savesToFile: Bool { downloads || output != nil }
}
