import Ferry
import FerryTestServer
import Foundation

/// `ferry demo`: a short tour of Ferry against an embedded loopback server, so it works with no network.
struct DemoCommand {
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
            Output.error(error)
            return 1
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

        step("3. An error: a 404 fails validation with a typed FerryError")
        do {
            _ = try await session.get("status/404").serializingData()
            print("unexpected success")
            failures += 1
        } catch {
            print("caught FerryError: reason \(error.reason), status \(error.statusCode.map(String.init) ?? "none")")
        }

        step("4. Redirects followed by Ferry's own policy: session.get(\"redirect/3\")")
        let redirected = await session.get("redirect/3").response
        print("ended at \(redirected.response?.url.path ?? "?") after \(redirected.metrics.redirectCount) redirects")
        if redirected.error != nil { failures += 1 }

        step("5. An exact idle timeout: 0.3 s against an endpoint that waits 2 s")
        var slow = Request(url: server.url("/delay/2"))
        slow.idleTimeout = .milliseconds(300)
        let timedOut = await session.request(slow).response
        print("\(timedOut.error.map { "\($0.reason)" } ?? "no error") after \(timedOut.timeline.requestDuration)")

        step("6. The timeline Ferry measured for the JSON request")
        let measured = await session.get("json").response
        print(measured.timeline)
        print("\(measured.metrics.bytesReceived) bytes received")

        await session.shutdown()
        print(failures == 0 ? "\nDemo finished: everything worked." : "\nDemo finished with \(failures) failure(s).")
        return failures == 0 ? 0 : 1
    }

    private func step(_ title: String) {
        print("\n\u{2500}\u{2500} \(title)")
    }

    private func report(_ error: any Error) -> Int {
        Output.error(error)
        return 1
    }
}
