import Dispatch
import Foundation
import PipelineScenarios

// Runs one pipeline scenario a given number of times, for callgrind (run-pipeline-instructions.sh): the difference
// between two counts divided by the difference in requests is the instruction count of one request, without the
// process's start-up.
//   PipelineInstructions <scenario> <count>
//
// The main thread waits on a semaphore instead of running top-level async code: that would park it in
// libdispatch's dispatch_main(), whose rt_sigsuspend call valgrind 3.19 (Debian 12) crashes on. The task is
// detached: one inheriting the main actor would wait for the blocked main thread.
//
// With PIPELINE_FRESH_TASK=1 each request runs in a task of its own, as each iteration of the FerryPipeline benchmark
// does and each request a server handles: the task allocator's slabs are then malloc'd per request (heaptrack or
// memcheck see them), where one long task reuses its slabs.

let arguments = CommandLine.arguments
guard arguments.count == 3, let scenario = PipelineScenario(rawValue: arguments[1]), let count = Int(arguments[2])
else {
    let names = PipelineScenario.allCases.map(\.rawValue).joined(separator: "|")
    FileHandle.standardError.write(Data("usage: PipelineInstructions <\(names)> <count>\n".utf8))
    exit(64)
}
let freshTask = ProcessInfo.processInfo.environment["PIPELINE_FRESH_TASK"] == "1"
let done = DispatchSemaphore(value: 0)
Task.detached {
    do {
        let session = scenario.makeSession()
        var total = 0
        // The same warm-up for every count, so that one-time costs (first use of a type, caches) cancel out.
        for _ in 0..<20 { total &+= try await scenario.run(on: session) }
        for _ in 0..<count {
            if freshTask {
                total &+= try await Task { try await scenario.run(on: session) }.value
            } else {
                total &+= try await scenario.run(on: session)
            }
        }
        print(total)
    } catch {
        FileHandle.standardError.write(Data("\(scenario.rawValue) failed: \(error)\n".utf8))
        exit(1)
    }
    done.signal()
}
done.wait()
