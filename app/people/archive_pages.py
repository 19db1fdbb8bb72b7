"""The archive search page, ``/archive``: a form sent by GET (a search is a link), the games
found a page at a time, each linked to its replay, and the export of all of them."""

from __future__ import annotations

from datetime import date
from typing import Annotated, TypedDict
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from app.db.deps import SessionDep
from app.db.one_hop import OneHopRoute
from app.http.doors import PageDoor
from app.http.errors import status_of
from app.http.paging import PageRequest, decode_cursor, encode_cursor
from app.kernel import i18n
from app.kernel.errors import Invalid, ServiceError
from app.match import option_fields, reason_label
from app.people import archive_search
from app.people.archive_search import ArchiveGame, SearchInput
from app.web.forms import page_viewer
from app.web.templating import render
from games import registry

router = APIRouter(route_class=OneHopRoute, include_in_schema=False, dependencies=[PageDoor])
PAGE_SIZE = 25
BAD_DATE = i18n.N_("A date is written YYYY-MM-DD.")
BAD_RATED = i18n.N_("Rated is rated, casual or either.")


def _day(text: str) -> date | None:
    if not text:
        return None
    try:
        return date.fromisoformat(text[:10])
    except ValueError:
        raise Invalid(i18n.gettext(BAD_DATE), code="bad_date") from None


def _rated(text: str) -> bool | None:
    if text in ("", "any"):
        return None
    if text in ("true", "false"):
        return text == "true"
    raise Invalid(i18n.gettext(BAD_RATED), code="bad_rated")


def _choices(game: str) -> list[OptionChoices]:
    """The searchable options of the chosen game, each with its choices, for the form."""
    if not game:
        return []
    searchable = set(archive_search.searchable_options(game))
    fields: list[OptionChoices] = []
    for spec in option_fields(game):
        if spec["name"] not in searchable:
            continue
        values: list[tuple[str, str]]
        if spec["kind"] == "checkbox":
            values = [("true", i18n.gettext("yes")), ("false", i18n.gettext("no"))]
        elif spec["kind"] == "select":
            values = [(str(choice), i18n.gettext(label))
                      for choice, label in zip(spec["choices"], spec["choice_labels"], strict=True)]
        else:
            low, high = spec["minimum"], spec["maximum"]
            if low is None or high is None or high - low > 20:
                continue
            values = [(str(n), str(n)) for n in range(int(low), int(high) + 1)]
        fields.append({"name": spec["name"], "title": i18n.gettext(spec["title"]),
                       "values": values})
    return fields


class OptionChoices(TypedDict):
    name: str
    title: str
    values: list[tuple[str, str]]


@router.get("/archive")
def archive_page(request: Request, session: SessionDep, player: str = "", opponent: str = "",
                 game: str = "", option: Annotated[list[str] | None, Query()] = None,
                 rated: str = "", result: str = "", reason: str = "",
                 start: Annotated[str, Query(alias="from")] = "",
                 end: Annotated[str, Query(alias="to")] = "", cursor: str = "") -> Response:
    """Search finished games; the same filters as ``GET /api/v1/games/search``."""
    viewer = page_viewer(request, session)
    games = [g.describe() for g in registry.all_games()]
    known_game = game if game in {g["id"] for g in games} else ""
    options = tuple(text for text in (option or [])[:archive_search.MAX_OPTIONS]
                    if text and not text.endswith("="))
    found: list[ArchiveGame] = []
    error, following, status = None, None, 200
    asked = SearchInput(player.strip()[:40] or None, opponent.strip()[:40] or None,
                        game[:20] or None, options, None, result or None, reason[:40] or None)
    try:
        asked = SearchInput(asked.player, asked.opponent, asked.game, options, _rated(rated),
                            asked.result, asked.reason, _day(start), _day(end))
        search = archive_search.check(session, asked)
        page = PageRequest(PAGE_SIZE, decode_cursor(cursor[:400]) if cursor else None)
        found, following = archive_search.search(session, search, viewer.id if viewer else None,
                                                 page)
    except ServiceError as problem:
        error, status = i18n.gettext(problem.message), status_of(problem)
    query = archive_search.as_query(asked)
    chosen_options = dict(text.partition("=")[::2] for text in options)
    return render(
        request, "archive.html", status_code=status, games=games, asked=asked, rated=rated,
        start=start[:10], end=end[:10], chosen_options=chosen_options, error=error,
        option_choices=_choices(known_game), found=found,
        reasons=[(code, i18n.gettext(reason_label(known_game or registry.first().id, code)))
                 for code in archive_search.reason_codes(known_game or None)],
        next_url="/archive?" + urlencode([*query, ("cursor", encode_cursor(following))])
        if following else None,
        export_query=urlencode(query), reason_label_of=reason_label)
