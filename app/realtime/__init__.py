"""Websocket endpoints and the event bus that feeds them."""
