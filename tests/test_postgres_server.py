"""The throwaway PostgreSQL cluster the store and queue tests use really runs and answers."""

import sqlalchemy as sa
from postgres_server import POSTGRES_MARKS

pytestmark = POSTGRES_MARKS


def test_cluster_answers_on_loopback(postgres_url: str) -> None:
    assert "@127.0.0.1:" in postgres_url
    engine = sa.create_engine(postgres_url)
    with engine.begin() as conn:
        conn.execute(sa.text("CREATE TABLE IF NOT EXISTS probe (n int)"))
        conn.execute(sa.text("INSERT INTO probe VALUES (41), (1)"))
        total = conn.execute(sa.text("SELECT sum(n) FROM probe")).scalar_one()
        server = conn.execute(sa.text("SHOW server_version")).scalar_one()
    engine.dispose()
    assert total == 42
    assert server.split(".")[0].isdigit()
