// libFuzzer target: ServerSentEventParser.
// Property: the same bytes cut into arbitrary pieces give the same events (and the same failure) as one chunk.
import Foundation

@testable import Ferry

/// libFuzzer's entry point: checks the property above on one input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzServerSentEvents(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let limit = Int(input.byte()) * 4
    let seed = input.seed()
    let stream = Data(input.rest())

    let whole = parse([stream], limit: limit)
    let pieces = parse(randomPieces(of: stream, seed: seed), limit: limit)
    guard whole == pieces else { fuzzFailure("chunking changed the events: \(whole) vs \(pieces)") }
    for event in whole.events where event.event.isEmpty || event.id?.contains("\0") == true {
        fuzzFailure("an event with an empty type or a NUL in its id: \(event)")
    }
    return 0
}

private struct Outcome: Equatable {
    var events: [ServerSentEvent] = []
    var failed = false
}

private func parse(_ chunks: [Data], limit: Int) -> Outcome {
    var parser = ServerSentEventParser(maximumLineLength: limit)
    var outcome = Outcome()
    for chunk in chunks {
        do {
            outcome.events += try parser.append(chunk)
        } catch {
            outcome.failed = true
            return outcome
        }
        if parser.failure != nil {
            outcome.failed = true
            return outcome
        }
    }
    outcome.events += parser.finish()
    return outcome
}
