"""Placeholder."""
__all__ = []
