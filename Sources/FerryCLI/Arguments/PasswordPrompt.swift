import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks for the password of `-a USER` on the terminal, without echoing it.
enum PasswordPrompt {
    /// The password typed, or `nil` when standard input is not a terminal (a script cannot be asked).
    static func ask(for user: String) -> String? {
        guard isatty(STDIN_FILENO) == 1, let typed = getpass("password for \(user): ") else { return nil }
        return String(cString: typed)
    }
}
