package com.example.shop

/** Cents, as stored. */
typealias Cents = Long

/** The tax rate applied by [price]. */
const val TAX = 0.2

/** An amount of money in cents. */
class Money(val cents: Cents) {
    /** The sum of this and [other]. */
    fun plus(other: Money): Money = Money(cents + other.cents)

    /** The amount written out, e.g. `1.50`. */
    fun describe(): String = "%d.%02d".format(cents / 100, cents % 100)
}

/** Twice the amount: an extension, called as a method of Money. */
fun Money.doubled(): Money = this.plus(this)

/** The price of [qty] units of [amount] with tax. */
fun price(amount: Double, qty: Int): Double = amount * qty * (1 + TAX)
