"""tetrad server: FastAPI app, rooms in Redis, durable records in SQL (see docs/architecture.md)."""
