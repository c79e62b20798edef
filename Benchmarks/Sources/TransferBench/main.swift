import Ferry
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// One transfer scenario per process, so that /usr/bin/time's peak RSS belongs to that scenario alone.
//   TransferBench baseline <url>
//   TransferBench download-disk <url> <destination> [progress]
//   TransferBench upload-file <url> <file> [progress]
//   TransferBench ferry-memory <url>
//   TransferBench raw-memory <url>
// Prints: scenario, bytes, seconds, MB/s (10^6 bytes).

let arguments = CommandLine.arguments
guard arguments.count >= 3, let url = URL(string: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: TransferBench <scenario> <url> [path] [progress]\n".utf8))
    exit(64)
}
let scenario = arguments[1]
let path = arguments.count > 3 ? arguments[3] : nil
let followsProgress = arguments.last == "progress"
let session = Session(configuration: .init(idleTimeout: .seconds(60)))
let start = ContinuousClock.now
var bytes: Int64 = 0

func follow(_ progress: ProgressStream) -> Task<Int, Never> {
    Task {
        var snapshots = 0
        for await _ in progress { snapshots += 1 }
        return snapshots
    }
}

do {
    switch scenario {
    case "baseline":
        bytes = Int64(try await session.get(url).serializingData().count)
    case "download-disk":
        let destination = URL(fileURLWithPath: path ?? "/tmp/ferry-bench.bin")
        try? FileManager.default.removeItem(at: destination)
        let download = session.download(url, to: destination)
        let follower = followsProgress ? follow(download.downloadProgress) : nil
        let file = try await download.value
        _ = await follower?.value
        bytes = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        try FileManager.default.removeItem(at: file)
    case "upload-file":
        let file = URL(fileURLWithPath: path ?? "/tmp/ferry-bench.bin")
        let task = session.post(url, body: .file(file))
        let follower = followsProgress ? follow(task.uploadProgress) : nil
        _ = try await task.serializingData()
        _ = await follower?.value
        bytes = await task.response.metrics.bytesSent
    case "ferry-memory":
        bytes = Int64(try await session.get(url).serializingData().count)
    case "raw-memory":
        let data: Data = try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: url) { data, _, error in
                if let data { continuation.resume(returning: data) } else {
                    continuation.resume(throwing: error ?? URLError(.unknown))
                }
            }.resume()
        }
        bytes = Int64(data.count)
    default:
        FileHandle.standardError.write(Data("unknown scenario \(scenario)\n".utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("\(scenario) failed: \(error)\n".utf8))
    exit(1)
}
let elapsed = start.duration(to: .now)
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
print("\(scenario) \(bytes) \(String(format: "%.3f", seconds)) \(String(format: "%.1f", Double(bytes) / seconds / 1e6))")
