/// Something that describes itself in one line.
public protocol Describable {
    func describe() -> String
}

/// Something for sale.
open class Item: Describable {
    public let name: String
    public let unit: Money

    /// Makes an item.
    public init(name: String, unit: Money) {
        self.name = name
        self.unit = unit
    }

    /// One line about the item.
    open func describe() -> String {
        let cost = total()
        return name + " at " + cost.describe()
    }

    /// The price of one, through the module's `price`.
    public func total() -> Money {
        return price(unit, quantity: 1)
    }
}

/// Several items sold as one.
public final class Bundle: Item {
    let parts: [Item]

    /// Makes a bundle; its unit price is nothing.
    public init(name: String, parts: [Item]) {
        self.parts = parts
        super.init(name: name, unit: Money.zero)
    }

    /// The same name as Item.describe, on another class.
    public override func describe() -> String {
        let lines = parts.map { $0.describe() }
        return "bundle of \(count(parts.count)): " + lines.joined(separator: ", ")
    }

    /// Counts down, recursively.
    func count(_ n: Int) -> Int {
        if n <= 0 {
            return 0
        }
        return 1 + count(n - 1)
    }
}
