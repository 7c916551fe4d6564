"""The topology test starts its processes like the operations tests do."""

from tests.operations.conftest import processes

__all__ = ["processes"]
