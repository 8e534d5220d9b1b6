require_relative "money"

module Shop
  # One thing for sale.
  class Item
    attr_reader :name, :cents

    def initialize(name, cents)
      @name = name
      @cents = cents
    end

    # A line describing the item.
    def describe
      "#{@name}: #{Money.price(total())}"
    end

    # The price with VAT.
    def total
      Money.with_vat(@cents)
    end
  end

  # Items sold together; a bundle may hold bundles.
  class Bundle < Item
    attr_reader :parts

    def initialize(name, parts)
      @name = name
      @cents = 0
      @parts = parts
    end

    # Same name as Item#describe, on another class.
    def describe
      "bundle #{@name} (#{count(@parts)} parts)"
    end

    # Counts the parts, descending into nested bundles.
    def count(parts)
      parts.sum { |p| p.is_a?(Bundle) ? count(p.parts) : 1 }
    end
  end
end
