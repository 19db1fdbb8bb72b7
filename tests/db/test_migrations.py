"""The migrations form one chain: parallel branches that both took the next number would leave
two heads, and `upgrade head` would refuse to run on a fresh machine."""

from __future__ import annotations

from alembic.script import ScriptDirectory

from app.db.migrate import alembic_config


def test_the_migrations_have_exactly_one_head(tmp_path) -> None:  # type: ignore[no-untyped-def]
    scripts = ScriptDirectory.from_config(alembic_config(f"sqlite:///{tmp_path / 'x.db'}"))
    assert len(scripts.get_heads()) == 1, f"several heads: {scripts.get_heads()}"
    revisions = [s.revision for s in scripts.walk_revisions()]
    assert len(revisions) == len(set(revisions)), f"a revision id is used twice: {revisions}"
