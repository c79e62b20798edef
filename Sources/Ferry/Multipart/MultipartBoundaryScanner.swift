import Foundation

/// Finds a form's delimiter (`--` and the boundary) in a part's content, which may arrive in pieces: a boundary
/// that occurs in the content would end the part there for every parser, and the body would be corrupt.
struct MultipartBoundaryScanner {
    private let delimiter: Data
    private let partName: String
    /// The last bytes seen, one fewer than the delimiter: a delimiter split across two pieces ends in the next one.
    private var tail = Data()

    init(boundary: String, partName: String) {
        delimiter = Data("--\(boundary)".utf8)
        self.partName = partName
    }

    /// Looks for the delimiter in the next piece of content.
    /// - Throws: ``FerryError`` with ``FerryError/Reason/invalidRequest(_:)`` when it is found.
    mutating func scan(_ piece: Data) throws(FerryError) {
        let keep = delimiter.count - 1
        let seam = tail + piece.prefix(keep)
        if seam.firstRange(of: delimiter) != nil || piece.firstRange(of: delimiter) != nil {
            let boundary = String(decoding: delimiter.dropFirst(2), as: UTF8.self)
            throw FerryError(
                .invalidRequest(
                    "the multipart boundary \(boundary.debugDescription) occurs in the content of part "
                        + "\(partName.debugDescription); choose another boundary, or keep the random default"))
        }
        tail = (tail + piece).suffix(keep)
    }
}
