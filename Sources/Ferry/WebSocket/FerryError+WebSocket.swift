extension FerryError {
    /// The error every WebSocket fails with, at once, in a build without the `WebSocket` trait.
    /// - Parameter request: The upgrade request, when it could be built.
    /// - Returns: An ``FerryError/Reason/unsupportedSetting(setting:remedy:)`` error that names the trait.
    static func webSocketTraitMissing(request: Request?) -> FerryError {
        FerryError(
            .unsupportedSetting(
                setting: "WebSockets: Ferry was built without its WebSocket package trait",
                remedy: "Build Ferry with the WebSocket trait: `swift build --traits WebSocket`, or "
                    + "`.package(url: …, traits: [\"WebSocket\"])` in the package that depends on Ferry."),
            request: request)
    }
}
