import Ferry

/// The JSON body that data items describe, with nested paths in their names: `user[name]=Ada` sets a member of
/// an object, `tags[]=a` appends to an array, `list[0]=x` sets an element by index (filling the gap with `null`),
/// and a name that starts with a bracket (`[]=x`) makes the body itself an array.
///
/// A later item with the same path replaces the earlier value; a path that treats an object as an array, an array
/// as an object or a plain value as either is a ``UsageError`` that shows where. Members keep the order typed.
struct NestedJSON {
    /// One step of a path.
    enum Step: Equatable {
        /// `name` or `[name]`.
        case key(String)
        /// `[3]`.
        case index(Int)
        /// `[]`.
        case append
    }

    /// A value being built; objects keep their members in the order first set.
    indirect enum Node {
        case leaf(JSON)
        case object([(key: String, value: Node)])
        case array([Node])

        var typeName: String {
            switch self {
            case .leaf(.string): "string"
            case .leaf(.number): "number"
            case .leaf(.bool): "boolean"
            case .leaf(.null): "null"
            case .leaf(.array), .array: "array"
            case .leaf(.object), .object: "object"
            }
        }
    }

    private var root: Node?

    /// Splits an item's name into steps: `a[b][]` is `key a`, `key b`, `append`. `\[`, `\]` and `\\` are literal
    /// characters in a key (`a\[1\]` is the key `a[1]`).
    /// - Throws: ``UsageError`` for an unclosed bracket or text after a bracket.
    static func steps(_ name: String) throws(UsageError) -> [Step] {
        // Each character, and whether a backslash made it literal.
        var characters: [(character: Character, literal: Bool)] = []
        var iterator = name.makeIterator()
        while let character = iterator.next() {
            if character == "\\" {
                if let next = iterator.next() {
                    if "[]\\".contains(next) {
                        characters.append((next, true))
                    } else {
                        characters.append(("\\", false))
                        characters.append((next, false))
                    }
                } else {
                    characters.append(("\\", false))
                }
            } else {
                characters.append((character, false))
            }
        }
        func isOpen(_ i: Int) -> Bool { characters[i].character == "[" && !characters[i].literal }
        func isClose(_ i: Int) -> Bool { characters[i].character == "]" && !characters[i].literal }
        func text(_ range: Range<Int>) -> String { String(characters[range].map(\.character)) }

        var steps: [Step] = []
        var index = characters.indices.first(where: isOpen) ?? characters.count
        if index == characters.count { return [.key(text(0..<index))] }
        if index > 0 { steps.append(.key(text(0..<index))) }
        while index < characters.count {
            guard isOpen(index) else {
                throw UsageError("\"\(name)\": expected \"[\" after \"]\", found \"\(text(index..<characters.count))\"")
            }
            guard let close = characters.indices[(index + 1)...].first(where: isClose) else {
                throw UsageError("\"\(name)\": a \"[\" without its \"]\"")
            }
            let inside = characters[(index + 1)..<close]
            let insideText = text((index + 1)..<close)
            if inside.isEmpty {
                steps.append(.append)
            } else if inside.allSatisfy({ !$0.literal && $0.character.isASCII && $0.character.isNumber }),
                let position = Int(insideText)
            {
                steps.append(.index(position))
            } else {
                steps.append(.key(insideText))
            }
            index = close + 1
        }
        return steps
    }

    /// Sets the value at the path the item's name gives.
    /// - Throws: ``UsageError`` when the path conflicts with what earlier items built.
    mutating func set(_ name: String, to value: JSON) throws(UsageError) {
        let steps = try Self.steps(name)
        root = try Self.set(value, in: root, at: steps[...], name: name, done: 0)
    }

    private static func set(
        _ value: JSON, in node: Node?, at steps: ArraySlice<Step>, name: String, done: Int
    ) throws(UsageError) -> Node {
        guard let step = steps.first else { return .leaf(value) }
        let rest = steps.dropFirst()
        switch step {
        case .key(let key):
            var members: [(key: String, value: Node)]
            switch node {
            case nil: members = []
            case .object(let existing)?: members = existing
            case let other?: throw conflict(name, done: done, wanted: "object", found: other.typeName)
            }
            if let position = members.firstIndex(where: { $0.key == key }) {
                members[position].value = try set(
                    value, in: members[position].value, at: rest, name: name, done: done + 1)
            } else {
                members.append((key, try set(value, in: nil, at: rest, name: name, done: done + 1)))
            }
            return .object(members)
        case .index, .append:
            var elements: [Node]
            switch node {
            case nil: elements = []
            case .array(let existing)?: elements = existing
            case let other?: throw conflict(name, done: done, wanted: "array", found: other.typeName)
            }
            let position: Int
            if case .index(let index) = step {
                position = index
                while elements.count <= index { elements.append(.leaf(.null)) }
            } else {
                position = elements.count
                elements.append(.leaf(.null))
            }
            let existing: Node? = if case .leaf(.null) = elements[position] { nil } else { elements[position] }
            elements[position] = try set(value, in: existing, at: rest, name: name, done: done + 1)
            return .array(elements)
        }
    }

    private static func conflict(_ name: String, done: Int, wanted: String, found: String) -> UsageError {
        let reached = (try? steps(name)).map { Array($0.prefix(done)) } ?? []
        let path = reached.isEmpty ? "the body" : "\"\(describe(reached))\""
        return UsageError(
            "data item \"\(name)\": \(path) is \(indefinite(found)) \(found) and cannot be used as \(indefinite(wanted))"
                + " \(wanted) here")
    }

    private static func indefinite(_ word: String) -> String {
        "aeiou".contains(word.first ?? "x") ? "an" : "a"
    }

    private static func describe(_ steps: [Step]) -> String {
        steps.enumerated().map { offset, step in
            switch step {
            case .key(let key): offset == 0 ? key : "[\(key)]"
            case .index(let index): "[\(index)]"
            case .append: "[]"
            }
        }.joined()
    }

    /// The body's bytes: an object (`{}` when nothing was set) or an array, compact, in the order typed.
    var encoded: String {
        guard let root else { return "{}" }
        return Self.encode(root)
    }

    private static func encode(_ node: Node) -> String {
        switch node {
        case .leaf(let json): json.description
        case .array(let elements): "[" + elements.map(encode).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.map { JSON.string($0.key).description + ":" + encode($0.value) }.joined(separator: ",") + "}"
        }
    }
}
