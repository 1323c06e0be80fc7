"""The extension's version: a leaf, so modules that stamp caches with it need not import the package."""

__version__ = "0.1.0"
