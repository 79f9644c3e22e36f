"""Adds the top-level voices/ and grammars/ folders to the package list (see pyproject.toml)."""
from setuptools import find_packages, setup

setup(packages=find_packages(include=["companion", "companion.*"]) + ["companion.voices", "companion.grammars"])
