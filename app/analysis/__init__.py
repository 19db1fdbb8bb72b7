"""Computer analysis: per-ply values of finished games, the analysis board and hints.

- ``values``: the pure math — how much a move cost its mover, and which marks that earns;
- ``compute``: what runs in a worker process (one position's evaluation, a hint);
- ``service``: the use cases over the database (request, progress, result) and the rules of who
  may see what (finished games only; hints only in casual games against bots);
- ``board``: the stateless analysis board (replay a move list, play one more move);
- ``jobs``: the runner that works through requested analyses; ``pool``: the hints' processes.

Other packages use only the names in ``__all__``: the routers, the analysis runner and the hint
pool that ``create_app`` starts.

The names are imported on first use (``app/kernel/exports.py``): an analysis or hint worker
process imports ``compute`` alone and needs none of the rest.
"""

from typing import TYPE_CHECKING

from app.kernel.exports import lazy_exports

if TYPE_CHECKING:
    from app.analysis.jobs import AnalysisRunner
    from app.analysis.messages import AnalysisMessage
    from app.analysis.pages import router as analysis_page_router
    from app.analysis.pool import HintPool
    from app.analysis.routes import router as analysis_router

__all__ = [
    "AnalysisMessage", "AnalysisRunner", "HintPool", "analysis_page_router", "analysis_router"]

__getattr__ = lazy_exports(__name__, {
    "AnalysisMessage": ("app.analysis.messages", "AnalysisMessage"),
    "AnalysisRunner": ("app.analysis.jobs", "AnalysisRunner"),
    "HintPool": ("app.analysis.pool", "HintPool"),
    "analysis_page_router": ("app.analysis.pages", "router"),
    "analysis_router": ("app.analysis.routes", "router"),
})
