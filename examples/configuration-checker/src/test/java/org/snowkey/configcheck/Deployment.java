package org.snowkey.configcheck;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;

import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.segment.runtime.SegmentPlanner;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.shardingsphere.ImprovedSnowflakeKeyGenerateAlgorithm;
import org.snowkey.keygen.shardingsphere.InstanceContexts;
import org.snowkey.keygen.shardingsphere.KeyGeneratorFixtures;
import org.snowkey.keygen.shardingsphere.SnowKeySegmentKeyGenerateAlgorithm;
import org.snowkey.lease.admin.LeaseCli;
import org.snowkey.spring.SnowKeyIdGenerator;
import org.snowkey.spring.SnowKeySegments;

/**
 * One seeded deployment: a configuration drawn from the seed (pools, key generators of both types, tables, a Spring
 * bean or not, Standalone or Cluster mode, one to three runtimes), then a drawn sequence of steps (inserts, idleness,
 * rule changes, data sources closed and reopened, redeploys, operator commands, store faults), keys issued through
 * the real SPI objects and beans, every key recorded in the id spaces the configuration declares.
 * See docs/configuration-checker.md.
 */
final class Deployment {

    /** Where a pool's leases or a segment generator's ranges live. */
    enum Store { JDBC, ZOOKEEPER, CLUSTER_MODE }

    /** How long a key generator may take to issue again once the faults stopped. */
    private static final long LIVENESS_NANOS = 15_000_000_000L;

    private static final PrintStream DISCARD = new PrintStream(OutputStream.nullOutputStream());

    private final long seed;

    private final Random random;

    private final Set<Scenario> scenarios;

    private final SharedStores stores;

    private final String id;

    private final String database;

    private final boolean cluster;

    private final List<Pool> pools = new ArrayList<>();

    private final List<Generator> generators = new ArrayList<>();

    private final List<String> tables = new ArrayList<>();

    /** The key generator of each table now (the sharding rule). */
    private final Map<String, Generator> rule = new LinkedHashMap<>();

    private final List<Runtime> runtimes = new ArrayList<>();

    /** The first segment key generator each table had: a later segment generator of the table must draw from the same sequence. */
    private final Map<String, Generator> segmentOf = new HashMap<>();

    /** The generator whose settings the Spring beans publish (its own props then name its scope only), or null. */
    private Generator beanSource;

    private final IdSpaces spaces = new IdSpaces();

    private final List<String> trace = new ArrayList<>();

    private final DeploymentStats stats = new DeploymentStats();

    private String livenessFailure;

    Deployment(final long seed, final Set<Scenario> scenarios, final SharedStores stores) {
        this.seed = seed;
        this.random = new Random(seed);
        this.scenarios = scenarios;
        this.stores = stores;
        this.id = "ck" + seed;
        this.database = id + "_db";
        // ZooKeeper clients cost far more to open and close than H2 pools: a fraction of the deployments. More of them
        // with operator-drops-layout on: repair-acl, which rewrites every record of a pool, exists only there.
        boolean zookeeper = random.nextInt(100) < (scenarios.contains(Scenario.OPERATOR_DROPS_LAYOUT) ? 12 : 7);
        cluster = zookeeper && random.nextBoolean();
        configure(zookeeper);
    }

    private boolean on(final Scenario scenario) {
        return scenarios.contains(scenario);
    }

    // ---------------------------------------------------------------- configuration

