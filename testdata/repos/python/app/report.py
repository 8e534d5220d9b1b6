"""Text reports over shelves and items."""

from inventory import pricing as pr
from inventory.models import Item, Shelf, shelf_weight


def format_line(item: Item) -> str:
    """Format an item for the report: description plus price."""
    return item.describe() + "  " + pr.format_line(item)


def shelf_report(shelf: Shelf) -> list:
    """Build the report lines for one shelf."""
    lines = [shelf.headline()]
    for item in shelf.items:
        slot = shelf.slot_for(item)
        lines.append(slot.label() + " " + format_line(item))
    lines.append(f"total: {pr.shelf_total(shelf):.2f}")
    lines.append(f"weight: {shelf_weight(shelf):.1f}")
    return lines


def first_description(shelves: list) -> str:
    """The first shelf's description; the name's type is declared before `with` binds it."""
    shelf: Shelf
    with shelves[0] as shelf:
        return shelf.describe()
