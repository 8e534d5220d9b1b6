import Foundation
import Shop

/// A top-level describe; the methods of the same name are not this one.
func describe(_ text: String) -> String {
    return "* " + text
}

/// Factorial, recursively.
func fact(_ n: Int) -> Int {
    if n <= 1 {
        return 1
    }
    return n * fact(n - 1)
}

/// Builds and prints a sample report.
func sample() {
    let pen = Item(name: "pen", unit: Money(cents: 150))
    let kit = Bundle(name: "kit", parts: [pen])
    let cash: Cash = Money.parse("2.50") ?? .zero
    print(describe(pen.describe()))
    print(kit.describe())
    print(line(kit))
    print(fact(5), Shop.price(cash, quantity: 3).describe())
    print(cash.doubled().describe())
}

sample()
