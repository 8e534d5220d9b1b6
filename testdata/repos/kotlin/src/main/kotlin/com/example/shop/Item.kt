package com.example.shop

/** Anything with a total. */
interface Priced {
    fun total(): Money
}

/** How big an item is. */
enum class Size {
    SMALL,
    LARGE;

    /** The size in lower case. */
    fun label(): String = name.lowercase()
}

/** Something for sale. */
open class Item(val name: String, val unit: Money) : Priced {
    /** One line about the item. */
    open fun describe(): String = name + " at " + unit.describe()

    /** The unit price doubled, through the extension on Money. */
    override fun total(): Money = unit.doubled()

    /** The gross price of a few, through `price` of the same package (no import). */
    fun gross(qty: Int): Double = price(unit.cents / 100.0, qty)

    companion object {
        /** A new item from a price in cents. */
        fun of(name: String, cents: Long): Item = Item(name, Money(cents))
    }
}

/** Several items sold as one. */
class Bundle(
    name: String,
    private val parts: List<Item>,
) : Item(name, Money(0)) {
    /** The same name as Item.describe, on another class. */
    override fun describe(): String = "bundle of " + count(parts.size) + ", " + super.describe()

    /** Counts down, recursively. */
    fun count(n: Int): Int = if (n <= 0) 0 else 1 + count(n - 1)
}
