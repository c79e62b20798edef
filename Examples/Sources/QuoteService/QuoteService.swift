import Ferry
import Foundation
import Hummingbird
import Logging
import ServiceLifecycle

/// A Hummingbird service that answers `GET /quotes/:symbol` by calling an upstream price service through a shared
/// Ferry `Session`.
///
/// The session is made once and run by the service group beside the HTTP server (``makeServiceGroup``): on
/// SIGTERM the server stops taking requests, and the session lets upstream calls in flight finish within its grace
/// period before closing its connections. A handler's upstream call runs in the handler's task, so a client that
/// goes away cancels it.
public enum QuoteService {
    /// The router: `GET /quotes/:symbol`.
    /// - Parameter upstream: The session whose base URL is the price service.
    public static func makeRouter(upstream: Session) -> Router<BasicRequestContext> {
        let router = Router()
        router.get("quotes/:symbol") { _, context -> Response in
            let symbol = try context.parameters.require("symbol")
            let task = upstream.get("prices/\(symbol)")
            let price: Price
            do throws(FerryError) {
                price = try await task.serializingDecodable(Price.self)
            } catch  where error.statusCode == 404 {
                throw HTTPError(.notFound, message: "no price for \(symbol)")
            } catch {
                context.logger.error("upstream failed", metadata: ["error": "\(error.localizedDescription)"])
                throw HTTPError(.badGateway, message: error.localizedDescription)
            }
            let source = await task.response.request?.url.absoluteString ?? ""
            return try Response.json(Quote(symbol: price.symbol, dollars: Double(price.cents) / 100, source: source))
        }
        return router
    }

    /// The HTTP server and the session, as one service group: graceful shutdown stops both, the server first.
    /// - Parameters:
    ///   - upstream: The session.
    ///   - configuration: Where the server listens.
    ///   - logger: The group's logger.
    public static func makeServiceGroup(
        upstream: Session, configuration: ApplicationConfiguration, logger: Logger
    ) -> ServiceGroup {
        let app = Application(router: makeRouter(upstream: upstream), configuration: configuration, logger: logger)
        return ServiceGroup(
            configuration: .init(
                services: [
                    // The server shuts down first; the session keeps serving the requests it is finishing.
                    .init(service: app),
                    .init(service: upstream),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
    }
}

extension Response {
    /// A JSON response.
    static func json(_ value: some Encodable) throws -> Response {
        let body = try JSONEncoder().encode(value)
        return Response(
            status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
