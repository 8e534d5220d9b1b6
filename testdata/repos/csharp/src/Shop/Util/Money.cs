using System;

namespace Shop.Util
{
    /// <summary>Prices with tax.</summary>
    public static class Money
    {
        public const double Rate = 0.2;

        /// <summary>The price of a quantity, tax included.</summary>
        public static double Price(double unit, int qty)
        {
            return WithVat(unit * qty);
        }

        // Adds VAT at Rate.
        public static double WithVat(double amount)
        {
            return Math.Round(amount * (1 + Rate), 2);
        }
    }
}
