import Foundation

// ferry: a command-line HTTP client built on Ferry.
//   ferry demo                      a tour against an embedded loopback server (no network needed)
//   ferry [options] <url>           send a request and print status, headers, body and timeline

let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
switch arguments.first {
case "demo":
    status = await DemoCommand().run()
case nil, "-h", "--help", "help":
    print(FetchCommand.usage)
    status = arguments.isEmpty ? 64 : 0
default:
    do {
        let command = try FetchCommand(arguments: arguments)
        status = await command.run()
    } catch {
        FileHandle.standardError.write(Data("ferry: \(error)\n\n\(FetchCommand.usage)\n".utf8))
        status = 64
    }
}
exit(status)
