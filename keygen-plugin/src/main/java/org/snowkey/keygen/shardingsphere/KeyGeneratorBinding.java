package org.snowkey.keygen.shardingsphere;

import java.util.Optional;
import java.util.Properties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.config.SequenceScope;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.generator.SequenceStream;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.runtime.ScopePlan;
import org.snowkey.keygen.runtime.ScopePlanner;
import org.snowkey.keygen.runtime.SnowKeySettings;
import org.snowkey.keygen.runtime.SnowKeyRuntime;

/**
 * What a ShardingSphere key generate algorithm of any line does with SnowKey: validate props at {@code init()},
 * bind the scope's generator (and lease) when ShardingSphere hands over its instance context, and pick the
 * sequence stream of an INSERT. Free of ShardingSphere types, so that the 5.5 algorithm and the adapters of
 * the older lines share it and stay a few lines of glue each.
 *
 * <p>{@link #init} connects to nothing: ShardingSphere builds throw-away instances while it checks rules.
 */
public final class KeyGeneratorBinding {

    private static final Logger LOG = LoggerFactory.getLogger(KeyGeneratorBinding.class);

    private Properties props = new Properties();

    /** Parsed once at {@link #init}; every later plan starts from it, never from the props. */
    private volatile SnowKeySettings settings;

    private SequenceScope sequenceScope = SequenceScope.TABLE;

    private volatile IdGenerator generator;

    /** What {@link #bind} was given, so that a generation that ended under a live key generator is joined again the same way. */
    private volatile Optional<ClusterRegistry> boundCluster = Optional.empty();

    private volatile Object boundOwner;

    /**
     * Why {@link #bind} failed, for lines that ignore a failure of the callback that binds (ShardingSphere 5.5.0's
     * listeners): keys then fail naming it instead of binding without the context.
     */
    private volatile RuntimeException bindFailure;

    /** The stream of each table, for the generator bound (the generator folds case and quotes of the name). */
    private final TableCache<IdGenerator, SequenceStream> streams = new TableCache<>(IdGenerator::stream);

    /**
     * Parses and validates every prop, once, without I/O (over the JVM's defaults, {@link ScopePlanner#setDefaults}).
     *
     * @throws org.snowkey.keygen.config.InvalidSettingException naming the prop and the value
     */
    public void init(final Properties props) {
        this.props = props == null ? new Properties() : props;
        settings = ScopePlanner.get().parseInheritingDefaults(this.props);
        sequenceScope = settings.generator().sequenceScope();
    }

    /** The settings parsed at {@link #init}; an instance ShardingSphere never initialised has the defaults alone. */
    private SnowKeySettings settings() {
        SnowKeySettings current = settings;
        if (current == null) {
            current = ScopePlanner.get().parseInheritingDefaults(props);
            settings = current;
        }
        return current;
    }

    /** Where these settings would lease without the mode, as a Spring bean that planned before it plans; null when they cannot. */
    private String storeWithoutMode() {
        try {
            return ScopePlanner.get().plan(settings(), Optional.empty()).scopeKey();
        } catch (final RuntimeException ex) {
            return null;
        }
    }

    /** The props given to {@link #init}. */
    public Properties props() {
        return props;
    }

    /**
     * Binds the generator of the scope, owned by {@code owner} (ShardingSphere's instance context), and acquires
     * its lease now, while ShardingSphere starts: a missing lease fails start-up, not the first INSERT.
     *
     * @param cluster the Cluster mode repository of ShardingSphere's mode configuration, when there is one
     */
    public void bind(final Optional<ClusterRegistry> cluster, final Object owner) {
        ClusterRegistriesSeen.add(cluster);
        IdGenerator bound;
        try {
            ScopePlan plan = ScopePlanner.get().planInKnownMode(settings(), cluster);
            if (cluster.isPresent()) {
                PlansWithoutMode.checkWorkerIds(settings().props(), plan.scopeKey(), storeWithoutMode(), ImprovedSnowflakeKeyGenerateAlgorithm.TYPE);
            }
            bound = SnowKeyRuntime.get().generator(plan, owner);
            logActive(bound);
        } catch (final RuntimeException ex) {
            bindFailure = ex;
            throw ex;
        }
        bindFailure = null;
        boundCluster = cluster;
        boundOwner = owner;
        generator = bound;
    }

