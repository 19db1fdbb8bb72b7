"""A device's name for the account page's list, from the User-Agent it opted in with."""

from __future__ import annotations

import re

_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"),
             ("Chrome/", "Chrome"), ("Chromium/", "Chromium"), ("Safari/", "Safari"))
_SYSTEMS = (("Android", "Android"), ("iPhone", "iPhone"), ("iPad", "iPad"),
            ("Windows", "Windows"), ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"),
            ("Linux", "Linux"))


def device_label(user_agent: str) -> str:
    """"Firefox on Android", "Chrome on Linux"…; a client that is no known browser: its first
    word (a program's name), cut short."""
    browser = next((name for mark, name in _BROWSERS if mark in user_agent), None)
    system = next((name for mark, name in _SYSTEMS if mark in user_agent), None)
    if browser and system:
        return f"{browser} · {system}"
    if browser or system:
        return browser or system or ""
    first = re.split(r"[\s/]", user_agent.strip(), maxsplit=1)[0] if user_agent.strip() else ""
    return first[:60]
