import Ferry

/// Pretty-prints a ``JSON`` value with two-space indentation, colouring keys, strings, numbers and literals when
/// the stream takes colours. Object members come in key order.
struct JSONHighlighter {
    let stream: Console.Stream

    func render(_ value: JSON) -> String {
        var output = ""
        write(value, indentation: 0, into: &output)
        return output
    }

    private func write(_ value: JSON, indentation: Int, into output: inout String) {
        let inner = String(repeating: " ", count: indentation + 2)
        let outer = String(repeating: " ", count: indentation)
        switch value {
        case .null, .bool:
            output += stream.styled(value.description, .magenta)
        case .number:
            output += stream.styled(value.description, .yellow)
        case .string:
            output += stream.styled(value.description, .green)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "[\n"
            for (index, element) in elements.enumerated() {
                output += inner
                write(element, indentation: indentation + 2, into: &output)
                output += index < elements.count - 1 ? ",\n" : "\n"
            }
            output += outer + "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{\n"
            let keys = members.keys.sorted()
            for (index, key) in keys.enumerated() {
                output += inner + stream.styled(JSON.string(key).description, .blue) + ": "
                write(members[key] ?? .null, indentation: indentation + 2, into: &output)
                output += index < keys.count - 1 ? ",\n" : "\n"
            }
            output += outer + "}"
        }
    }
}