    /** The line users look for to confirm SnowKey, not ShardingSphere's own SNOWFLAKE, fills their keys (README). Takes the lease. */
    private static void logActive(final IdGenerator bound) {
        LOG.info("SnowKey IMPROVED_SNOWFLAKE is active: worker id {} from {}", bound.currentGrant().workerId(), bound);
    }

    /** The stream of an INSERT into that table ({@code sequence-scope: table}) or the scope's one stream ({@code global}). */
    public SequenceStream stream(final String database, final String table) {
        IdGenerator current = generator();
        if (sequenceScope == SequenceScope.GLOBAL) {
            return current.stream(IdGenerator.DEFAULT_STREAM);
        }
        return streams.get(current, database, table);
    }

    /**
     * The stream for ShardingSphere lines whose {@code generateKey()} does not name the table (5.1 to 5.4): the
     * scope's one stream, whatever {@code sequence-scope} says. A stream per algorithm instance would not do:
     * ShardingSphere rebuilds instances when rules change, and two streams on one worker id may repeat ids.
     */
    public SequenceStream streamWithoutTable() {
        return generator().stream(IdGenerator.DEFAULT_STREAM);
    }

    /**
     * The plan of an instance ShardingSphere never handed its context: with the props alone, unless they name no
     * worker id source and this JVM runs ShardingSphere in Cluster mode, where worker id 0 would be a duplicate
     * waiting to happen. Then the one registry seen is used; with several, or in Cluster mode with none that SnowKey could
     * read, the key generator fails closed.
     */
    private ScopePlan planWithoutContext() {
        ScopePlan plan = ScopePlanner.get().plan(settings(), Optional.empty());
        if (!plan.unguardedStaticWorkerId()) {
            return plan;
        }
        Optional<ClusterRegistry> seen = ClusterRegistriesSeen.theOne(ImprovedSnowflakeKeyGenerateAlgorithm.TYPE, PropertyNames.LEASE_REGISTRY);
        if (seen.isEmpty() && ClusterRegistriesSeen.clusterModeSeen()) {
            throw new IllegalStateException("SnowKey: this JVM runs ShardingSphere in Cluster mode, ShardingSphere did not pass its mode to this "
                    + ImprovedSnowflakeKeyGenerateAlgorithm.TYPE + " instance, and SnowKey could not read a Cluster registry from the mode, so it will not"
                    + " fall back to worker id 0 (every instance of the cluster would issue the same ids). Set " + PropertyNames.LEASE_REGISTRY
                    + " (and its props), or a " + PropertyNames.WORKER_ID + " unique to this instance, in this key generator's props");
        }
        return seen.isEmpty() ? plan : ScopePlanner.get().plan(settings(), seen);
    }

    /**
     * The generator this binding issues from, binding it (without a cluster registry) if ShardingSphere never did. A
     * generation that ended while this key generator still issues (its owner was released, or the scope was closed
     * under it) is joined again with what {@link #bind} was given: the next generation takes a lease of its own, so the
     * key generator recovers instead of failing every key on the closed one.
     */
    public IdGenerator generator() {
        IdGenerator current = generator;
        return current != null && !current.hasEnded() ? current : join();
    }

    /** Kept apart from {@link #generator()} so the key path stays small enough for the JIT to inline. */
    private synchronized IdGenerator join() {
        IdGenerator current = generator;
        if (current != null && !current.hasEnded()) {
            return current;
        }
        RuntimeException failed = bindFailure;
        if (current == null && failed != null) {
            throw new IllegalStateException("SnowKey: this key generator could not bind when ShardingSphere started (" + failed.getMessage()
                    + "), so it issues no keys; fix the cause and restart", failed);
        }
        Object owner = boundOwner;
        current = owner == null ? SnowKeyRuntime.get().generator(planWithoutContext())
                : SnowKeyRuntime.get().generator(ScopePlanner.get().planInKnownMode(settings(), boundCluster), owner);
        logActive(current);
        generator = current;
        return current;
    }
}
