# Money helpers shared by the catalog and the report.
module Shop
  # Prices are kept in cents.
  module Money
    # The VAT rate applied to every price.
    RATE = 0.2

    # Formats cents as a price string.
    def self.price(cents)
      Kernel.format("%.2f", cents / 100.0)
    end

    # Adds VAT, rounded to the cent.
    def self.with_vat(cents)
      self.price((cents * (1 + RATE)).round)
    end
  end
end