    private void configure(final boolean zookeeper) {
        int poolCount = 1 + random.nextInt(2);
        for (int i = 0; i < poolCount; i++) {
            Store store = zookeeper ? pick(cluster ? List.of(Store.ZOOKEEPER, Store.CLUSTER_MODE, Store.JDBC) : List.of(Store.ZOOKEEPER, Store.JDBC)) : Store.JDBC;
            pools.add(new Pool(id + "_p" + i, store, random));
        }
        int generatorCount = 1 + random.nextInt(3);
        for (int i = 0; i < generatorCount; i++) {
            Generator generator = new Generator("g" + i);
            generator.segment = random.nextInt(100) < 35;
            if (generator.segment) {
                generator.allocator = zookeeper ? pick(cluster ? List.of(Store.ZOOKEEPER, Store.CLUSTER_MODE, Store.JDBC) : List.of(Store.ZOOKEEPER, Store.JDBC)) : Store.JDBC;
                generator.zookeeperNamespace = generator.allocator == Store.ZOOKEEPER && random.nextBoolean() ? id + "_s" : null;
                generator.segmentKey = random.nextInt(100) < 25 ? id + "_" + generator.name : null;
                generator.startValue = random.nextInt(100) < 30 ? 1 + random.nextInt(1000) : 0;
                generator.stepMin = 5 + random.nextInt(40);
                generator.stepMax = generator.stepMin + random.nextInt(2000);
            } else {
                generator.pool = pick(pools);
                generator.globalScope = random.nextInt(100) < 40;
            }
            generators.add(generator);
        }
        int tableCount = 2 + random.nextInt(3);
        for (int i = 0; i < tableCount; i++) {
            String table = "t" + i;
            tables.add(table);
            rule.put(table, pick(generators));
            if (rule.get(table).segment) {
                segmentOf.put(table, rule.get(table));
            }
        }
        if (random.nextInt(100) < (cluster ? 60 : 30)) {
            configureBean(zookeeper);
        }
        int roll = random.nextInt(100);
        int runtimeCount = roll < 50 ? 1 : roll < 85 ? 2 : 3;
        for (int i = 0; i < runtimeCount; i++) {
            runtimes.add(new Runtime(i));
        }
    }

    /**
     * The Spring beans publish one generator's settings as the JVM's defaults and that generator's YAML props are left
     * empty (it inherits them). In Cluster mode with {@link Scenario#BEAN_BESIDE_CLUSTER_YAML} the bean names ZooKeeper
     * without a namespace, as an application does that leaves the namespace to ShardingSphere's mode.
     */
    private void configureBean(final boolean zookeeper) {
        Generator source = pick(generators);
        boolean bareZookeeper = cluster ? on(Scenario.BEAN_BESIDE_CLUSTER_YAML) : zookeeper && random.nextBoolean();
        if (source.segment) {
            if (source.segmentKey != null) {
                return;
            }
            source.allocator = bareZookeeper && zookeeper ? Store.ZOOKEEPER : source.allocator == Store.CLUSTER_MODE ? Store.ZOOKEEPER : source.allocator;
            source.zookeeperNamespace = source.allocator == Store.ZOOKEEPER && !bareZookeeper ? id + "_bean" : null;
        } else {
            Pool own = new Pool(id + "_bean", bareZookeeper && zookeeper ? Store.ZOOKEEPER : Store.JDBC, random);
            own.namespaceSet = !(bareZookeeper && zookeeper);
            pools.add(own);
            source.pool = own;
        }
        beanSource = source;
    }

    // ---------------------------------------------------------------- props

    private String jdbcUrl(final Runtime runtime) {
        return RuntimeConnections.url(id + "r" + runtime.index);
    }

    /** Each runtime spells the one server differently: SnowKey keys its scopes by the server list, so each runtime gets scopes of its own, as separate JVMs have. */
    private String servers(final Runtime runtime) {
        String port = stores.zookeeperServers().substring("127.0.0.1:".length());
        return switch (runtime.index) {
            case 0 -> "127.0.0.1:" + port;
            case 1 -> "localhost:" + port;
            default -> "127.0.0.1:" + port + ",localhost:" + port;
        };
    }

    private Optional<ClusterRegistry> mode(final Runtime runtime) {
        return cluster ? Optional.of(new ClusterRegistry("ZooKeeper", id + "_gov", servers(runtime), new Properties())) : Optional.empty();
    }

    private Properties poolProps(final Pool pool, final Runtime runtime) {
        Properties props = new Properties();
        props.setProperty("worker-id-bits", Integer.toString(pool.workerIdBits));
        props.setProperty("sequence-low-bits", Integer.toString(pool.lowBits));
        props.setProperty("epoch", pool.epoch);
        props.setProperty("max-time-cache-milliseconds", Long.toString(pool.cacheMillis));
        props.setProperty("max-tolerate-time-difference-milliseconds", Long.toString(pool.toleranceMillis));
        props.setProperty("lease-duration-milliseconds", Long.toString(pool.leaseMillis));
        props.setProperty("lease-pool", pool.name);
        props.setProperty("lease-acquire-timeout-milliseconds", "1000");
        switch (pool.store) {
            case JDBC -> {
                props.setProperty("lease-registry", "jdbc");
                props.setProperty("jdbc-url", jdbcUrl(runtime));
                props.setProperty("jdbc-table", id + "_lease");
            }
            case ZOOKEEPER -> {
                props.setProperty("lease-registry", "zookeeper");
                props.setProperty("zookeeper-server-lists", servers(runtime));
                if (pool.namespaceSet) {
                    props.setProperty("zookeeper-namespace", id + "_l");
                }
            }
            default -> {
                // Cluster mode: the lease comes from the mode's ZooKeeper and namespace.
            }
        }
        return props;
    }

