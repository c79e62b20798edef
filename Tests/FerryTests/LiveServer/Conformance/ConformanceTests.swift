import Testing

/// Ferry's conformance cases (RELIABILITY.md, "Conformance"), on every transport, grouped by topic in the nested
/// suites. They run one at a time, so that they add little load beside the suites that use short timeouts: run all
/// at once on a busy two-core machine, they made those time out more often.
@Suite("Conformance", .serialized)
struct ConformanceTests {}
