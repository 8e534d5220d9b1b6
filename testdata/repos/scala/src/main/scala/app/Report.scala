package app

import shop.{Bundle, Item}
import shop.Money.price
import shop.Money.{withTax => taxed}
import fmt.Text._

/** Prints a small report. */
object Report {
  /** A local `describe`: the bare call below is this one, not `Item.describe`. */
  def describe(x: Any): String = pad(x.toString, 12)

  /** Factorial, recursively. */
  def fact(n: Int): Int = if (n <= 1) 1 else n * fact(n - 1)

  def main(args: Array[String]): Unit = {
    val item = Item("pen", 2.0)
    val kit = new Bundle("kit", List(item, Item.free("cap")))
    println(describe(item))
    println(item.describe())
    println(kit.describe())
    println("parts: " + kit.size)
    println(item cheaperThan kit)
    println(price(1.0, 3))
    println(taxed(fact(3).toDouble))
  }
}