    private Properties allocatorProps(final Generator generator, final Runtime runtime) {
        Properties props = new Properties();
        props.setProperty("segment-step-min", Integer.toString(generator.stepMin));
        props.setProperty("segment-step-max", Integer.toString(generator.stepMax));
        props.setProperty("segment-fetch-timeout-milliseconds", "2000");
        switch (generator.allocator) {
            case JDBC -> {
                props.setProperty("segment-allocator", "jdbc");
                props.setProperty("jdbc-url", jdbcUrl(runtime));
                props.setProperty("jdbc-table", id + "_seg");
            }
            case ZOOKEEPER -> {
                props.setProperty("segment-allocator", "zookeeper");
                props.setProperty("zookeeper-server-lists", servers(runtime));
                if (generator.zookeeperNamespace != null) {
                    props.setProperty("zookeeper-namespace", generator.zookeeperNamespace);
                }
            }
            default -> props.setProperty("segment-allocator", "zookeeper");
        }
        return props;
    }

    /** The props a key generator's YAML gives it in this runtime. */
    private Properties yamlProps(final Generator generator, final Runtime runtime) {
        Properties props = new Properties();
        if (generator.segment) {
            if (generator != beanSource) {
                props.putAll(allocatorProps(generator, runtime));
            }
            if (generator.segmentKey != null) {
                props.setProperty("segment-key", generator.segmentKey);
            }
            if (generator.startValue > 0) {
                props.setProperty("segment-start-value", Long.toString(generator.startValue));
            }
        } else {
            if (generator != beanSource) {
                props.putAll(poolProps(generator.pool, runtime));
            }
            props.setProperty("sequence-scope", generator.globalScope ? "global" : "table");
        }
        return props;
    }

    // ---------------------------------------------------------------- id spaces

    /** The id spaces a key of this table from this generator belongs to. */
    private Set<String> spacesOf(final String table, final Generator generator) {
        Set<String> result = new LinkedHashSet<>();
        result.add("table " + table);
        if (generator.segment) {
            result.add("sequence " + (generator.segmentKey != null ? generator.segmentKey : database + "." + table));
        } else if (generator.globalScope || on(Scenario.TABLES_SHARE_GENERATOR)) {
            result.add("key generator " + generator.name);
        } else {
            result.add("key generator " + generator.name + ", table " + table);
        }
        return result;
    }

    // ---------------------------------------------------------------- runtimes

    private void open(final Runtime runtime) {
        runtime.owner = new Object();
        runtime.held.clear();
        runtime.open = true;
        runtime.incarnation++;
        if (beanSource != null) {
            openBean(runtime);
        }
        buildKeyGenerators(runtime);
    }

    /** What SnowKey's auto-configuration does with the settings: publish them as defaults, then open the bean on them (planned without a mode). */
    private void openBean(final Runtime runtime) {
        try {
            if (beanSource.segment) {
                Properties props = allocatorProps(beanSource, runtime);
                SegmentPlanner planner = SegmentPlanner.get();
                runtime.segmentBean = SnowKeySegments.open(SegmentRuntime.get(), planner.plan(planner.parse(props), Optional.empty()));
            } else {
                Properties props = poolProps(beanSource.pool, runtime);
                SnowflakePlanner planner = SnowflakePlanner.get();
                runtime.idBean = SnowKeyIdGenerator.open(SnowflakeRuntime.get(), planner.plan(planner.parse(props), Optional.empty()));
            }
        } catch (final RuntimeException ex) {
            note("r" + runtime.index + " bean failed to open: " + ex);
        }
    }

    private void publishDefaults(final Runtime runtime) {
        Properties snowflake = new Properties();
        Properties segment = new Properties();
        if (runtime == null || beanSource == null) {
            // No Spring context: nothing published.
        } else if (beanSource.segment) {
            segment = allocatorProps(beanSource, runtime);
        } else {
            snowflake = poolProps(beanSource.pool, runtime);
        }
        SnowflakePlanner.get().setDefaults(snowflake);
        SegmentPlanner.get().setDefaults(segment);
    }

