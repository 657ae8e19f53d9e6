-- SnowKey worker-id leases (DESIGN section 3): one row per (pool, worker id), created lazily.
-- The same statement runs unchanged on H2, MySQL/MariaDB and PostgreSQL. SnowKey runs it when the table is
-- missing and jdbc-create-table is true (the default); otherwise run it by hand, with the table name of jdbc-table.
-- version is the compare-and-set version, bumped by every write; fencing_token is bumped by every takeover.
-- Times are epoch milliseconds. state is HELD or RELEASED. id_layout is the writer's id layout
-- (worker-id-bits=13,sequence-low-bits=1,epoch=2025-01-01T00:00:00Z); NULL in rows of SnowKey before 0.1.0.
-- incarnation is a random nonce of the lease that claimed the row, so that two processes with one instance id never
-- write equal claims; NULL in rows of earlier SnowKey versions.
CREATE TABLE IF NOT EXISTS snowkey_worker_lease (
    pool           VARCHAR(128) NOT NULL,
    worker_id      INT          NOT NULL,
    owner          VARCHAR(255) NOT NULL,
    version        BIGINT       NOT NULL,
    fencing_token  BIGINT       NOT NULL,
    expires_at     BIGINT       NOT NULL,
    reserved_until BIGINT       NOT NULL,
    state          VARCHAR(16)  NOT NULL,
    id_layout      VARCHAR(128),
    incarnation    VARCHAR(64),
    PRIMARY KEY (pool, worker_id)
)
