import Foundation

/// The one credential of an ``AuthenticationInterceptor`` and its refreshes, coalesced: however many requests need
/// a new credential at the same time, one refresh runs and all of them wait for it.
///
/// A refresh runs in a task of its own, so that cancelling the request that started it does not fail the others.
/// A credential the server rejected is never sent again: the next attempt refreshes first. When a refresh fails,
/// every request waiting for it fails with its error, and so does every request that was sent with the rejected
/// credential and is rejected later; a new attempt tries one new refresh.
actor CredentialStore {
    typealias Refresh = @Sendable (_ current: AuthenticationCredential?) async throws -> AuthenticationCredential

    private var credential: AuthenticationCredential?
    private let refresher: Refresh
    /// The refresh that runs, if one does.
    private var refreshing: Task<AuthenticationCredential, any Error>?
    /// The `Authorization` value the server rejected, until a refresh replaces it.
    private var rejected: String?
    /// Why the last refresh failed, for requests rejected with ``rejected``.
    private var failure: (any Error)?
    /// How many refreshes started.
    private(set) var refreshCount = 0

    init(credential: AuthenticationCredential?, refresh: @escaping Refresh) {
        self.credential = credential
        self.refresher = refresh
    }

    /// The current credential, whatever its state.
    var current: AuthenticationCredential? { credential }

    /// The credential to send on a new attempt: refreshed first when there is none, it expires within `window`,
    /// or the server rejected it.
    func credentialForAttempt(now: Date, window: Duration) async throws -> AuthenticationCredential {
        if let refreshing { return try await refreshing.value }
        if let credential, credential.authorization != rejected, !credential.expires(within: window, of: now) {
            return credential
        }
        return try await refresh()
    }

    /// The credential to retry with after the server rejected `sent`: the current one when another request already
    /// replaced `sent`, else a new one.
    func credentialAfterRejection(of sent: String?) async throws -> AuthenticationCredential {
        if let refreshing { return try await refreshing.value }
        if let credential, credential.authorization != sent, credential.authorization != rejected {
            return credential
        }
        if let failure, sent == rejected { throw failure }
        rejected = sent
        return try await refresh()
    }

    private func refresh() async throws -> AuthenticationCredential {
        refreshCount += 1
        let task = Task { [refresher, credential] in try await refresher(credential) }
        refreshing = task
        do {
            let fresh = try await task.value
            credential = fresh
            rejected = nil
            failure = nil
            refreshing = nil
            return fresh
        } catch {
            failure = error
            refreshing = nil
            throw error
        }
    }
}