    /** ShardingSphere builds every key generator of the rule anew (start-up, rule change) and hands each the instance context. */
    private void buildKeyGenerators(final Runtime runtime) {
        runtime.algorithms.clear();
        Map<Generator, Object> initialised = new LinkedHashMap<>();
        // The defaults are the JVM's: deployments running in parallel publish and read them one at a time.
        synchronized (SnowflakePlanner.class) {
            publishDefaults(runtime);
            try {
                for (Generator each : generators) {
                    Properties props = yamlProps(each, runtime);
                    try {
                        if (each.segment) {
                            SnowKeySegmentKeyGenerateAlgorithm algorithm = new SnowKeySegmentKeyGenerateAlgorithm();
                            algorithm.init(props);
                            initialised.put(each, algorithm);
                        } else {
                            ImprovedSnowflakeKeyGenerateAlgorithm algorithm = new ImprovedSnowflakeKeyGenerateAlgorithm();
                            algorithm.init(props);
                            initialised.put(each, algorithm);
                        }
                    } catch (final RuntimeException ex) {
                        note("r" + runtime.index + " key generator " + each.name + " rejected its props: " + ex.getMessage());
                        stats.refusedStarts++;
                    }
                }
            } finally {
                publishDefaults(null);
            }
        }
        for (Map.Entry<Generator, Object> entry : initialised.entrySet()) {
            Generator each = entry.getKey();
            try {
                if (entry.getValue() instanceof SnowKeySegmentKeyGenerateAlgorithm algorithm) {
                    algorithm.bindInstanceContext(mode(runtime), runtime.owner);
                    runtime.algorithms.put(each, algorithm::generateKeys);
                } else {
                    ImprovedSnowflakeKeyGenerateAlgorithm algorithm = (ImprovedSnowflakeKeyGenerateAlgorithm) entry.getValue();
                    algorithm.bindInstanceContext(mode(runtime), runtime.owner);
                    runtime.algorithms.put(each, algorithm::generateKeys);
                    int workerId = KeyGeneratorFixtures.boundGenerator(algorithm).currentGrant().workerId();
                    each.pool.workerIds.add(workerId);
                    runtime.held.computeIfAbsent(each.pool, key -> new TreeSet<>()).add(workerId);
                }
            } catch (final RuntimeException ex) {
                note("r" + runtime.index + " key generator " + each.name + " did not start: " + ex.getMessage());
                stats.refusedStarts++;
            }
        }
    }

    /** ShardingSphere destroys the context: SnowKey releases what it owned. Twice when {@code twice}, as a double close does. */
    private void close(final Runtime runtime, final boolean twice) {
        InstanceContexts.release(runtime.owner);
        if (twice) {
            InstanceContexts.release(runtime.owner);
        }
        if (runtime.idBean != null) {
            runtime.idBean.close();
            runtime.idBean = null;
        }
        if (runtime.segmentBean != null) {
            runtime.segmentBean.close();
            runtime.segmentBean = null;
        }
        runtime.algorithms.clear();
        runtime.open = false;
    }

    // ---------------------------------------------------------------- the run

    /** Runs the deployment; returns its failure (a key twice in an id space, a generator that no longer issues) or null. */
    String run() {
        try {
            for (Runtime each : runtimes) {
                open(each);
            }
            int steps = 6 + random.nextInt(14);
            for (int i = 0; i < steps && spaces.firstDuplicate() == null; i++) {
                step();
                for (Runtime each : runtimes) {
                    each.tickFaults();
                }
            }
            for (Runtime each : runtimes) {
                RuntimeConnections.faults(token(each)).disarm();
            }
            if (spaces.firstDuplicate() == null) {
                checkLiveness();
            }
        } finally {
            shutDown();
        }
        stats.keys = spaces.keys();
        if (spaces.firstDuplicate() != null) {
            return spaces.firstDuplicate();
        }
        return livenessFailure;
    }

    private String token(final Runtime runtime) {
        return id + "r" + runtime.index;
    }

    private void step() {
        int roll = random.nextInt(100);
        Runtime runtime = pick(runtimes);
        if (roll < 40) {
            issue(runtime, pick(tables), 1 + random.nextInt(random.nextInt(100) < 80 ? 8 : 200), random.nextBoolean());
        } else if (roll < 52) {
            interleave(runtime, 2 + random.nextInt(30));
        } else if (roll < 58) {
            idle();
        } else if (roll < 66) {
            changeRule();
        } else if (roll < 76) {
            if (runtime.open) {
                boolean twice = random.nextInt(100) < 40;
                note("r" + runtime.index + " closes its data source" + (twice ? " twice" : ""));
                close(runtime, twice);
            } else {
                note("r" + runtime.index + " opens its data source again");
                open(runtime);
            }
        } else if (roll < 82) {
            redeployWithOtherLayout();
        } else if (roll < 88) {
            if (on(Scenario.OPERATOR_DROPS_LAYOUT) && random.nextBoolean()) {
                operatorAfterOutage();
            } else {
                operatorCommand(pick(pools));
            }
        } else if (roll < 95) {
            armFaults(runtime);
        } else {
            crash(runtime);
        }
    }

