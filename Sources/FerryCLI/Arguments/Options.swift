/// Everything the command line says, before any file is read or any URL is resolved.
struct Options: Equatable, Sendable {
    /// Where a raw body (`-d`) comes from.
    enum RawBody: Equatable, Sendable {
        /// `-d text`
        case text(String)
        /// `-d @path`
        case file(String)
        /// `-d @-`
        case standardInput
        /// `--json text`
        case json(String)
    }

    /// `ferry demo`.
    var isDemo = false
    /// `-h`, `--help`.
    var showsHelp = false
    /// `--version`.
    var showsVersion = false

    /// The method, from `-X` or a leading positional; `nil` to choose GET or POST from the body.
    var method: String?
    /// The URL as typed.
    var url = ""
    /// The request items, in order (`-F` items included).
    var items: [RequestItem] = []
    /// `-d` or `--json`.
    var rawBody: RawBody?
    /// `-f`, `--form`: fields go urlencoded.
    var isForm = false
    /// `--multipart`, or any `-F`: fields go as multipart parts.
    var isMultipart = false

    /// `-p`, `--print`: what to print, or `nil` for the default layout.
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

    /// `-o`, `--output`: download to this file.
    var output: String?
    /// `-c`, `--continue`: resume a partial download.
    var continues = false
    /// `-S`, `--stream`: print lines or server-sent events as they arrive.
    var streams = false

    /// `--follow`, `-L`, or implied by `--max-redirects`.
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
}
