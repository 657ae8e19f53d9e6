package org.snowkey.spring.autoconfigure;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

import org.snowkey.keygen.config.SequenceScope;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationUnit;

/**
 * The {@code snowkey.*} settings: every prop of the {@code IMPROVED_SNOWFLAKE} key generator, spelled the Spring way.
 * They configure the {@code SnowKeyIdGenerator} bean and are the defaults of every YAML key generator of type
 * {@code IMPROVED_SNOWFLAKE} in this JVM: a key generator with no props takes them, its own props override them.
 *
 * <p>Each setting left unset emits no prop, so the key generator's own default applies (docs/configuration.md,
 * "Configuration reference", lists them): the defaults are defined once, in the plugin, and not restated here.
 */
@ConfigurationProperties(prefix = "snowkey")
public class SnowKeyProperties {

    /** Whether to configure SnowKey: the generator bean, its lease and the defaults of YAML key generators. */
    private boolean enabled = true;

    /**
     * Worker id bits W: the pool has 2^W worker ids, and the sequence gets 22 - W bits (2^(22-W) ids per ms per
     * worker). From 1 to 21. Every instance of a pool must use the same value.
     */
    private Integer workerIdBits;

    /**
     * Sequence bits placed below the worker id: consecutive ids of a table cycle through id % 2^L, so id % 2^k
     * sharding (k at most L) stays balanced at any insert rate. From 0 to 22 - worker-id-bits; 0 gives classic
     * snowflake order.
     */
    private Integer sequenceLowBits;

    /** Start of the 41-bit millisecond timestamp (ISO-8601 instant or epoch milliseconds, in the past); ids last 69.7 years from it. */
    private String epoch;

    /**
     * How long a call waits for a wall clock that moved back below timestamps already issued, once the time cache
     * is spent; beyond it the call fails with the reason. Up to one day. Bare numbers are milliseconds.
     */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration maxTolerateTimeDifference;

    /**
     * Cap on the time cache: how far the id timestamp may lag the wall clock. Idle time up to the cap is kept for
     * bursts; decoded timestamps lie at most this much before the insert. 0 turns the cache off. Bare numbers are
     * milliseconds.
     */
    @DurationUnit(ChronoUnit.MILLIS)
    private Duration maxTimeCache;

    /**
     * How many worker ids of its lease pool a generator may issue on at once: while its calls keep waiting for the clock
     * it leases more (doubling, up to this many) and gives them back when demand falls; a quarter of the pool always
     * stays free for other instances. From 1 (its own worker id only: no growth) to 2^W. Default 32. A value above 1 is
     * refused beside snowkey.worker-id: a static worker id leases nothing.
     */
    private Integer maxWorkerIdsPerInstance;

    /** One sequence stream per logic table, or one for all tables of the lease scope. */
    private SequenceScope sequenceScope;

    /**
     * A fixed worker id instead of a lease (0 to 2^W - 1): you guarantee that no other process uses it. Excludes
     * snowkey.lease.registry.
     */
    private Integer workerId;

    private final Lease lease = new Lease();

    private final ZooKeeper zookeeper = new ZooKeeper();

    private final Jdbc jdbc = new Jdbc();

    private final Etcd etcd = new Etcd();

    private final Segment segment = new Segment();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(final boolean enabled) {
        this.enabled = enabled;
    }

    public Integer getWorkerIdBits() {
        return workerIdBits;
    }

    public void setWorkerIdBits(final Integer workerIdBits) {
        this.workerIdBits = workerIdBits;
    }

    public Integer getSequenceLowBits() {
        return sequenceLowBits;
    }

    public void setSequenceLowBits(final Integer sequenceLowBits) {
        this.sequenceLowBits = sequenceLowBits;
    }

    public String getEpoch() {
        return epoch;
    }

    public void setEpoch(final String epoch) {
        this.epoch = epoch;
    }

    public Duration getMaxTolerateTimeDifference() {
        return maxTolerateTimeDifference;
    }

    public void setMaxTolerateTimeDifference(final Duration maxTolerateTimeDifference) {
        this.maxTolerateTimeDifference = maxTolerateTimeDifference;
    }

    public Duration getMaxTimeCache() {
        return maxTimeCache;
    }

