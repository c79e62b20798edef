import Ferry
import Foundation
import Hummingbird
import Logging
import QuoteService

// quote-service [port] [upstream-base-URL]: answers GET /quotes/:symbol from the upstream's /prices/:symbol.
let arguments = CommandLine.arguments
let port = arguments.count > 1 ? Int(arguments[1]) ?? 8080 : 8080
let upstreamURL = URL(string: arguments.count > 2 ? arguments[2] : "http://127.0.0.1:8081/")!
let logger = Logger(label: "quote-service")
let session = Session(
    configuration: .init(baseURL: upstreamURL, idleTimeout: .seconds(10), transport: AsyncHTTPClientTransport()))
let group = QuoteService.makeServiceGroup(
    upstream: session, configuration: .init(address: .hostname("127.0.0.1", port: port)), logger: logger)
try await group.run()
