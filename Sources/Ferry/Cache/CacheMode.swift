/// Whose responses a cache keeps (RFC 9111 §1).
///
/// The mode changes which directives apply: a shared cache honours `s-maxage` and `proxy-revalidate` and never keeps
/// a `private` response or, without the origin's leave, one to a request with `Authorization`.
public enum CacheMode: Sendable, Hashable {
    /// A cache for one user, such as an app's own: `private` responses may be kept, `s-maxage` is ignored.
    case `private`
    /// A cache whose responses may be served to more than one user, such as a proxy's or a server's cache of an
    /// upstream API.
    case shared
}
