"""Finished and imported games looked at again: replay, export and the computer's analysis."""
