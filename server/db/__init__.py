"""Durable records in SQL (SQLite by default, PostgreSQL in production)."""
