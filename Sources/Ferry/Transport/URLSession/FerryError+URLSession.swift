import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FerryError {
    /// Maps the error a URLSession task ended with before its head arrived.
    ///
    /// FoundationNetworking refuses every IPv6 literal host before libcurl connects (swift-corelibs-foundation
    /// 6.3.1, `_EasyHandle.set(url:)`): it compares `URL.host`, which Foundation gives without brackets (`::1`),
    /// with the host libcurl parses from the same URL, which keeps them (`[::1]`), and fails the task with a bare
    /// `URLError(.badURL)` when they differ. No spelling of the URL passes that check while still naming the
    /// address, so this says what happened instead of calling the URL invalid. Only the failure path pays for it.
    /// - Parameters:
    ///   - error: The task's error.
    ///   - url: The URL of the task's request.
    static func mapping(urlSessionError error: any Error, url: URL?) -> FerryError {
        #if canImport(FoundationNetworking)
        if let urlError = error as? URLError, urlError.code == .badURL,
            let host = (urlError.failingURL ?? url)?.host, host.contains(":")
        {
            // A host with a colon is an IPv6 literal: a registered name cannot hold one.
            return FerryError(.transport(.unsupportedHost), underlyingError: error)
        }
        #endif
        return mapping(error)
    }
}
