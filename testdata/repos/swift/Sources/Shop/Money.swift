/// An amount of money, in cents.
public struct Money {
    /// Nothing at all.
    public static let zero = Money(cents: 0)

    public let cents: Int

    /// Makes an amount from cents.
    public init(cents: Int) {
        self.cents = cents
    }

    /// This amount plus another.
    public func adding(_ other: Money) -> Money {
        return Money(cents: cents + other.cents)
    }

    /// Reads "2.50" as 250 cents, or nil.
    public static func parse(_ text: String) -> Money? {
        guard let value = Double(text) else {
            return nil
        }
        return Money(cents: Int(value * 100))
    }

    /// One line about the amount.
    public func describe() -> String {
        return String(cents / 100) + "." + String(cents % 100)
    }
}

extension Money {
    /// Twice this amount, through the struct's own `adding`.
    @discardableResult
    public func doubled() -> Money {
        return adding(self)
    }
}

/// Another name for Money.
public typealias Cash = Money

/// The price of a quantity, tax included.
public func price(
    _ unit: Money,
    quantity: Int
) -> Money {
    var total: Money = .zero
    for _ in 0..<quantity {
        total = total.adding(unit)
    }
    return withTax(total)
}

/// Adds a fifth.
func withTax(_ amount: Money) -> Money {
    return Money(cents: amount.cents + amount.cents / 5)
}
