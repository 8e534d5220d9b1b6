-- Prices with tax.
local M = {}

M.RATE = 0.2

-- The price of a quantity, tax included.
function M.price(unit, qty)
  return M.with_vat(unit * qty)
end

-- Adds VAT at RATE.
function M.with_vat(amount)
  return math.floor(amount * (1 + M.RATE) * 100 + 0.5) / 100
end

return M
