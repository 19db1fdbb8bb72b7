"""Bodies every API door shares: the error answer and a row id in a path."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path
from pydantic import BaseModel

from app.db.models import MAX_ROW_ID


class ErrorOut(BaseModel):
    code: str
    message: str


RowId = Annotated[int, Path(ge=1, le=MAX_ROW_ID, description="A row id.")]
"""An integer id in a path: out of range is 422 before any query (PostgreSQL would raise)."""
