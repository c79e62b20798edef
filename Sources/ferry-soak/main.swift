import Ferry
import FerryTestServer
import Foundation

// ferry-soak: many requests, random cancellations and server faults through one Session against the in-process test
// server on loopback; prints throughput, errors by reason, RSS, open file descriptors and threads at start and end,
// and fails (exit 1) on a leaked descriptor or when the run outlives its time limit (a hang).
//
//   ferry-soak [--transport urlsession|ahc] [--requests 100000] [--width 64] [--cancellations 10000]
//              [--faults 1000] [--seconds 600]
//
// Every phase stops issuing work once --seconds have passed (a bounded run); the watchdog fails the run at twice that.

let options = SoakOptions(CommandLine.arguments.dropFirst())
let server = try TestServer()
let session = Session(
    configuration: .init(
        baseURL: server.baseURL, idleTimeout: .seconds(2), totalTimeout: .seconds(10),
        transport: options.makeTransport()))
let watchdog = Thread {
    Thread.sleep(forTimeInterval: Double(options.seconds) * 2 + 30)
    FileHandle.standardError.write(Data("ferry-soak: HANG: still running after \(options.seconds * 2 + 30) s\n".utf8))
    exit(1)
}
watchdog.start()

let report = await Soak(session: session, options: options).run()
await session.shutdown()
server.shutdown()
let end = ProcessSnapshot()
print(report.summary(end: end))
let leaked = end.openFiles - report.start.openFiles
if leaked > 2 {
    FileHandle.standardError.write(Data("ferry-soak: LEAK: \(leaked) more open file descriptors than at start\n".utf8))
    exit(1)
}
exit(report.failures > 0 ? 1 : 0)
