/// The peers on URLSession, `alamofire` and `get`: built only when Package.swift saw FERRY_BENCH_PEERS (the folder
/// with their checkouts, which are never committed; README "Peers: Alamofire and Get").
func peerClient(_ kind: ClientKind, headers: [(String, String)]) throws -> any HTTPBenchClient {
    #if FERRY_BENCH_PEERS
    switch kind {
    case .alamofire: return AlamofireClient(headers: headers)
    case .get: return GetClient(headers: headers)
    default: preconditionFailure("\(kind.rawValue) is not a peer")
    }
    #else
    throw UsageError(
        "\(kind.rawValue) is built only with FERRY_BENCH_PEERS=<folder with Alamofire/ and Get/> "
            + "(Benchmarks/README.md, \"Peers: Alamofire and Get\")")
    #endif
}
