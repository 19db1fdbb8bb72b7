"""Bodies every API door shares: the error answer, a row id in a path, and the way to document a
body that may be filled in several ways (``one_of``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Path
from pydantic import BaseModel

from app.db.models import MAX_ROW_ID


class ErrorOut(BaseModel):
    code: str
    message: str


RowId = Annotated[int, Path(ge=1, le=MAX_ROW_ID, description="A row id.")]
"""An integer id in a path: out of range is 422 before any query (PostgreSQL would raise)."""


@dataclass(frozen=True)
class Alternative:
    """One way to fill a body: its ``title`` (a generated client's class name), the fields it
    needs (never null), those it leaves out (absent or null), property schemas it fixes, and
    keywords added to its schema (``marks``, e.g. for a later pass over the document)."""

    title: str
    needs: tuple[str, ...] = ()
    leaves_out: tuple[str, ...] = ()
    fixes: dict[str, Any] = field(default_factory=dict)
    marks: dict[str, Any] = field(default_factory=dict)


def _not_null(prop: dict[str, Any]) -> dict[str, Any]:
    """``prop`` without its null option (``anyOf: [X, null]`` -> X, keeping title and text)."""
    options = [o for o in prop.get("anyOf", []) if o != {"type": "null"}]
    if "anyOf" not in prop or len(options) != 1:
        return prop
    rest = {k: v for k, v in prop.items() if k not in ("anyOf", "default")}
    if "enum" in rest:
        rest["enum"] = [value for value in rest["enum"] if value is not None]
    return {**options[0], **rest}


def one_of(schema: dict[str, Any], alternatives: list[Alternative]) -> None:
    """Rewrite an object's JSON schema, in place, as ``oneOf`` its complete alternatives: each
    carries every property, so a generator makes one class per way to fill the body and a
    validator refuses a body that fits none (or several)."""
    properties: dict[str, Any] = schema.pop("properties", {})
    required: list[str] = schema.pop("required", [])
    closed = schema.pop("additionalProperties", None)
    schema.pop("type", None)
    branches = []
    for alternative in alternatives:
        own = {name: _not_null(prop) if name in alternative.needs else prop
               for name, prop in properties.items()}
        own.update({name: {"type": "null"} for name in alternative.leaves_out})
        own.update(alternative.fixes)
        branch: dict[str, Any] = {"title": alternative.title, "type": "object", "properties": own,
                                  "required": [*required, *(n for n in alternative.needs
                                                            if n not in required)]}
        if closed is not None:
            branch["additionalProperties"] = closed
        branches.append({**branch, **alternative.marks})
    schema["oneOf"] = branches
