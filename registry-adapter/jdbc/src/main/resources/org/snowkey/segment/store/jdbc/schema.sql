-- SnowKey segment mode (docs/design.md, "Segment mode"): one counter row per sequence key, and the log of every
-- range handed out. The same statements run unchanged on H2, MySQL/MariaDB and PostgreSQL. SnowKey runs them when a
-- table is missing and table creation is on; otherwise run them by hand with the configured table name (the log
-- table is that name plus _log).
-- next_value is the first number not handed out yet; an allocation adds its size to it and writes the log row in
-- the same transaction. Times are epoch milliseconds. Ranges are range_first..range_last, both included.
CREATE TABLE IF NOT EXISTS snowkey_segment (
    seq_key    VARCHAR(191) NOT NULL,
    next_value BIGINT       NOT NULL,
    updated_at BIGINT       NOT NULL,
    PRIMARY KEY (seq_key)
);
CREATE TABLE IF NOT EXISTS snowkey_segment_log (
    seq_key      VARCHAR(191) NOT NULL,
    range_first  BIGINT       NOT NULL,
    range_last   BIGINT       NOT NULL,
    owner        VARCHAR(255) NOT NULL,
    allocated_at BIGINT       NOT NULL,
    PRIMARY KEY (seq_key, range_first)
);
