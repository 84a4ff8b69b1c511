"""The shipped Czech dictionary, loaded once per test session (tests only: the build loads it from the
paths it is given)."""

from functools import lru_cache

from build_tools.czech import CzechDictionary


@lru_cache(maxsize=1)
def shipped() -> CzechDictionary:
    return CzechDictionary.shipped()
