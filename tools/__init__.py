"""Maintainers' tools, beside bench/ and not shipped in the wheel: the gRPC stub and descriptor
generators (`make proto`), the Czech paradigm measurements (`make quality`), the Polish headword
list maker and the flagless-class review aid. Run from the checkout: `python -m tools.NAME`."""