    public void setMaxTimeCache(final Duration maxTimeCache) {
        this.maxTimeCache = maxTimeCache;
    }

    public Integer getMaxWorkerIdsPerInstance() {
        return maxWorkerIdsPerInstance;
    }

    public void setMaxWorkerIdsPerInstance(final Integer maxWorkerIdsPerInstance) {
        this.maxWorkerIdsPerInstance = maxWorkerIdsPerInstance;
    }

    public SequenceScope getSequenceScope() {
        return sequenceScope;
    }

    public void setSequenceScope(final SequenceScope sequenceScope) {
        this.sequenceScope = sequenceScope;
    }

    public Integer getWorkerId() {
        return workerId;
    }

    public void setWorkerId(final Integer workerId) {
        this.workerId = workerId;
    }

    public Lease getLease() {
        return lease;
    }

    public ZooKeeper getZookeeper() {
        return zookeeper;
    }

    public Jdbc getJdbc() {
        return jdbc;
    }

    public Etcd getEtcd() {
        return etcd;
    }

    public Segment getSegment() {
        return segment;
    }

    /** Worker id leases, shared by both registries. */
    public static class Lease {

        /**
         * Where worker ids are leased from: zookeeper, jdbc or etcd. Each needs its store on the class path
         * (snowkey-lease-zookeeper, snowkey-lease-jdbc, snowkey-lease-etcd); without it, naming it here or setting any of
         * its properties fails start-up naming the artifact. Unset: in ShardingSphere Cluster mode the YAML key generators
         * lease from the mode's ZooKeeper or etcd; otherwise worker id 0, safe only for a single instance.
         */
        private String registry;

        /** Independent pools of 2^W worker ids in one registry (letters, digits, '.', '_', '-'). */
        private String pool;

        /**
         * Lease duration: a holder renews every third of it and reserves timestamps one duration ahead. Registry
         * outages shorter than about two thirds of it are invisible to inserts; a crashed holder's number is free
         * again after at most one duration. From 1 s to 1 day. Bare numbers are milliseconds.
         */
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration duration;

        /**
         * How long start-up retries an unreachable registry or a full pool, and how long an insert waits for a new
         * lease after losing one, before failing with the reason. Up to 1 hour. Bare numbers are milliseconds.
         */
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration acquireTimeout;

        /** The lease owner shown to operators; also seeds where the scan for a free number starts. Default: host name @ process id. */
        private String instanceId;

        public String getRegistry() {
            return registry;
        }

        public void setRegistry(final String registry) {
            this.registry = registry;
        }

        public String getPool() {
            return pool;
        }

        public void setPool(final String pool) {
            this.pool = pool;
        }

        public Duration getDuration() {
            return duration;
        }

        public void setDuration(final Duration duration) {
            this.duration = duration;
        }

        public Duration getAcquireTimeout() {
            return acquireTimeout;
        }

        public void setAcquireTimeout(final Duration acquireTimeout) {
            this.acquireTimeout = acquireTimeout;
        }

        public String getInstanceId() {
            return instanceId;
        }

        public void setInstanceId(final String instanceId) {
            this.instanceId = instanceId;
        }
    }

    /**
     * A ZooKeeper ensemble: the worker-id lease's under {@code snowkey.zookeeper.*} (snowkey.lease.registry=zookeeper),
     * the segment allocator's under {@code snowkey.segment.zookeeper.*} (snowkey.segment.allocator=zookeeper). Where
     * the two uses differ, the descriptions IDEs show come from additional-spring-configuration-metadata.json.
     */
    public static class ZooKeeper {

        /** host:port[,host:port...] of the ensemble. Default: the server lists of ShardingSphere's Cluster mode. */
        private String serverLists;

        /** The namespace SnowKey's nodes live under (/namespace/snowkey/...). Default: the Cluster mode namespace, else "snowkey". */
        private String namespace;

        /** user:password; SnowKey's nodes then carry a digest ACL: anyone may read, only this user may write or delete. */
        private String digest;

        public String getServerLists() {
            return serverLists;
        }

        public void setServerLists(final String serverLists) {
            this.serverLists = serverLists;
        }

        public String getNamespace() {
            return namespace;
        }

        public void setNamespace(final String namespace) {
            this.namespace = namespace;
        }

