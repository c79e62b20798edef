import FerryCLI
import Foundation

// ferry: an HTTP client on the command line, built on Ferry. Everything lives in FerryCLI; `ferry --help` says
// what it does.
exit(await FerryCLI.run(Array(CommandLine.arguments.dropFirst())))
