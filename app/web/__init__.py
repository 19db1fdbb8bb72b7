"""Server-rendered pages (Jinja templates) and their translations."""
