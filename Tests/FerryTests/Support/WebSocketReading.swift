import Ferry

/// A task that reads `socket`'s messages until the end, for a test that cancels it: the reason of the error that
/// ended the reading, or `nil` when the messages simply ended.
func readingToTheEnd(_ socket: WebSocketTask) -> Task<FerryError.Reason?, Never> {
    Task {
        do throws(FerryError) {
            for try await _ in socket.messages {}
            return nil
        } catch {
            return error.reason
        }
    }
}
