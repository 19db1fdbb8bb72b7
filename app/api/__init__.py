"""REST API under /api/v1: routers translate HTTP to a service call and back, nothing more."""
