"""Top-level pytest configuration: Sphinx's testing fixtures for the extension's integration tests."""

pytest_plugins = ("sphinx.testing.fixtures",)