        public String getDigest() {
            return digest;
        }

        public void setDigest(final String digest) {
            this.digest = digest;
        }
    }

    /**
     * A database: the worker-id lease's under {@code snowkey.jdbc.*} (snowkey.lease.registry=jdbc), the segment
     * allocator's under {@code snowkey.segment.jdbc.*} (snowkey.segment.allocator=jdbc). Where the two uses differ, the
     * descriptions IDEs show come from additional-spring-configuration-metadata.json.
     */
    public static class Jdbc {

        /** JDBC URL of the database holding SnowKey's table (H2, MySQL/MariaDB, PostgreSQL). */
        private String url;

        /** Database user. */
        private String username;

        /** Database password; never logged or shown in messages. */
        private String password;

        /** SnowKey's table name (letters, digits, '_', optionally schema-qualified). */
        private String table;

        /** Whether to create SnowKey's tables when they are missing; set false and run the DDL yourself. */
        private Boolean createTable;

        public String getUrl() {
            return url;
        }

        public void setUrl(final String url) {
            this.url = url;
        }

        public String getUsername() {
            return username;
        }

        public void setUsername(final String username) {
            this.username = username;
        }

        public String getPassword() {
            return password;
        }

        public void setPassword(final String password) {
            this.password = password;
        }

        public String getTable() {
            return table;
        }

        public void setTable(final String table) {
            this.table = table;
        }

        public Boolean getCreateTable() {
            return createTable;
        }

        public void setCreateTable(final Boolean createTable) {
            this.createTable = createTable;
        }
    }

    /**
     * An etcd cluster (v3): the worker-id lease's under {@code snowkey.etcd.*} (snowkey.lease.registry=etcd), the segment
     * allocator's under {@code snowkey.segment.etcd.*} (snowkey.segment.allocator=etcd). Where the two uses differ, the
     * descriptions IDEs show come from additional-spring-configuration-metadata.json.
     */
    public static class Etcd {

        /** http(s)://host:port[,http(s)://host:port...] of the cluster's client URLs. Default: the server lists of ShardingSphere's Cluster mode. */
        private String endpoints;

        /** The namespace SnowKey's keys live under (/namespace/snowkey/...). Default: the Cluster mode namespace, else "snowkey". */
        private String namespace;

        /** etcd user, when the cluster has authentication on; needs a password. */
        private String user;

        /** Password of the etcd user; never logged or shown in messages. Keep it out of committed files (a placeholder, password-env or password-file). */
        private String password;

        /** Name of an environment variable holding the password, instead of password. */
        private String passwordEnv;

        /** File holding the password (one line), instead of password. */
        private String passwordFile;

        /** PEM file of the certificate authority that signed the etcd servers' certificates (https endpoints). */
        private String caFile;

        /** PEM file of the client certificate, for etcd clusters that require client certificates; needs key-file. */
        private String certFile;

        /** PEM file of the client certificate's private key (PKCS#8); needs cert-file. */
        private String keyFile;

        /**
         * How long one request to etcd may take before etcd counts as unreachable, from 100 ms to 60 s. Default: bounded
         * by the lease's acquire timeout (half the segment fetch timeout), at most 5 s. Bare numbers are milliseconds.
         */
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration requestTimeout;

        public String getEndpoints() {
            return endpoints;
        }

        public void setEndpoints(final String endpoints) {
            this.endpoints = endpoints;
        }

        public String getNamespace() {
            return namespace;
        }

        public void setNamespace(final String namespace) {
            this.namespace = namespace;
        }

        public String getUser() {
            return user;
        }

        public void setUser(final String user) {
            this.user = user;
        }

        public String getPassword() {
            return password;
        }

        public void setPassword(final String password) {
            this.password = password;
        }

        public String getPasswordEnv() {
            return passwordEnv;
        }

        public void setPasswordEnv(final String passwordEnv) {
            this.passwordEnv = passwordEnv;
        }

        public String getPasswordFile() {
            return passwordFile;
        }

        public void setPasswordFile(final String passwordFile) {
            this.passwordFile = passwordFile;
        }

        public String getCaFile() {
            return caFile;
        }

        public void setCaFile(final String caFile) {
            this.caFile = caFile;
        }

