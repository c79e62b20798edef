import Ferry
import Foundation

/// The transport `--proxy`, `--unix-socket`, `--no-verify`, `--cacert`, `--cert`, `--key` and `--pin` ask for.
///
/// Built with the `AsyncHTTPClient` trait (`swift build --traits AsyncHTTPClient --product ferry`), `ferry` runs such a
/// request on `AsyncHTTPClientTransport`, which honours all of them; otherwise on URLSession, which refuses what it
/// cannot do (on Linux: a given proxy, any TLS setting, a Unix socket) before anything is sent. Pins (`--pin`) only
/// URLSession on Apple platforms honours: AsyncHTTPClient has no certificate verification callback.
/// Without any of these flags the session's default transport runs the request: with the trait, on Linux, that is
/// AsyncHTTPClient too (`Session.Configuration.makeDefaultTransport()`).
enum TransportPlan {
    /// The transport for the options, or `nil` when none of its flags was given (the session's default).
    /// - Throws: ``FerryError`` when a flag's value cannot be used or the transport refuses it.
    static func transport(for options: Options) throws -> (any Transport)? {
        let proxy = try options.proxy.map { (url: String) throws(FerryError) in try ProxyPolicy(url: url) }
        let tls = try tlsPolicy(for: options)
        guard proxy != nil || tls != .default || options.unixSocket != nil else { return nil }
        #if AsyncHTTPClient
        return try AsyncHTTPClientTransport(proxy: proxy ?? .environment, tls: tls)
        #else
        if options.unixSocket != nil {
            throw FerryError(
                .unsupportedSetting(
                    setting: "--unix-socket on URLSession",
                    remedy: "URLSession reaches hosts over TCP only."))
        }
        return try URLSessionTransport(proxy: proxy ?? .environment, tls: tls)
        #endif
    }

    /// What the TLS flags ask for.
    static func tlsPolicy(for options: Options) throws -> TLSPolicy {
        var policy = TLSPolicy.default
        if let file = options.caCertificate {
            policy.trustRoots = .only([try TLSCertificate(file: URL(fileURLWithPath: file))])
        }
        if options.skipsVerification { policy.serverVerification = .dangerouslyAcceptingAnyCertificate }
        for pin in options.pins {
            do {
                policy.pinnedPublicKeys.insert(try TLSPolicy.PublicKeyPin(pin))
            } catch {
                throw UsageError("--pin takes sha256/ and the base64 of a 32-byte SHA-256, not \"\(pin)\"")
            }
        }
        if let certificate = options.clientCertificate {
            let chain = try read(certificate, for: "--cert")
            let key = try options.clientKey.map { try read($0, for: "--key") } ?? chain
            policy.clientIdentity = .pem(certificateChain: chain, privateKey: key)
        } else if options.clientKey != nil {
            throw UsageError("--key goes with --cert: give the client certificate too")
        }
        return policy
    }

    /// The URL of the same request on the server listening on `socket`: `http+unix://` with the socket's path as
    /// the host, and the URL's path and query.
    static func url(_ url: URL, onSocket socket: String) -> URL {
        let host = socket.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? socket
        let scheme = url.scheme?.lowercased() == "https" ? "https+unix" : "http+unix"
        let path = url.path(percentEncoded: true)
        let query = url.query(percentEncoded: true).map { "?" + $0 } ?? ""
        return URL(string: "\(scheme)://\(host)\(path.isEmpty ? "/" : path)\(query)") ?? url
    }

    /// What to do about an error the flags caused, said in terms of building `ferry`.
    static func hint(for error: any Error) -> String? {
        guard let error = error as? FerryError, case .unsupportedSetting = error.reason else { return nil }
        #if AsyncHTTPClient
        return nil
        #else
        return "this ferry runs on URLSession; build it with `swift build -c release --traits AsyncHTTPClient "
            + "--product ferry` to send through AsyncHTTPClient, which honours --proxy, --unix-socket and the TLS flags"
        #endif
    }

    private static func read(_ path: String, for option: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw UsageError("\(option) \(path): the file cannot be read")
        }
    }
}
