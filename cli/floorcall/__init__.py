"""Floorcall: a floor-ruling assistant for poker tournament directors."""

__version__ = "0.1.0"
