import Ferry
import FerryTesting
import Foundation

/// One request through Ferry's whole pipeline (build, send, validate, serialize, respond) on the in-memory transport,
/// so that no socket or URLSession is counted; and, for reference, the same decoding or encoding without Ferry.
///
/// Shared by the `FerryPipeline` benchmark (allocations, with checked-in thresholds) and `PipelineInstructions`
/// (instructions under callgrind, for machines without hardware performance counters).
public enum PipelineScenario: String, CaseIterable, Sendable {
    case getData = "get-data"
    case getDecodable = "get-decodable"
    case postJSON = "post-json"
    /// `GET` of a fresh response in an in-memory ``HTTPCache``: a hit, the transport never asked.
    case getCached = "get-cached"
    case referenceDecoder = "reference-decoder"
    case referenceEncoder = "reference-encoder"

    /// The benchmark's name: no spaces or slashes. ordo-one/benchmark 1.38.1 writes threshold files with those
    /// replaced by `_` but looks them up under the name as it is, so `thresholds check` would never find them.
    public var name: String {
        switch self {
        case .getData: "GET-serializingData"
        case .getDecodable: "GET-serializingDecodable"
        case .postJSON: "POST-json-serializingData"
        case .getCached: "GET-memory-cache-hit"
        case .referenceDecoder: "reference-JSONDecoder-alone"
        case .referenceEncoder: "reference-JSONEncoder-alone"
        }
    }

    /// A session on an in-memory transport that answers at once (no child task: the count is the pipeline's):
    /// `GET` answers the small JSON document, `POST` answers 201. ``getCached`` gets a session with an in-memory
    /// cache, whose document is fresh for an hour: after the first request, every one is a hit.
    public func makeSession() -> Session {
        guard self == .getCached else {
            return Session(
                transport: InMemoryTransport(responding: { request in
                    request.method == .post ? createdResponse : itemsResponse
                }))
        }
        let transport = InMemoryTransport(responding: { _ in cacheableResponse })
        return Session(configuration: .init(transport: transport, cache: HTTPCache()))
    }

    /// Runs the scenario once; returns a byte or field count so that nothing can be optimized away.
    public func run(on session: Session) async throws -> Int {
        switch self {
        case .getData, .getCached:
            return try await session.get(url).serializingData().count
        case .getDecodable:
            return try await session.get(url).serializingDecodable(Small.self).tags.count
        case .postJSON:
            return try await session.post(url, body: .json(newItem)).serializingData().count
        case .referenceDecoder:
            return try JSONDecoder().decode(Small.self, from: smallJSON).tags.count
        case .referenceEncoder:
            return try JSONEncoder().encode(newItem).count
        }
    }
}

/// The body nginx serves as small.json in the throughput benchmarks.
let smallJSON = Data(
    #"{"id":1,"name":"Ferry","ok":true,"price":1.5,"tags":["a","b"],"nested":{"n":null,"list":[1,2,3]}}"#.utf8)
let created = Data(#"{"id":2}"#.utf8)
/// The stubs are made once: the handler hands them out, so the count is Ferry's, not the stub's construction.
let itemsResponse = StubResponse(headers: ["Content-Type": "application/json"], body: smallJSON)
let cacheableResponse = StubResponse(
    headers: ["Content-Type": "application/json", "Cache-Control": "max-age=3600"], body: smallJSON)
let createdResponse = StubResponse(statusCode: 201, headers: ["Content-Type": "application/json"], body: created)
let url = URL(string: "http://ferry.invalid/items")!
let newItem = NewItem(name: "Ferry", price: 1.5, tags: ["a", "b"])

struct Small: Codable, Sendable {
    let id: Int
    let name: String
    let ok: Bool
    let price: Double
    let tags: [String]
}

struct NewItem: Codable, Sendable {
    let name: String
    let price: Double
    let tags: [String]
}
