-- SnowKey worker-id leases (DESIGN section 3): one row per (pool, worker id), created lazily.
-- The same statement runs unchanged on H2, MySQL/MariaDB and PostgreSQL. SnowKey runs it when the table is
-- missing and jdbc-create-table is true (the default); otherwise run it by hand, with the table name of jdbc-table.
-- version is the compare-and-set version, bumped by every write; fencing_token is bumped by every takeover.
-- Times are epoch milliseconds. state is HELD or RELEASED.
CREATE TABLE IF NOT EXISTS snowkey_worker_lease (
    pool           VARCHAR(128) NOT NULL,
    worker_id      INT          NOT NULL,
    owner          VARCHAR(255) NOT NULL,
    version        BIGINT       NOT NULL,
    fencing_token  BIGINT       NOT NULL,
    expires_at     BIGINT       NOT NULL,
    reserved_until BIGINT       NOT NULL,
    state          VARCHAR(16)  NOT NULL,
    PRIMARY KEY (pool, worker_id)
)
