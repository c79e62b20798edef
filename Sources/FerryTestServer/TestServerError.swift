/// The error a ``TestServer`` throws when it cannot start listening.
///
/// Compare with the static members (`error == .nonLoopbackHost("10.0.0.1")`); new reasons can be added without
/// breaking callers.
public struct TestServerError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case nonLoopbackHost(String)
        case invalidPort(Int)
        case systemCallFailed(String, Int32)
    }

    private let code: Code

    private init(_ code: Code) {
        self.code = code
    }

    /// The host is not a loopback address; the server listens on `127.0.0.0/8` or `::1` only.
    /// - Parameter host: the host that was refused.
    /// - Returns: the error.
    public static func nonLoopbackHost(_ host: String) -> TestServerError {
        TestServerError(.nonLoopbackHost(host))
    }

    /// The port is outside `0...65535`.
    /// - Parameter port: the port that was refused.
    /// - Returns: the error.
    public static func invalidPort(_ port: Int) -> TestServerError {
        TestServerError(.invalidPort(port))
    }

    /// A system call failed while the server was starting (for example `bind` with `EADDRINUSE`).
    /// - Parameters:
    ///   - call: the name of the call, such as `"bind"`.
    ///   - errno: the `errno` value the call left behind.
    /// - Returns: the error.
    public static func systemCallFailed(_ call: String, errno: Int32) -> TestServerError {
        TestServerError(.systemCallFailed(call, errno))
    }

    /// The `errno` value behind the error, when a system call failed.
    public var errno: Int32? {
        if case .systemCallFailed(_, let code) = code { return code }
        return nil
    }

    /// A human-readable explanation.
    public var description: String {
        switch code {
        case .nonLoopbackHost(let host):
            "TestServer listens on loopback only; refused host \"\(host)\""
        case .invalidPort(let port):
            "TestServer port must be in 0...65535; got \(port)"
        case .systemCallFailed(let call, let code):
            "TestServer could not start: \(call) failed with errno \(code)"
        }
    }

    init(_ error: SystemCallError) {
        self.init(.systemCallFailed(error.call, error.code))
    }
}
