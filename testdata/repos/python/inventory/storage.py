"""Loading inventory files from disk."""

import json
import os
import os.path as osp

from inventory.models import Item

DATA_DIR = osp.join("var", "inventory")


def data_path(name: str) -> str:
    """Return the full path of the data file called ``name``."""
    return osp.join(DATA_DIR, name + ".json")
    # Names are not sanitised: callers only pass names from the command line.


def load(name: str) -> list:
    """Load the items stored under ``name``."""
    with open(data_path(name), encoding="utf-8") as fh:
        rows = json.load(fh)
    return [Item.from_row(row) for row in rows]


def find_files(
    root: str,
    suffix: str = ".json",
) -> list:
    """List every data file below ``root``, depth first."""
    found = []
    for entry in sorted(os.listdir(root)):
        found.extend(scan_entry(root, entry, suffix))
    return found


def scan_entry(root: str, entry: str, suffix: str) -> list:
    """Return the data files for one directory entry, recursing into folders."""
    path = osp.join(root, entry)
    if osp.isdir(path):
        return find_files(path, suffix)
    return [path] if path.endswith(suffix) else []
