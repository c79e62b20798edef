/// The few ANSI styles `ferry` uses.
enum ANSIStyle: String, Sendable {
    case bold = "1"
    case dim = "2"
    case red = "31"
    case green = "32"
    case yellow = "33"
    case blue = "34"
    case magenta = "35"
    case cyan = "36"

    /// `text` wrapped in the style's escape sequence and a reset.
    func apply(to text: String) -> String {
        "\u{1B}[\(rawValue)m\(text)\u{1B}[0m"
    }

    /// The colour for a status line: green 2xx, yellow 3xx, red 4xx and 5xx.
    static func forStatus(_ code: Int) -> ANSIStyle {
        switch code {
        case 200..<300: return .green
        case 300..<400: return .yellow
        case 400..<600: return .red
        default: return .bold
        }
    }
}
