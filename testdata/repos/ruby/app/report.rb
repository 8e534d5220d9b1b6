require_relative "../lib/shop/item"

# Top-level helper; Report#line below shadows it inside the class.
def line(text)
  "* #{text}"
end

# Prints a report of items.
class Report
  def initialize(items)
    @items = items
  end

  # The class's own line, used instead of the top-level one.
  def line(item)
    "- #{item.name}"
  end

  def render
    @items.map { |i| line(i) }.join("\n")
  end

  # Builds the sample report.
  def self.sample
    hammer = Shop::Item.new("hammer", 1250)
    kit = Shop::Bundle.new("kit", [hammer, Shop::Item.new("nails", 300)])
    puts hammer.describe
    puts kit.describe
    puts kit.total
    Report.new([hammer, kit]).render
  end
end

# Factorial, the fixture's plain recursion.
def fact(n)
  n <= 1 ? 1 : n * fact(n - 1)
end

puts line(Report.sample)
puts Shop::Money.price(fact(5))
