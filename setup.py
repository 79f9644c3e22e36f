"""The package list: the code, and the top-level voices/ and grammars/ folders installed as the packages
companion.voices and companion.grammars (see package-dir in pyproject.toml). Their subfolders are listed too,
so that their files are package data."""
from pathlib import Path

from setuptools import find_namespace_packages, setup


def data_packages(folder: str, package: str) -> list[str]:
    root = Path(__file__).parent / folder
    found = [package]
    for path in sorted(root.rglob("*")):
        if path.is_dir() and "__pycache__" not in path.parts:
            found.append(".".join([package, *path.relative_to(root).parts]))
    return found


setup(packages=find_namespace_packages(include=["companion", "companion.*"], exclude=["*__pycache__*"])
      + data_packages("voices", "companion.voices") + data_packages("grammars", "companion.grammars"))