    private void issue(final Runtime runtime, final String table, final int count, final boolean batch) {
        if (!runtime.open) {
            return;
        }
        Generator generator = rule.get(table);
        Set<String> tableSpaces = spacesOf(table, generator);
        String where = "r" + runtime.index + "." + runtime.incarnation + " " + generator.name + " " + table;
        boolean throughBean = generator == beanSource && random.nextInt(100) < 40 && (runtime.idBean != null || runtime.segmentBean != null);
        try {
            if (throughBean) {
                issueThroughBean(runtime, table, generator, count, tableSpaces, where + " (bean)");
                return;
            }
            KeySource source = runtime.algorithms.get(generator);
            if (source == null) {
                return;
            }
            AlgorithmSQLContext context = new AlgorithmSQLContext(database, "public", table, "id");
            if (batch) {
                record(source.generateKeys(context, count), generator, tableSpaces, where);
            } else {
                for (int i = 0; i < count; i++) {
                    record(source.generateKeys(context, 1), generator, tableSpaces, where);
                }
            }
        } catch (final RuntimeException ex) {
            stats.failedCalls++;
            note(where + " failed: " + ex.getMessage());
        }
    }

    /** The application's own use of the table's sequence or stream through the bean, as the bean's documentation shows it. */
    private void issueThroughBean(final Runtime runtime, final String table, final Generator generator, final int count, final Set<String> tableSpaces,
                                  final String where) {
        for (int i = 0; i < count; i++) {
            long key;
            if (runtime.segmentBean != null) {
                key = runtime.segmentBean.sequence(database + "." + table).nextId();
            } else if (generator.globalScope) {
                key = runtime.idBean.nextId();
            } else {
                key = runtime.idBean.stream(database + "." + table).nextId();
            }
            spaces.record(key, tableSpaces, where);
        }
    }

    private void record(final Collection<? extends Comparable<?>> keys, final Generator generator, final Set<String> tableSpaces, final String where) {
        for (Comparable<?> each : keys) {
            spaces.record(((Number) each).longValue(), tableSpaces, where);
        }
        if (!generator.segment && generator.pool.firstIssueMillis == 0) {
            generator.pool.firstIssueMillis = System.currentTimeMillis();
        }
    }

    /** One key per table in turn, like an order and its items inserted together. */
    private void interleave(final Runtime runtime, final int rounds) {
        for (int i = 0; i < rounds; i++) {
            for (String each : tables) {
                issue(runtime, each, 1, false);
            }
        }
    }

