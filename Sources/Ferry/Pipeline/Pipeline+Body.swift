import Foundation

extension Pipeline {
    /// Reads the body of `opened` into `destination`, reporting progress and activity as it goes.
    /// - Returns: What the destination yields for the complete body.
    /// - Throws: ``FerryError``: the destination's refusal, the transport's failure, or the stop's reason. The body
    ///   is released unread on failure.
    func read<Destination: BodyDestination>(
        _ opened: Opened, into destination: inout Destination, controls: TransferControls, exchange: inout Exchange
    ) async throws(FerryError) -> Destination.Output {
        var received: Int64 = 0
        defer { exchange.bytesReceived = received }
        do {
            let base = try destination.begin(opened.head)
            let length = opened.head.headers.contains("Content-Encoding") ? nil : opened.head.expectedContentLength
            let total = length.map { $0 + base }
            let progress = controls.downloadProgress
            let timeout = exchange.timeout
            progress.update(completed: base, total: total)
            try await opened.body.forEach { chunk in
                try destination.write(chunk)
                received += Int64(chunk.count)
                let now = ContinuousClock.now
                timeout?.noteActivity()
                progress.update(completed: base + received, total: total, at: now)
            }
            return try destination.finish()
        } catch {
            opened.body.cancel()
            throw failure(error, signal: controls.signal)
        }
    }

    /// Runs a request whose body is collected in memory.
    func runData(_ request: Request, controls: TransferControls) async -> TransferOutcome {
        var exchange = Exchange(start: .now)
        defer { exchange.timeout?.cancel() }
        let opened: Opened
        do {
            opened = try await open(request, controls: controls, exchange: &exchange)
        } catch {
            return exchange.outcome(body: nil, error: error)
        }
        var memory = MemoryDestination(limit: opened.prepared.maximumBodySize)
        do {
            let body = try await read(opened, into: &memory, controls: controls, exchange: &exchange)
            return exchange.outcome(body: body, error: nil)
        } catch {
            return exchange.outcome(body: memory.body, error: error)
        }
    }
}
