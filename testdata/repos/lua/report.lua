local shop = require("shop.item")
local money = require "shop.money"

-- A top-level describe; the methods of the same name are not this one.
local function describe(x)
  return "* " .. tostring(x)
end

-- Factorial, recursively.
local function fact(n)
  if n <= 1 then
    return 1
  end
  return n * fact(n - 1)
end

-- Builds and prints a sample report.
function sample()
  local pen = shop.Item.new("pen", 1.5)
  local kit = shop.Bundle.new("kit", { pen })
  print(describe(pen:describe()))
  print(kit:describe())
  print(fact(5), money.price(2.0, 3))
end

sample()
