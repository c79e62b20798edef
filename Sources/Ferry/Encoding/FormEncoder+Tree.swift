/// One value in the tree a `FormEncoder` builds, to be flattened into name–value pairs at the end.
///
/// Containers write into nodes by reference, so a nested container keeps filling its node after the call
/// that made it returns. Keyed children keep the order their keys were first encoded in.
final class FormNode {
    enum Content {
        /// Nothing encoded yet; contributes no pairs.
        case empty
        /// An encoded `nil`; contributes no pairs.
        case null
        case scalar(String)
        case keyed
        case unkeyed
    }

    private(set) var content = Content.empty
    private var keys: [String] = []
    private var children: [String: FormNode] = [:]
    private(set) var elements: [FormNode] = []

    func setNull() {
        reset(to: .null)
    }

    func setScalar(_ value: String) {
        reset(to: .scalar(value))
    }

    func makeKeyed() {
        if case .keyed = content { return }
        reset(to: .keyed)
    }

    func makeUnkeyed() {
        if case .unkeyed = content { return }
        reset(to: .unkeyed)
    }

    /// The child for `key`, made (and the key's position fixed) the first time the key is used.
    func child(forKey key: String) -> FormNode {
        makeKeyed()
        if let existing = children[key] { return existing }
        let child = FormNode()
        keys.append(key)
        children[key] = child
        return child
    }

    /// A new last element.
    func appendElement() -> FormNode {
        makeUnkeyed()
        let element = FormNode()
        elements.append(element)
        return element
    }

    private func reset(to content: Content) {
        self.content = content
        keys = []
        children = [:]
        elements = []
    }
}

extension FormNode {
    /// Appends this node's pairs, naming nested values `name[key]` and array elements by `arrayEncoding`.
    /// - Parameters:
    ///   - name: The name so far; `nil` at the root, whose keys are used bare.
    ///   - arrayEncoding: How to name array elements.
    ///   - pairs: The pairs to append to.
    func appendPairs(
        named name: String?,
        arrayEncoding: FormEncoder.ArrayEncoding,
        to pairs: inout [(name: String, value: String)]
    ) {
        switch content {
        case .empty, .null:
            return
        case .scalar(let value):
            pairs.append((name ?? "", value))
        case .keyed:
            for key in keys {
                let childName = name.map { "\($0)[\(key)]" } ?? key
                children[key]?.appendPairs(named: childName, arrayEncoding: arrayEncoding, to: &pairs)
            }
        case .unkeyed:
            let base = name ?? ""
            for (index, element) in elements.enumerated() {
                let elementName =
                    switch arrayEncoding {
                    case .brackets: "\(base)[]"
                    case .noBrackets: base
                    case .indexInBrackets: "\(base)[\(index)]"
                    }
                element.appendPairs(named: elementName, arrayEncoding: arrayEncoding, to: &pairs)
            }
        }
    }
}
