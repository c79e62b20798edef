/// Why and where JSON text was rejected.
///
/// `offset` counts bytes from the start of the input (a skipped byte-order mark included);
/// `description` says what was expected there, e.g. `expected ',' or ']' after an array element, found '}' at byte 7`.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The broad kind of problem, for matching in code; it can grow without breaking callers.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Code: Sendable, Hashable {
            case unexpectedEndOfInput
            case unexpectedByte
            case invalidNumber
            case numberOutOfRange
            case invalidEscape
            case loneSurrogate
            case controlCharacterInString
            case invalidUTF8
            case nestingTooDeep
            case trailingData
        }

        private let code: Code

        private init(_ code: Code) {
            self.code = code
        }

        /// The input ended before the value was complete.
        public static let unexpectedEndOfInput = Kind(.unexpectedEndOfInput)
        /// A byte that cannot start or continue the expected token.
        public static let unexpectedByte = Kind(.unexpectedByte)
        /// A number that breaks the grammar, such as `01`, `1.`, `.5`, `+1` or `1e`.
        public static let invalidNumber = Kind(.invalidNumber)
        /// A well-formed number too large for a finite `Double`.
        public static let numberOutOfRange = Kind(.numberOutOfRange)
        /// A backslash escape that JSON does not define, or a `\u` without four hex digits.
        public static let invalidEscape = Kind(.invalidEscape)
        /// A `\u` escape for half of a surrogate pair without its other half.
        public static let loneSurrogate = Kind(.loneSurrogate)
        /// A raw control character (below U+0020) inside a string.
        public static let controlCharacterInString = Kind(.controlCharacterInString)
        /// Bytes that are not well-formed UTF-8.
        public static let invalidUTF8 = Kind(.invalidUTF8)
        /// Arrays and objects nested deeper than the parser allows.
        public static let nestingTooDeep = Kind(.nestingTooDeep)
        /// More than whitespace after the top-level value.
        public static let trailingData = Kind(.trailingData)

        /// A short name for the kind, such as `invalidNumber`.
        public var description: String {
            "\(code)"
        }
    }

    /// The broad kind of problem.
    public let kind: Kind
    /// The byte offset into the input where the problem was found.
    public let offset: Int
    /// What was wrong, without the offset, e.g. `expected ':' after an object key, found '}'`.
    public let message: String

    /// Creates an error.
    /// - Parameters:
    ///   - kind: The broad kind of problem.
    ///   - offset: The byte offset where it was found.
    ///   - message: What was wrong, without the offset.
    public init(kind: Kind, offset: Int, message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    /// The message followed by the offset, e.g. `expected a value, found ']' at byte 3`.
    public var description: String {
        "\(message) at byte \(offset)"
    }
}