    /**
     * Real idleness, a few milliseconds: longer than the small time cache caps drawn. Parked rather than spun, so the
     * other deployments get the cores meanwhile; a park may end early, hence the loop.
     */
    private void idle() {
        long until = System.nanoTime() + (2 + random.nextInt(4)) * 1_000_000L;
        for (long left = until - System.nanoTime(); left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    /** Moves a table to another key generator and rebuilds the key generators in every open runtime, as a DistSQL ALTER does. */
    private void changeRule() {
        String table = pick(tables);
        Generator from = rule.get(table);
        List<Generator> allowed = new ArrayList<>();
        for (Generator each : generators) {
            if (each != from && mayMove(from, each) && keepsSegmentSequence(table, each)) {
                allowed.add(each);
            }
        }
        if (allowed.isEmpty()) {
            return;
        }
        Generator to = pick(allowed);
        rule.put(table, to);
        if (to.segment) {
            segmentOf.putIfAbsent(table, to);
        }
        note("rule change: " + table + " from " + from.name + " to " + to.name);
        for (Runtime each : runtimes) {
            if (each.open) {
                buildKeyGenerators(each);
            }
        }
        if (random.nextBoolean()) {
            // Traffic right after the change, as an application goes on inserting into the moved table.
            issue(pick(runtimes), table, 500 + random.nextInt(2500), true);
        }
    }

    /** A table that had keys from a segment sequence may only come back to that sequence, also by way of a snowflake generator. */
    private boolean keepsSegmentSequence(final String table, final Generator to) {
        Generator before = segmentOf.get(table);
        return !to.segment || before == null || before == to || mayMove(before, to);
    }

    /**
     * A move keeps the table's stream or sequence (same pool and sequence scope; same allocator and per-table sequence),
     * or changes the key type. Moves to another stream of the same pool are {@link Scenario#RULE_CHANGE_OTHER_STREAM}.
     * A move between segment sequences never is: the configuration then names another sequence for the table.
     */
    private boolean mayMove(final Generator from, final Generator to) {
        if (from.segment != to.segment) {
            return true;
        }
        if (from.segment) {
            return from.segmentKey == null && to.segmentKey == null && from.allocator == to.allocator && java.util.Objects.equals(from.zookeeperNamespace,
                    to.zookeeperNamespace) && from != beanSource && to != beanSource;
        }
        // Another pool is another id space (README: two pools can issue the same ids), so a table moved there and back
        // holds keys of two spaces and no promise covers the pair; moves of a table between streams of one pool are the
        // case SnowKey promises (one worker id, one counter).
        boolean sameStream = from.pool == to.pool && from.globalScope == to.globalScope;
        return sameStream || on(Scenario.RULE_CHANGE_OTHER_STREAM) && from.pool == to.pool;
    }

    /**
     * A closed runtime comes back with another id layout for one pool: its epoch moved later by about as long as the pool
     * has issued (plus the reservation a crashed holder left), the shape of a redeploy with another epoch. The pool's
     * records must refuse it; when it is admitted, a burst of its keys covers the time the pool already issued.
     */
    private void redeployWithOtherLayout() {
        List<Pool> issued = pools.stream().filter(each -> each.firstIssueMillis > 0).toList();
        if (!issued.isEmpty()) {
            redeployWithOtherLayout(pick(issued));
        }
    }

    private void redeployWithOtherLayout(final Pool pool) {
        List<Runtime> closed = runtimes.stream().filter(each -> !each.open).toList();
        if (closed.isEmpty() || pool.firstIssueMillis == 0) {
            return;
        }
        if (pool.operated && !on(Scenario.OPERATOR_DROPS_LAYOUT)) {
            return;
        }
        Runtime runtime = pick(closed);
        long shift = System.currentTimeMillis() - pool.firstIssueMillis + 5 + (pool.crashed ? pool.leaseMillis : 0);
        pool.epoch = java.time.Instant.parse(pool.epoch).plusMillis(shift).toString();
        note("r" + runtime.index + " redeploys with pool " + pool.name + "'s epoch moved " + shift + " ms later");
        open(runtime);
        for (Generator each : generators) {
            if (each.pool == pool && runtime.algorithms.containsKey(each)) {
                long burst = Math.min(60_000, (shift + 10) << (22 - pool.workerIdBits));
                for (String table : tables) {
                    if (rule.get(table) == each) {
                        issue(runtime, table, (int) burst, true);
                    }
                }
            }
        }
    }

    /**
     * The operator's usual occasion: a pool's runtimes went down (crashed, or on ZooKeeper stopped), the operator frees
     * or repairs the pool's numbers, and a runtime comes back with another epoch. The pool must still refuse it: only
     * its records' layouts remember the layout its ids were made with (problem 5: a {@code release} or
     * {@code repair-acl} that rewrote records without it let the second layout in). Random steps alone rarely line
     * this up, since a gracefully closed holder keeps its layout and only every holder crashed, then released, loses it.
     */
    private void operatorAfterOutage() {
        List<Pool> issued = pools.stream().filter(each -> each.firstIssueMillis > 0).toList();
        if (issued.isEmpty()) {
            return;
        }
        Pool pool = pick(issued);
        note("outage of pool " + pool.name + "'s runtimes");
        for (Runtime each : runtimes) {
            if (each.open && !each.workerIds(pool).isEmpty()) {
                if (pool.store == Store.JDBC || random.nextBoolean()) {
                    crash(each);
                } else {
                    note("r" + each.index + " stops");
                    close(each, false);
                }
            }
        }
        operatorCommand(pool);
        redeployWithOtherLayout(pool);
    }

    /** LeaseCli between steps: {@code release} of a pool's numbers (JDBC, ZooKeeper), {@code repair-acl} (ZooKeeper). */
    private void operatorCommand(final Pool pool) {
        if (pool.workerIds.isEmpty()) {
            return;
        }
        List<String> base = new ArrayList<>();
        switch (pool.store) {
            case JDBC -> base.addAll(List.of("--registry", "jdbc", "--url", RuntimeConnections.url(id + "op"), "--table", id + "_lease"));
            case ZOOKEEPER -> {
                base.addAll(List.of("--registry", "zookeeper", "--servers", stores.zookeeperServers()));
                if (pool.namespaceSet) {
                    base.addAll(List.of("--namespace", id + "_l"));
                }
            }
            default -> base.addAll(List.of("--registry", "zookeeper", "--servers", stores.zookeeperServers(), "--namespace", id + "_gov"));
        }
        base.addAll(List.of("--pool", pool.name));
        pool.operated = true;
        if (pool.store != Store.JDBC && random.nextBoolean()) {
            List<String> args = new ArrayList<>(base);
            args.addAll(List.of("--lease-duration-milliseconds", Long.toString(pool.leaseMillis), "repair-acl", LeaseCli.CONFIRM));
            int status = LeaseCli.run(args.toArray(String[]::new), Map.of(), DISCARD, DISCARD);
            note("operator: repair-acl on pool " + pool.name + " exited " + status);
            return;
        }
        // Only numbers whose holder is gone: releasing a live holder's number leaves its successor waiting out the reservation.
        for (int workerId : new TreeSet<>(pool.workerIds)) {
            if (heldByOpenRuntime(pool, workerId)) {
                continue;
            }
            List<String> args = new ArrayList<>(base);
            args.addAll(List.of("release", Integer.toString(workerId), LeaseCli.CONFIRM));
            int status = LeaseCli.run(args.toArray(String[]::new), Map.of(), DISCARD, DISCARD);
            note("operator: release " + workerId + " of pool " + pool.name + " exited " + status);
        }
    }

    private boolean heldByOpenRuntime(final Pool pool, final int workerId) {
        for (Runtime each : runtimes) {
            if (each.open && each.workerIds(pool).contains(workerId)) {
                return true;
            }
        }
        return false;
    }

    private void armFaults(final Runtime runtime) {
        int percent = 5 + random.nextInt(30);
        runtime.faultSteps = 1 + random.nextInt(3);
        RuntimeConnections.faults(token(runtime)).arm(random.nextLong(), percent, on(Scenario.PROBE_FAULTS));
        note("r" + runtime.index + ": " + percent + "% of store calls fail for " + runtime.faultSteps + " steps");
    }

    /** The runtime stops without releasing anything: every store call of its close fails. */
    private void crash(final Runtime runtime) {
        if (!runtime.open) {
            return;
        }
        StoreFaults faults = RuntimeConnections.faults(token(runtime));
        faults.arm(random.nextLong(), 100, true);
        note("r" + runtime.index + " crashes (its releases fail)");
        for (Generator each : generators) {
            if (!each.segment && runtime.algorithms.containsKey(each) && each.pool.store == Store.JDBC) {
                each.pool.crashed = true;
            }
        }
        close(runtime, false);
        faults.disarm();
        runtime.faultSteps = 0;
    }

    /** After the faults stop, every key generator that started issues again, in every open runtime. */
    private void checkLiveness() {
        for (Runtime runtime : runtimes) {
            if (!runtime.open) {
                continue;
            }
            for (String table : tables) {
                Generator generator = rule.get(table);
                KeySource source = runtime.algorithms.get(generator);
                if (source == null) {
                    continue;
                }
                RuntimeException last = null;
                boolean issued = false;
                // Tries for a while rather than a number of times: on a loaded machine one store call may outlast its timeout.
                long deadline = System.nanoTime() + LIVENESS_NANOS;
                while (!issued && System.nanoTime() < deadline) {
                    try {
                        record(source.generateKeys(new AlgorithmSQLContext(database, "public", table, "id"), 1), generator, spacesOf(table, generator),
                                "r" + runtime.index + " " + generator.name + " " + table + " (after faults)");
                        issued = true;
                    } catch (final RuntimeException ex) {
                        last = ex;
                    }
                }
                if (!issued && livenessFailure == null) {
                    livenessFailure = "key generator " + generator.name + " of runtime r" + runtime.index + " issues no key for " + table
                            + " after the faults stopped: " + last;
                }
            }
        }
    }

    private void shutDown() {
        for (Runtime each : runtimes) {
            RuntimeConnections.faults(token(each)).disarm();
            if (each.open) {
                close(each, false);
            }
            RuntimeConnections.forget(token(each));
        }
        RuntimeConnections.forget(id + "op");
        stores.dropTables(id + "_");
    }

    private void note(final String line) {
        trace.add(line);
    }

    private <T> T pick(final List<T> from) {
        return from.get(random.nextInt(from.size()));
    }

    String describe() {
        StringBuilder result = new StringBuilder();
        result.append("deployment ").append(id).append(cluster ? " (Cluster mode, ZooKeeper)" : " (Standalone)").append(", ").append(runtimes.size())
                .append(" runtime(s)\n");
        for (Pool each : pools) {
            result.append("  pool ").append(each).append('\n');
        }
        for (Generator each : generators) {
            result.append("  key generator ").append(each).append(each == beanSource ? " (inherits the Spring bean's settings)" : "").append('\n');
        }
        result.append("  tables at start: see trace; rule now ").append(rule.entrySet().stream().map(e -> e.getKey() + "->" + e.getValue().name).toList())
                .append('\n');
        trace.forEach(line -> result.append("  | ").append(line).append('\n'));
        return result.toString();
    }

    DeploymentStats stats() {
        return stats;
    }

    Set<Scenario> scenarios() {
        return scenarios;
    }

    /** Issues keys for one table: the algorithm's {@code generateKeys}. */
    @FunctionalInterface
    private interface KeySource {
        Collection<? extends Comparable<?>> generateKeys(AlgorithmSQLContext context, int count);
    }

    /** A worker-id pool and the id layout and timing its generators share. */
    private static final class Pool {

        private final String name;

        private final Store store;

        private final int workerIdBits;

        private final int lowBits;

        private String epoch;

        private final long cacheMillis;

        private final long toleranceMillis;

        private final long leaseMillis;

        private boolean namespaceSet = true;

        private final Set<Integer> workerIds = new TreeSet<>();

        private long firstIssueMillis;

        private boolean operated;

        private boolean crashed;

        Pool(final String name, final Store store, final Random random) {
            this.name = name;
            this.store = store;
            workerIdBits = List.of(8, 10, 13, 13, 16).get(random.nextInt(5));
            lowBits = random.nextInt(3);
            epoch = random.nextBoolean() ? "2025-01-01T00:00:00Z" : "2024-06-01T00:00:00Z";
            cacheMillis = List.of(0L, 1L, 3L, 10_000L).get(random.nextInt(4));
            // Short leases: a failed acquisition retries after a tenth of the lease, and a successor waits out a crashed holder's reservation.
            leaseMillis = random.nextBoolean() ? 1_000L : 2_000L;
            toleranceMillis = leaseMillis + 500L;
        }

        @Override
        public String toString() {
            return name + " " + store + (namespaceSet ? "" : " (no namespace)") + " worker-id-bits=" + workerIdBits + " sequence-low-bits=" + lowBits
                    + " epoch=" + epoch + " max-time-cache=" + cacheMillis + " lease=" + leaseMillis + " ms";
        }
    }

    /** One named key generator of the sharding rule. */
    private static final class Generator {

        private final String name;

        private boolean segment;

        private Pool pool;

        private boolean globalScope;

        private Store allocator;

        private String zookeeperNamespace;

        private String segmentKey;

        private long startValue;

        private int stepMin;

        private int stepMax;

        Generator(final String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return segment ? name + " SNOWKEY_SEGMENT allocator=" + allocator + (zookeeperNamespace == null ? "" : " namespace=" + zookeeperNamespace)
                    + (segmentKey == null ? "" : " segment-key=" + segmentKey) + " start=" + startValue + " steps=" + stepMin + ".." + stepMax
                    : name + " IMPROVED_SNOWFLAKE pool=" + pool.name + " sequence-scope=" + (globalScope ? "global" : "table");
        }
    }

    /** One simulated JVM: its data source's instance context (the owner), key generators and beans. */
    private final class Runtime {

        private final int index;

        private Object owner;

        private boolean open;

        private int incarnation;

        private int faultSteps;

        private final Map<Generator, KeySource> algorithms = new HashMap<>();

        private final Map<Pool, Set<Integer>> held = new HashMap<>();

        private SnowKeyIdGenerator idBean;

        private SnowKeySegments segmentBean;

        Runtime(final int index) {
            this.index = index;
        }

        void tickFaults() {
            if (faultSteps > 0 && --faultSteps == 0) {
                RuntimeConnections.faults(token(this)).disarm();
            }
        }

        /** The worker ids this incarnation's key generators of the pool were granted. */
        Set<Integer> workerIds(final Pool pool) {
            return held.getOrDefault(pool, Set.of());
        }
    }
}
