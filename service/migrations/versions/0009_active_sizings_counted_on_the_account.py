"""active sizings counted on the account's row

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 19:00:00

Creating a sizing counted the account's queued and running sizings against its caps: a scan
of every active row of the account (a backlog behind busy workers grows it without bound), so
each creation cost more than the last. The count is now kept on the account's row by triggers
on every write of a sizing, in the writing transaction: a creation reads two integers under
the lock it already took (service.allowances). Triggers, not the code, so no write path (a
worker's finish, a cancel, an operator's UPDATE) can leave the count wrong. The index that
served the count goes with it.
"""
import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None

ACTIVE = "('queued', 'running')"

# PostgreSQL: one function for every write; the update trigger fires only where a row enters
# or leaves the active states (or changes account or origin), so a claim (queued -> running),
# a heartbeat or a release touches no account row.
POSTGRES_FUNCTION = f"""
CREATE FUNCTION sizings_count_active() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' AND OLD.status IN {ACTIVE} THEN
        UPDATE accounts SET active_sizings = active_sizings - 1,
               active_sizings_from_page = active_sizings_from_page - (OLD.origin = 'page')::int
         WHERE id = OLD.account_id;
    END IF;
    IF TG_OP <> 'DELETE' AND NEW.status IN {ACTIVE} THEN
        UPDATE accounts SET active_sizings = active_sizings + 1,
               active_sizings_from_page = active_sizings_from_page + (NEW.origin = 'page')::int
         WHERE id = NEW.account_id;
    END IF;
    RETURN NULL;
END
$$
"""
CHANGED = (f"(OLD.status IN {ACTIVE}) <> (NEW.status IN {ACTIVE}) "
           "OR OLD.origin <> NEW.origin OR OLD.account_id IS DISTINCT FROM NEW.account_id")
POSTGRES_TRIGGERS = (
    ("CREATE TRIGGER sizings_count_active_written AFTER INSERT OR DELETE ON sizings "
     "FOR EACH ROW EXECUTE FUNCTION sizings_count_active()"),
    ("CREATE TRIGGER sizings_count_active_changed AFTER UPDATE OF status, origin, account_id "
     f"ON sizings FOR EACH ROW WHEN ({CHANGED}) EXECUTE FUNCTION sizings_count_active()"),
)


def _sqlite_step(row: str, sign: str) -> str:
    return (f"UPDATE accounts SET active_sizings = active_sizings {sign} 1, "
            f"active_sizings_from_page = active_sizings_from_page {sign} ({row}.origin = 'page') "
            f"WHERE id = {row}.account_id AND {row}.status IN {ACTIVE};")


# SQLite has no trigger functions: one trigger per kind of write, the same steps.
SQLITE_TRIGGERS = (
    (f"CREATE TRIGGER sizings_count_active_inserted AFTER INSERT ON sizings "
     f"BEGIN {_sqlite_step('NEW', '+')} END"),
    (f"CREATE TRIGGER sizings_count_active_deleted AFTER DELETE ON sizings "
     f"BEGIN {_sqlite_step('OLD', '-')} END"),
    (f"CREATE TRIGGER sizings_count_active_changed AFTER UPDATE OF status, origin, account_id "
     f"ON sizings WHEN {CHANGED} "
     f"BEGIN {_sqlite_step('OLD', '-')} {_sqlite_step('NEW', '+')} END"),
)
TRIGGER_NAMES = {"postgresql": ("sizings_count_active_written", "sizings_count_active_changed"),
                 "sqlite": ("sizings_count_active_inserted", "sizings_count_active_deleted",
                            "sizings_count_active_changed")}


def upgrade() -> None:
    # Outside batch mode: SQLite may rebuild a table in it, and a rebuilt table loses its
    # triggers.
    op.drop_index('ix_sizings_account_status', table_name='sizings')
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.add_column(sa.Column('active_sizings', sa.Integer(), nullable=False,
                                      server_default='0'))
        batch_op.add_column(sa.Column('active_sizings_from_page', sa.Integer(), nullable=False,
                                      server_default='0'))
    # The triggers before the count: on PostgreSQL creating them locks out writes of sizings
    # until this transaction commits, so no write falls between the count and the triggers.
    if op.get_bind().dialect.name == "postgresql":
        op.execute(POSTGRES_FUNCTION)
        for statement in POSTGRES_TRIGGERS:
            op.execute(statement)
    else:
        for statement in SQLITE_TRIGGERS:
            op.execute(statement)
    op.execute(
        "UPDATE accounts SET "
        f"active_sizings = (SELECT count(*) FROM sizings WHERE sizings.account_id = accounts.id "
        f"AND sizings.status IN {ACTIVE}), "
        "active_sizings_from_page = (SELECT count(*) FROM sizings "
        f"WHERE sizings.account_id = accounts.id AND sizings.status IN {ACTIVE} "
        "AND sizings.origin = 'page')")


def downgrade() -> None:
    op.create_index('ix_sizings_account_status', 'sizings', ['account_id', 'status'])
    dialect = op.get_bind().dialect.name
    for name in TRIGGER_NAMES[dialect]:
        op.execute(f"DROP TRIGGER {name}" + (" ON sizings" if dialect == "postgresql" else ""))
    if dialect == "postgresql":
        op.execute("DROP FUNCTION sizings_count_active()")
    with op.batch_alter_table('accounts', schema=None) as batch_op:
        batch_op.drop_column('active_sizings_from_page')
        batch_op.drop_column('active_sizings')
