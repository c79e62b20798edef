import Ferry
import Foundation

/// The command line of `ferry-soak`.
struct SoakOptions: Sendable {
    var transport = "urlsession"
    var requests = 100_000
    var width = 64
    var cancellations = 10_000
    var faults = 1_000
    var seconds = 600

    init(_ arguments: ArraySlice<String>) {
        var iterator = arguments.makeIterator()
        while let name = iterator.next() {
            guard let value = iterator.next() else { Self.usage("\(name) needs a value") }
            switch name {
            case "--transport": transport = value
            case "--requests": requests = Self.number(value, name)
            case "--width": width = max(1, Self.number(value, name))
            case "--cancellations": cancellations = Self.number(value, name)
            case "--faults": faults = Self.number(value, name)
            case "--seconds": seconds = max(1, Self.number(value, name))
            default: Self.usage("unknown option \(name)")
            }
        }
    }

    func makeTransport() -> any Transport {
        switch transport {
        case "urlsession": return URLSessionTransport()
        case "ahc":
            #if AsyncHTTPClient
            return AsyncHTTPClientTransport()
            #else
            Self.usage("--transport ahc needs the AsyncHTTPClient trait")
            #endif
        default: Self.usage("unknown transport \(transport)")
        }
    }

    private static func number(_ text: String, _ name: String) -> Int {
        guard let value = Int(text), value >= 0 else { usage("\(name) takes a whole number") }
        return value
    }

    private static func usage(_ problem: String) -> Never {
        FileHandle.standardError.write(
            Data(
                """
                ferry-soak: \(problem)
                usage: ferry-soak [--transport urlsession|ahc] [--requests N] [--width N] [--cancellations N] \
                [--faults N] [--seconds N]

                """.utf8))
        exit(2)
    }
}
