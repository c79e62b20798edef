import Testing

/// Ferry's conformance cases (RELIABILITY.md, "Conformance"), on every transport, grouped by topic in the nested
/// suites. They run one at a time: run all at once, they add enough load to stall the URLSession requests of
/// suites beside them that use short idle timeouts on a busy two-core machine.
@Suite("Conformance", .serialized)
struct ConformanceTests {}
