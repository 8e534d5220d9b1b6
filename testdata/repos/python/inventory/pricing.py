"""Price calculations for items and whole shelves."""

from inventory.models import Item, Shelf

VAT_RATE = 0.2


def line_total(item: Item) -> float:
    """Price of all units of ``item`` before tax."""
    return item.price * item.quantity


def shelf_total(shelf: Shelf, with_vat: bool = True) -> float:
    """Sum of the line totals on ``shelf``, optionally with VAT."""
    net = sum(line_total(item) for item in shelf.items)
    return apply_vat(net) if with_vat else net


def apply_vat(amount: float) -> float:
    """Add VAT to a net amount, rounded to cents."""
    return round(amount * (1 + VAT_RATE), 2)


def format_line(item: Item) -> str:
    """Format an item's line total as ``sku: 12.50``."""
    return f"{item.sku}: {line_total(item):.2f}"
