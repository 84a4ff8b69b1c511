"""The shipped rule-set files (`<id>.rules`); read through `lexicon_service.rules.load_rule_set`."""
