extension MultipartFormData {
    /// A fresh random boundary: `ferry-` followed by 32 lowercase hex digits.
    @usableFromInline
    static func makeRandomBoundary() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return "ferry-" + String((0..<32).map { _ in digits[Int.random(in: 0..<16, using: &generator)] })
    }

    /// Whether `boundary` is 1 to 70 of RFC 2046's `bchars` and does not end in a space.
    static func isValidBoundary(_ boundary: String) -> Bool {
        let scalars = boundary.unicodeScalars
        guard (1...70).contains(scalars.count), scalars.last != " " else { return false }
        return scalars.allSatisfy { scalar in
            switch scalar {
            case "0"..."9", "a"..."z", "A"..."Z": true
            default: "'()+_,-./:=? ".unicodeScalars.contains(scalar)
            }
        }
    }

    /// Whether `boundary` holds characters that a header parameter may carry only inside quotes.
    static func needsQuoting(_ boundary: String) -> Bool {
        boundary.isEmpty || boundary.unicodeScalars.contains { "()<>@,;:\\\"/[]?= \t".unicodeScalars.contains($0) }
    }
}
