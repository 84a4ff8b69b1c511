"""Subcommands of `lexicon-service`; every module here defines `add_parser(subparsers)`."""
