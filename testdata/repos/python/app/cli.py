"""Command-line entry point: ``python -m app.cli NAME``."""

import sys

from app.report import shelf_report
from inventory.models import Shelf
from inventory.storage import load

USAGE = "usage: python -m app.cli NAME"


def main(argv: list) -> int:
    """Print a report for the inventory named on the command line."""
    if len(argv) < 2:
        print(USAGE, file=sys.stderr)
        return 2
    items = load(argv[1])
    shelf = build_shelf(argv[1], items)
    for line in shelf_report(shelf):
        print(line)
    return 0


def build_shelf(label: str, items: list) -> Shelf:
    """Place the in-stock items on a new shelf."""

    def load(shelf: Shelf, batch: list) -> Shelf:
        """Put each in-stock item of ``batch`` on ``shelf``; shadows storage.load."""
        for item in batch:
            if item.quantity > 0:
                shelf.add(item)
        return shelf

    return load(Shelf(label), items)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
