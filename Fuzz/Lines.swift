// libFuzzer target: LineSplitter.
// Property: the same bytes cut into arbitrary pieces give the same lines (and the same too-long failure) as one
// chunk, and both agree with a plain model of CR, LF and CRLF terminators.
import Foundation

@testable import Ferry

/// libFuzzer's entry point: checks the property above on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLines(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let limit = Int(input.byte()) % 96
    let seed = input.seed()
    let stream = Data(input.rest())

    let whole = split([stream], limit: limit)
    let pieces = split(randomPieces(of: stream, seed: seed), limit: limit)
    guard whole == pieces else { fuzzFailure("chunking changed the lines: \(whole) vs \(pieces)") }
    let expected = model(stream, limit: limit)
    guard whole == expected else { fuzzFailure("lines differ from the model: \(whole) vs \(expected)") }
    return 0
}

private struct Outcome: Equatable {
    var lines: [Data] = []
    var failed = false
}

private func split(_ chunks: [Data], limit: Int) -> Outcome {
    var splitter = LineSplitter(maximumLineLength: limit)
    var outcome = Outcome()
    for chunk in chunks {
        do {
            outcome.lines += try splitter.append(chunk)
        } catch {
            outcome.failed = true
            return outcome
        }
        if splitter.failure != nil {
            outcome.failed = true
            return outcome
        }
    }
    if let last = splitter.finish() { outcome.lines.append(last) }
    return outcome
}

private func model(_ stream: Data, limit: Int) -> Outcome {
    var outcome = Outcome()
    let bytes = Array(stream)
    var line: [UInt8] = []
    var index = 0
    while index < bytes.count {
        let byte = bytes[index]
        if byte == 0x0A || byte == 0x0D {
            if line.count > limit {
                outcome.failed = true
                return outcome
            }
            outcome.lines.append(Data(line))
            line = []
            if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
        } else {
            line.append(byte)
        }
        index += 1
    }
    if line.count > limit {
        outcome.failed = true
        return outcome
    }
    if !line.isEmpty { outcome.lines.append(Data(line)) }
    return outcome
}
