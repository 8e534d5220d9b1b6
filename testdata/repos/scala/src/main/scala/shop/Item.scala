package shop

import shop.{Money => Cash}

/** Something with a price. */
trait Priced {
  /** The price of the whole thing. */
  def total(): Double

  /** A short name. */
  def label(): String

  /** One line about it. */
  def describe(): String = label() + " at " + total()

  /** Whether it costs less than `other`. */
  def cheaperThan(other: Priced): Boolean = total() < other.total()
}

/** A single item, priced through the alias `Cash`. */
case class Item(name: String, unit: Double) extends Priced {
  def total(): Double = Cash.price(unit, 1)

  def label(): String = name

  /** The same name as `Bundle.describe`, on another class. */
  override def describe(): String = "item " + label()
}

object Item {
  /** An item that costs nothing. */
  def free(name: String): Item = new Item(name, 0)
}

/** Several items sold as one. */
class Bundle(name: String, parts: List[Item]) extends Priced {
  def total(): Double = parts.map(_.unit).sum

  def label(): String = name

  /** How many parts, read without parentheses. */
  def size: Int = parts.length

  override def describe(): String = "bundle of " + count(size)

  /** Counts down, recursively. */
  def count(n: Int): Int = if (n <= 0) 0 else 1 + count(n - 1)
}
