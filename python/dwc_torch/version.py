"""dwc_torch version (also in pyproject.toml); part of every kernel cache key."""

__version__ = "0.2.1"
