"""Domain objects: items and the shelves that hold them."""

from dataclasses import dataclass

MAX_SHELF_WEIGHT = 500.0


@dataclass
class Item:
    """A stocked article with a unit price and weight."""

    sku: str
    name: str
    price: float
    weight: float
    quantity: int = 0

    @staticmethod
    def from_row(row: dict) -> "Item":
        """Build an item from a storage row."""
        return Item(**row)

    def describe(self) -> str:
        """Return a one-line description of the item."""
        return f"{self.sku} {self.name} x{self.quantity}"

    def total_weight(self) -> float:
        """Weight of all units of this item."""
        return self.weight * self.quantity


class Shelf:
    """A shelf holding items, possibly with nested sub-shelves."""

    def __init__(self, label: str):
        """Create an empty shelf called ``label``."""
        self.label = label
        self.items: list[Item] = []
        self.children: list["Shelf"] = []

    def add(self, item: Item) -> None:
        """Put ``item`` on this shelf."""
        self.items.append(item)

    def describe(self) -> str:
        """Return the label and number of items on the shelf."""
        return f"shelf {self.label}: {len(self.items)} items"

    def headline(self) -> str:
        """First line of a shelf report."""
        return self.describe().upper()

    def weight(self) -> float:
        """Total weight of the items directly on this shelf."""
        return sum(item.total_weight() for item in self.items)

    def slot_for(self, item: Item) -> "Shelf.Slot":
        """Return the slot where ``item`` sits."""
        return Shelf.Slot(self.items.index(item))

    class Slot:
        """A numbered position on a shelf."""

        def __init__(self, index: int):
            """Create slot number ``index``."""
            self.index = index

        def label(self) -> str:
            """Return a printable slot label."""
            return f"slot-{self.index:02d}"


def shelf_weight(shelf: Shelf) -> float:
    """Weight of a shelf including all of its sub-shelves."""
    total = shelf.weight()
    for child in shelf.children:
        total += shelf_weight(child)
    return total