        public String getCertFile() {
            return certFile;
        }

        public void setCertFile(final String certFile) {
            this.certFile = certFile;
        }

        public String getKeyFile() {
            return keyFile;
        }

        public void setKeyFile(final String keyFile) {
            this.keyFile = keyFile;
        }

        public Duration getRequestTimeout() {
            return requestTimeout;
        }

        public void setRequestTimeout(final Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
        }
    }

    /**
     * The {@code SNOWKEY_SEGMENT} key generator (dense keys below 2^53 from ranges of a central allocator): defaults of
     * every such YAML key generator, and, with an allocator set, the {@code SnowKeySegments} bean. Its allocator has
     * connection settings of its own ({@code snowkey.segment.jdbc.*}, {@code snowkey.segment.zookeeper.*},
     * {@code snowkey.segment.etcd.*}), of the same
     * classes as the worker-id lease's but apart from them: the two may live in different stores, and the lease table
     * is not a segment table.
     */
    public static class Segment {

        /**
         * Where ranges come from: jdbc (a counter table), zookeeper (a counter node per key) or etcd (a counter key per
         * key). Setting it creates the SnowKeySegments bean. Unset: YAML key generators in ShardingSphere Cluster mode
         * with ZooKeeper or etcd take ranges from the mode's registry; in Standalone mode they fail start-up.
         */
        private String allocator;

        /** One sequence key for every table, instead of one per logic table (database.table). */
        private String key;

        /** The first key of every sequence (1 to 2^53 - 1); only ever raises a key's counter. */
        private Long startValue;

        /** First keys by sequence key, comma-separated: orders.t_order=1000001, invoice=5001. */
        private String startValues;

        /** The smallest range asked for, in keys; the first range of a sequence has this size. */
        private Long stepMin;

        /** The largest range asked for, in keys. */
        private Long stepMax;

        /**
         * How long a range should last at the recent issue rate: the step doubles when ranges last under half of it and
         * halves when they last over twice it. Up to 1 day. Bare numbers are milliseconds.
         */
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration rangeLifetime;

        /** How much of a range is used, in percent (0 to 99), when the next range is fetched in the background. */
        private Integer prefetchPercent;

        /**
         * How long an insert waits for a range when both buffers are empty, before failing naming the key and the
         * allocator. Up to 10 minutes. Bare numbers are milliseconds.
         */
        @DurationUnit(ChronoUnit.MILLIS)
        private Duration fetchTimeout;

        private final Jdbc jdbc = new Jdbc();

        private final ZooKeeper zookeeper = new ZooKeeper();

        private final Etcd etcd = new Etcd();

        public String getAllocator() {
            return allocator;
        }

        public void setAllocator(final String allocator) {
            this.allocator = allocator;
        }

        public String getKey() {
            return key;
        }

        public void setKey(final String key) {
            this.key = key;
        }

        public Long getStartValue() {
            return startValue;
        }

        public void setStartValue(final Long startValue) {
            this.startValue = startValue;
        }

        public String getStartValues() {
            return startValues;
        }

        public void setStartValues(final String startValues) {
            this.startValues = startValues;
        }

        public Long getStepMin() {
            return stepMin;
        }

        public void setStepMin(final Long stepMin) {
            this.stepMin = stepMin;
        }

        public Long getStepMax() {
            return stepMax;
        }

        public void setStepMax(final Long stepMax) {
            this.stepMax = stepMax;
        }

        public Duration getRangeLifetime() {
            return rangeLifetime;
        }

        public void setRangeLifetime(final Duration rangeLifetime) {
            this.rangeLifetime = rangeLifetime;
        }

        public Integer getPrefetchPercent() {
            return prefetchPercent;
        }

        public void setPrefetchPercent(final Integer prefetchPercent) {
            this.prefetchPercent = prefetchPercent;
        }

        public Duration getFetchTimeout() {
            return fetchTimeout;
        }

        public void setFetchTimeout(final Duration fetchTimeout) {
            this.fetchTimeout = fetchTimeout;
        }

        public Jdbc getJdbc() {
            return jdbc;
        }

        public ZooKeeper getZookeeper() {
            return zookeeper;
        }

        public Etcd getEtcd() {
            return etcd;
        }
    }
}
