"""The test suite (a package, so that its modules import the shared helpers of tests/conftest.py by name)."""
