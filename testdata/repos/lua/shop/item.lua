local cash = require("shop.money")

-- Something for sale.
local Item = {}
Item.__index = Item

-- A new item.
function Item.new(name, unit)
  return setmetatable({ name = name, unit = unit }, Item)
end

-- One line about the item.
function Item:describe()
  return string.format("%s at %.2f", self.name, self:total())
end

-- The price with tax, through the alias cash.
function Item:total()
  return cash.price(self.unit, 1)
end

-- Several items sold as one.
local Bundle = {}
Bundle.__index = Bundle

function Bundle.new(name, parts)
  return setmetatable({ name = name, parts = parts }, Bundle)
end

-- The same name as Item:describe, on another table.
function Bundle:describe()
  return "bundle of " .. self:count(#self.parts)
end

-- Counts down, recursively.
function Bundle:count(n)
  if n <= 0 then
    return 0
  end
  return 1 + self:count(n - 1)
end

return { Item = Item, Bundle = Bundle }
