"""Browser tests (a package, so that their package-scoped server and browser stop when they are done)."""
