import Ferry
import FerryTestServer
import Foundation

/// `ferry demo`: a short tour of Ferry against an embedded loopback server, so it works with no network.
struct DemoCommand {
    let console: Console

    struct Profile: Decodable {
        var id: Int
        var name: String
        var email: String
    }

    func run() async -> Int32 {
        let server: TestServer
        do {
            server = try TestServer()
        } catch {
            console.err.write("ferry: cannot start the demo server: \(error)\n")
            return ExitCode.failure.rawValue
        }
        defer { server.shutdown() }
        let session = Session(configuration: .init(baseURL: server.baseURL))
        print("Ferry \(Session.version) demo — embedded server at \(server.baseURL.absoluteString)\n")
        var failures = 0

        step("1. JSON: try await session.get(\"json\").serializingJSON()")
        do {
            let json = try await session.get("json").serializingJSON()
            print(String(decoding: json.encoded(pretty: true), as: UTF8.self))
        } catch {
            failures += report(error)
        }

        step("2. A decoded type: try await session.get(\"json/user\").serializingDecodable(Profile.self)")
        do {
            let profile = try await session.get("json/user").serializingDecodable(Profile.self)
            print("Profile(id: \(profile.id), name: \"\(profile.name)\", email: \"\(profile.email)\")")
        } catch {
            failures += report(error)
        }

        step("3. An error: a 404 fails validation; print(error.localizedDescription)")
        do {
            _ = try await session.get("status/404").serializingData()
            print("unexpected success")
            failures += 1
        } catch {
            // What a user reads, then what a program switches on.
            print(error.localizedDescription)
            if case .unacceptableStatus(let code) = error.reason {
                print("(to a program: error.reason == .unacceptableStatus(\(code)))")
            }
        }

        step("4. Redirects followed by Ferry's own policy: session.get(\"redirect/3\")")
        let redirected = await session.get("redirect/3").response
        print("ended at \(redirected.response?.url.path ?? "?") after \(redirected.metrics.redirectCount) redirects")
        if redirected.error != nil { failures += 1 }

        step("5. An exact idle timeout: 0.3 s against an endpoint that waits 2 s")
        var slow = Request(url: server.url("/delay/2"))
        slow.idleTimeout = .milliseconds(300)
        let timedOut = await session.request(slow).response
        print(timedOut.error?.localizedDescription ?? "no error")
        print("(measured: \(Units.duration(timedOut.timeline.requestDuration)))")
        if timedOut.error?.isTimeout != true { failures += 1 }

        step("6. The timeline Ferry measured for the JSON request")
        let measured = await session.get("json").response
        print(measured.timeline)
        print("\(measured.metrics.bytesReceived) bytes received")

        step("7. A download to disk with a progress bar: session.download(\"drip…\", to: file)")
        failures += await download(from: server, with: session)

        step("8. Server-sent events as they arrive: for try await event in session.stream(\"sse\").serverSentEvents")
        print("(an event's data lines are printed joined with \" / \")")
        do {
            for try await event in session.stream("sse?count=4&interval=0.15").serverSentEvents {
                print(
                    "event \(event.event) #\(event.id ?? "-"): \(event.data.replacingOccurrences(of: "\n", with: " / "))"
                )
            }
        } catch {
            failures += report(error)
        }

        await session.shutdown()
        print(failures == 0 ? "\nDemo finished: everything worked." : "\nDemo finished with \(failures) failure(s).")
        return failures == 0 ? 0 : 1
    }

    private func step(_ title: String) {
        print("\n\u{2500}\u{2500} \(title)")
    }

    private func report(_ error: any Error) -> Int {
        console.err.write("ferry: \(error.localizedDescription)\n")
        return 1
    }

    /// 400 kB paced over 1.5 s, so that the bar has something to show; the file is deleted afterwards.
    private func download(from server: TestServer, with session: Session) async -> Int {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ferry-demo-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: file) }
        let task = session.download("drip?numbytes=400000&duration=1.5", to: file)
        let started = ContinuousClock.now
        var display = ProgressDisplay(stream: console.err)
        async let finished = task.response
        for await progress in task.downloadProgress { display.update(progress) }
        let response = await finished
        display.finish()
        if let error = response.error { return report(error) }
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64) ?? nil
        print(ProgressBar.summary(bytes: size ?? 0, file: file.lastPathComponent, elapsed: started.duration(to: .now)))
        return 0
    }
}
