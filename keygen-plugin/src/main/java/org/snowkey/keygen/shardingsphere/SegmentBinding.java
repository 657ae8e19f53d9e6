package org.snowkey.keygen.shardingsphere;

import java.util.List;
import java.util.Optional;
import java.util.Properties;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.generator.StreamNames;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.runtime.SegmentGeneratorSettings;
import org.snowkey.keygen.segment.runtime.SegmentPlan;
import org.snowkey.keygen.segment.runtime.SegmentPlanner;
import org.snowkey.keygen.segment.runtime.SegmentProps;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.segment.runtime.SegmentScope;

/**
 * What a {@code SNOWKEY_SEGMENT} algorithm does with SnowKey, free of ShardingSphere types: validate props at
 * {@code init()}, join the allocator scope when ShardingSphere hands over its instance context (or on the first key),
 * and pick the sequence of an INSERT: the logic table's ({@code <database>.<table>}, folded as ShardingSphere folds
 * table names) or the shared {@code segment-key}.
 */
public final class SegmentBinding {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentBinding.class);

    /** The owner of scopes joined by an instance ShardingSphere never handed its context: they live until JVM shutdown. */
    private static final Object UNOWNED = new Object();

    private Properties props = new Properties();

    private volatile SegmentGeneratorSettings settings;

    private volatile SegmentScope scope;

    /** What {@link #bind} was given, so that a scope closed under a live key generator is joined again the same way. */
    private volatile Optional<ClusterRegistry> boundCluster = Optional.empty();

    private volatile Object boundOwner;

    /** Why {@link #bind} failed, for ShardingSphere 5.5.0, which ignores it: keys then fail naming it (as KeyGeneratorBinding). */
    private volatile RuntimeException bindFailure;

    /**
     * The sequence of each table for the scope joined: the logic table's key ({@code <database>.<table>}, folded as
     * ShardingSphere folds table names), or the scope's shared {@code segment-key} for every table.
     */
    private final TableCache<SegmentScope, SegmentSequence> sequences = new TableCache<>(
            (scope, table) -> scope.sequence(scope.sharedKey() != null ? scope.sharedKey() : StreamNames.normalise(table)));

    /**
     * Parses and validates every prop, once, without I/O.
     *
     * @throws org.snowkey.keygen.config.InvalidSettingException naming the prop and the value
     */
    public void init(final Properties props) {
        SegmentGeneratorSettings parsed = parse(props);
        checkStartKeysCanApply(parsed);
        settings = parsed;
    }

    private SegmentGeneratorSettings parse(final Properties props) {
        this.props = props == null ? new Properties() : props;
        return SegmentPlanner.get().parseInheritingDefaults(this.props);
    }

    /**
     * In ShardingSphere a sequence key is {@code <database>.<table>}, or the {@code segment-key}: a start value of any
     * other key would be silently ignored, and a table moved to SnowKey would then get keys from 1, below (and
     * colliding with) the rows it already has. So such a key fails start-up instead. Only when the key generator's own
     * props set the start values: inherited ones (the Spring integration's {@code snowkey.segment.start-values}) also
     * serve the application's named sequences, whose keys are no tables, and must not stop YAML key generators.
     */
    private void checkStartKeysCanApply(final SegmentGeneratorSettings parsed) {
        if (!props.containsKey(SegmentProps.START_VALUES)) {
            return;
        }
        Object text = parsed.props().get(SegmentProps.START_VALUES);
        for (String each : new java.util.TreeSet<>(parsed.starts().perKey().keySet())) {
            if (parsed.sharedKey() != null && !each.equals(parsed.sharedKey())) {
                throw new InvalidSettingException(SegmentProps.START_VALUES, text, "cannot apply to key '" + each + "': " + SegmentProps.KEY + " = '"
                        + parsed.sharedKey() + "' gives every table the one key '" + parsed.sharedKey() + "'; give its start value instead, or use "
                        + SegmentProps.START_VALUE);
            }
            if (parsed.sharedKey() == null && each.indexOf('.') < 0) {
                throw new InvalidSettingException(SegmentProps.START_VALUES, text, "keys are <database>.<table>, the logic database and table (e.g. "
                        + "sharding_db.t_order); key '" + each + "' names no database, so it would never apply and the table would start at "
                        + parsed.starts().defaultStart());
            }
        }
    }

    /**
     * {@link #init} for ShardingSphere lines whose {@code generateKey()} does not name the table (5.1 to 5.4): there
     * the key generator needs {@code segment-key}. A sequence per algorithm instance would not do instead: ShardingSphere
     * rebuilds instances when rules change, and the keys of a table would then no longer increase in one JVM.
     *
     * @param line the ShardingSphere line, for the message
     */
    public void initWithoutTables(final Properties props, final String line) {
        SegmentGeneratorSettings parsed = parse(props);
        if (parsed.sharedKey() == null) {
            throw new InvalidSettingException(SegmentProps.KEY, null, "required on ShardingSphere " + line + ", whose key generators are not told the table:"
                    + " name the sequence, e.g. the logic table (" + SegmentProps.KEY + ": t_order); on ShardingSphere 5.5 each logic table has a sequence of its own");
        }
        // After the segment-key check: on these lines the start value that applies is the segment-key's.
        checkStartKeysCanApply(parsed);
        settings = parsed;
    }

    /** Where these settings would take ranges without the mode, as a Spring bean that planned before it does; null when they cannot. */
    private String storeWithoutMode() {
        try {
            return SegmentPlanner.get().plan(settings(), Optional.empty()).allocator().scopeKey();
        } catch (final RuntimeException ex) {
            return null;
        }
    }

    /** The props given to {@link #init}. */
    public Properties props() {
        return props;
    }

    /** The sequence of {@code segment-key}, for lines that do not name the table ({@link #initWithoutTables}). */
    public SegmentSequence sequenceWithoutTable() {
        SegmentScope current = scope();
        return current.sequence(current.sharedKey());
    }

    private SegmentGeneratorSettings settings() {
        SegmentGeneratorSettings current = settings;
        if (current == null) {
            // The props given to init, checked again: props init refused fail every key too, never fall back to the defaults.
            current = SegmentPlanner.get().parseInheritingDefaults(props);
            checkStartKeysCanApply(current);
            settings = current;
        }
        return current;
    }

    /**
     * Joins the allocator scope for {@code owner} (ShardingSphere's instance context) while ShardingSphere starts, so
     * that a missing or wrong allocator fails start-up, not the first INSERT.
     */
    public void bind(final Optional<ClusterRegistry> cluster, final Object owner) {
        ClusterRegistriesSeen.add(cluster);
        SegmentScope joined;
        try {
            SegmentPlan plan = SegmentPlanner.get().plan(settings(), cluster);
            if (cluster.isPresent()) {
                PlansWithoutMode.checkSegments(settings().props(), plan.allocator().scopeKey(), storeWithoutMode(), SnowKeySegmentKeyGenerateAlgorithm.TYPE);
            }
            joined = SegmentRuntime.get().join(plan, owner);
        } catch (final RuntimeException ex) {
            bindFailure = ex;
            throw ex;
        }
        logActive(joined);
        bindFailure = null;
        boundCluster = cluster;
        boundOwner = owner;
        scope = joined;
    }

    private static void logActive(final SegmentScope joined) {
        LOG.info("SnowKey SNOWKEY_SEGMENT is active: ranges from {}{}", joined.allocator(),
                joined.sharedKey() == null ? ", one sequence per logic table" : ", one sequence '" + joined.sharedKey() + "' for every table");
    }

    /**
     * The scope this binding issues from, joining it (with the one Cluster registry seen, if any) if ShardingSphere never
     * did. A scope that closed while this key generator still issues (its owner was released, or the runtime closed it)
     * is joined again with what {@link #bind} was given: the new scope fetches fresh ranges above the closed one's.
     */
    public SegmentScope scope() {
        SegmentScope current = scope;
        return current != null && !current.isClosed() ? current : join();
    }

    /** Kept apart from {@link #scope()} so the key path stays small enough for the JIT to inline. */
    private synchronized SegmentScope join() {
        SegmentScope current = scope;
        if (current != null && !current.isClosed()) {
            return current;
        }
        RuntimeException failed = bindFailure;
        if (current == null && failed != null) {
            throw new IllegalStateException("SnowKey: this SNOWKEY_SEGMENT key generator could not bind when ShardingSphere started ("
                    + failed.getMessage() + "), so it issues no keys; fix the cause and restart", failed);
        }
        Object owner = boundOwner;
        current = owner == null ? SegmentRuntime.get().join(planWithoutContext(), UNOWNED)
                : SegmentRuntime.get().join(SegmentPlanner.get().plan(settings(), boundCluster), owner);
        logActive(current);
        scope = current;
        return current;
    }

    /**
     * The plan of an instance never told its mode: with the one Cluster registry this JVM has seen. With several,
     * which one is its own is ambiguous, which matters only where the mode would change the plan: an allocator named
     * with every value it needs (any {@code jdbc}; {@code zookeeper} with servers and namespace) plans the same with
     * each, and is not failed for registries it never uses. A plan that differs among them (a namespace taken from the
     * mode) fails, as a guess could put two instances' keys in two counters.
     */
    private SegmentPlan planWithoutContext() {
        SegmentGeneratorSettings current = settings();
        List<ClusterRegistry> seen = ClusterRegistriesSeen.all();
        if (current.allocator() != null && seen.size() > 1) {
            List<SegmentPlan> plans = seen.stream().map(each -> SegmentPlanner.get().plan(current, Optional.of(each))).toList();
            if (plans.stream().map(SegmentPlan::scopeKey).distinct().count() == 1) {
                return plans.get(0);
            }
        }
        return SegmentPlanner.get().plan(current, ClusterRegistriesSeen.theOne(SnowKeySegmentKeyGenerateAlgorithm.TYPE, SegmentProps.ALLOCATOR));
    }

    /**
     * The sequence of an INSERT into that table (its key folded as ShardingSphere folds table names), or the shared
     * one. An INSERT into the table of the previous one costs reference comparisons ({@link TableCache}).
     */
    public SegmentSequence sequence(final String database, final String table) {
        return sequences.get(scope(), database, table);
    }
}
