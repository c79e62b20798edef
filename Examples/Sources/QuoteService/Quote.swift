import Foundation

/// What the upstream price service answers for a symbol.
public struct Price: Codable, Sendable, Equatable {
    /// The ticker symbol.
    public var symbol: String
    /// The price, in cents.
    public var cents: Int

    /// Creates a price.
    public init(symbol: String, cents: Int) {
        self.symbol = symbol
        self.cents = cents
    }
}

/// What this service answers: the upstream price and where it came from.
public struct Quote: Codable, Sendable, Equatable {
    /// The ticker symbol.
    public var symbol: String
    /// The price, in dollars.
    public var dollars: Double
    /// The upstream URL the price came from.
    public var source: String

    /// Creates a quote.
    public init(symbol: String, dollars: Double, source: String) {
        self.symbol = symbol
        self.dollars = dollars
        self.source = source
    }
}
