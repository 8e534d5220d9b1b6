package shop

/** Money helpers: prices with tax. */
object Money {
  /** The tax rate. */
  val Rate = 0.2

  /** The price of `qty` units with tax. */
  def price(
      amount: Double,
      qty: Int
  ): Double =
    withTax(amount * qty)

  /** `amount` with tax, rounded down. */
  def withTax(amount: Double): Double = math.floor(amount * (1 + Rate))
}

/** A till, which reads `Money`'s members through a relative import. */
class Till {
  import Money.withTax

  /** The price of one, with tax. */
  def ring(amount: Double): Double = withTax(amount)
}
