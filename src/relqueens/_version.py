"""The version, single-sourced from the package metadata (``pyproject.toml``'s ``version``)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("relqueens")
except PackageNotFoundError:  # a source tree run without installing
    __version__ = "0+unknown"
