import Ferry
import Foundation

/// The `ferry` command: an HTTP client on the command line, built on Ferry.
public enum FerryCLI {
    /// Runs `ferry` with these arguments.
    /// - Parameter arguments: The arguments, without the program name.
    /// - Returns: The exit status (0 success, 2 usage, 3 network, 4 timeout, 5 redirects, 13–15 status classes).
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
            console.out.write(Usage.text + "\n")
            return ExitCode.success.rawValue
        }
        if options.showsVersion {
            console.out.write("ferry \(Session.version)\n")
            return ExitCode.success.rawValue
        }
        if options.isDemo { return await DemoCommand(console: console).run() }
        let layout = Layout(options: options, console: console)
        let plan: RequestPlan
        do {
            plan = try RequestPlan(options: options)
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
        return await Invocation(options: options, plan: plan, layout: layout, cache: cache).run().rawValue
    }
}
