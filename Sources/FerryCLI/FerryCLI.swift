import Ferry
import Foundation

/// The `ferry` command: an HTTP client on the command line, built on Ferry.
public enum FerryCLI {
    /// Runs `ferry` with these arguments.
    /// - Parameter arguments: The arguments, without the program name.
    /// - Returns: The exit status, httpie's: 0 success, 1 failure, 2 usage or timeout, 3–5 status classes with
    ///   `--check-status`, 6 too many redirects, 130 `ferry ws` interrupted with Ctrl-C.
    public static func run(_ arguments: [String]) async -> Int32 {
        let options: Options
        do {
            options = try CommandLineParser.parse(arguments)
        } catch {
            let console = Console.standard(usesColor: true)
            let layout = Layout(options: Options(), console: console)
            layout.printError(error.description)
            console.err.write(Usage.synopsis + "\nRun `ferry --help` for the items, options and exit codes.\n")
            return ExitCode.usage.rawValue
        }
        let console = Console.standard(usesColor: options.usesColor)
        if options.showsHelp {
            let text = options.isDemo ? Usage.demoText : options.isWebSocket ? Usage.webSocketText : Usage.text
            console.out.write(text + "\n")
            return ExitCode.success.rawValue
        }
        if options.showsVersion {
            console.out.write("ferry \(Session.version)\n")
            return ExitCode.success.rawValue
        }
        if let shell = options.completions {
            console.out.write(CompletionScript.script(for: shell))
            return ExitCode.success.rawValue
        }
        if options.isDemo { return await DemoCommand(console: console).run() }
        let layout = Layout(options: options, console: console)
        var plan: RequestPlan
        var session: SessionFile?
        do {
            if let name = options.session {
                session = try SessionFile(
                    path: SessionFile.location(
                        for: name, url: try URLShorthand.expand(options.url, webSocket: options.isWebSocket)))
            }
            plan = try RequestPlan(
                options: options, sessionHeaders: session?.headers ?? [:],
                password: { user in PasswordPrompt.ask(for: user) })
        } catch {
            layout.printError(error.description)
            return ExitCode.usage.rawValue
        }
        if options.printsCurl {
            console.out.write(CurlCommand.make(plan, options: options) + "\n")
            return ExitCode.success.rawValue
        }
        var cache: HTTPCache?
        if let directory = options.cacheDirectory {
            do {
                cache = HTTPCache(storage: try DiskCacheStorage(directory: URL(fileURLWithPath: directory)))
            } catch {
                layout.printError("--cache \(directory): \(error.localizedDescription)")
                return ExitCode.usage.rawValue
            }
        }
        let transport: (any Transport)?
        do {
            transport = try TransportPlan.transport(for: options)
        } catch {
            layout.printError((error as? UsageError)?.description ?? error.localizedDescription)
            if let hint = TransportPlan.hint(for: error) { layout.note(hint) }
            return ExitCode.usage.rawValue
        }
        if let socket = options.unixSocket { plan.url = TransportPlan.url(plan.url, onSocket: socket) }
        let invocation = Invocation(
            options: options, plan: plan, layout: layout, cache: cache, cookieJar: session?.makeJar(),
            transport: transport)
        if options.isOffline {
            invocation.printOffline()
            return ExitCode.success.rawValue
        }
        let status = await invocation.run()
        if let session, let jar = invocation.cookieJar, !options.sessionIsReadOnly {
            do {
                try session.save(headers: plan.sessionHeaders(for: options), jar: jar)
            } catch {
                layout.printError("--session \(session.path.path) could not be written: \(error.localizedDescription)")
                return status == .success ? ExitCode.failure.rawValue : status.rawValue
            }
        }
        return status.rawValue
    }
}
