"""The request's database session as a dependency.

Every dependency is async and touches no database on the loop, so a request does all its
database work in one worker-thread hop (the endpoint), with one session whose connection is
given back before that hop ends (see app/db/one_hop.py).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session


async def get_session(request: Request) -> Session:
    """A session that connects lazily, inside the endpoint's worker thread. Every route closes
    the sessions it was given (``OneHopRoute``, app/db/one_hop.py): a generator dependency's
    exit stack cost about a tenth of the server's CPU per request, for a guard."""
    session: Session = request.app.state.session_factory()
    return session


SessionDep = Annotated[Session, Depends(get_session)]
