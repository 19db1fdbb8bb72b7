"""The one name for a JSON object whose shape the server does not fix.

Domain boundaries take and return typed values (pydantic models, dataclasses, TypedDicts); a
``JSONObject`` is what remains where the shape belongs to someone else: a game's options,
snapshot, view and result details (each game decides them in ``games/<id>/``), a JSON schema, a
page form's raw fields, or a message already in its wire form. ``tests/test_boundary_types.py``
allows this name, and no other ``Any``, in the signatures the domains export.
"""

from __future__ import annotations

from typing import Any, TypeAlias

JSONObject: TypeAlias = dict[str, Any]
