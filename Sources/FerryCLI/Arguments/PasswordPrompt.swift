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
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        // Echo goes off before the prompt appears, and nothing typed is discarded (TCSANOW, not TCSAFLUSH).
        var saved = termios()
        let canHide = tcgetattr(STDIN_FILENO, &saved) == 0
        if canHide {
            var hidden = saved
            hidden.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &hidden)
        }
        FileHandle.standardError.write(Data("password for \(user): ".utf8))
        let typed = readLine(strippingNewline: true)
        if canHide { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        FileHandle.standardError.write(Data("\n".utf8))
        return typed
    }
}
