package org.snowkey.keygen.shardingsphere;

import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeSet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.config.InvalidSettingException;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.segment.SegmentPropertyNames;
import org.snowkey.keygen.segment.SegmentSequence;
import org.snowkey.keygen.segment.runtime.SegmentGeneratorSettings;
import org.snowkey.keygen.segment.runtime.SegmentPlan;
import org.snowkey.keygen.segment.runtime.SegmentPlanner;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;
import org.snowkey.keygen.segment.runtime.SegmentScope;

/**
 * What a {@code SNOWKEY_SEGMENT} algorithm of any line does with SnowKey: the shared lifecycle
 * ({@link KeyGeneratorBinding}) over an allocator scope, and the sequence of an INSERT: the logic table's
 * ({@code <database>.<table>}, folded as ShardingSphere folds table names) or the shared {@code segment-key}.
 */
public final class SegmentBinding extends KeyGeneratorBinding<SegmentGeneratorSettings, SegmentPlan, SegmentScope, SegmentSequence> {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentBinding.class);

    /** The owner of scopes joined by an instance ShardingSphere never handed its context: they live until JVM shutdown. */
    private static final Object UNOWNED = new Object();

    /**
     * The sequence of each table for the scope joined: the logic table's key ({@code <database>.<table>}, folded as
     * ShardingSphere folds table names), or the scope's shared {@code segment-key} for every table.
     */
    private final TableCache<SegmentScope, SegmentSequence> sequences = new TableCache<>(
            (scope, table) -> scope.sequence(scope.segmentKey().sequenceOf(table)));

    public SegmentBinding() {
        super(SnowKeySegmentKeyGenerateAlgorithm.TYPE);
    }

    @Override
    SegmentGeneratorSettings parse(final Properties props) {
        SegmentGeneratorSettings parsed = SegmentPlanner.get().parseInheritingDefaults(props);
        checkStartKeysCanApply(props, parsed);
        return parsed;
    }

    /**
     * {@link #init} for ShardingSphere lines whose {@code generateKey()} does not name the table (5.1 to 5.4): there
     * the key generator needs {@code segment-key}. A sequence per algorithm instance would not do instead: ShardingSphere
     * rebuilds instances when rules change, and the keys of a table would then no longer increase in one JVM.
     *
     * @param line the ShardingSphere line, for the message
     */
    public void initWithoutTables(final Properties props, final String line) {
        init(props, given -> {
            SegmentGeneratorSettings parsed = SegmentPlanner.get().parseInheritingDefaults(given);
            if (parsed.sharedKey() == null) {
                throw new InvalidSettingException(SegmentPropertyNames.KEY, null, "required on ShardingSphere " + line + ", whose key generators are not told the table:"
                        + " name the sequence, e.g. the logic table (" + SegmentPropertyNames.KEY + ": t_order); on ShardingSphere 5.5 each logic table has a sequence of its own");
            }
            // After the segment-key check: on these lines the start value that applies is the segment-key's.
            checkStartKeysCanApply(given, parsed);
            return parsed;
        });
    }

    /**
     * In ShardingSphere a sequence key is {@code <database>.<table>}, or the {@code segment-key}: a start value of any
     * other key would be silently ignored, and a table moved to SnowKey would then get keys from 1, below (and
     * colliding with) the rows it already has. So such a key fails start-up instead. Only when the key generator's own
     * props set the start values: inherited ones (the Spring integration's {@code snowkey.segment.start-values}) also
     * serve the application's named sequences, whose keys are no tables, and must not stop YAML key generators.
     */
    private static void checkStartKeysCanApply(final Properties own, final SegmentGeneratorSettings parsed) {
        if (!own.containsKey(SegmentPropertyNames.START_VALUES)) {
            return;
        }
        Object text = parsed.props().get(SegmentPropertyNames.START_VALUES);
        for (String each : new TreeSet<>(parsed.starts().perKey().keySet())) {
            if (parsed.sharedKey() != null && !each.equals(parsed.sharedKey())) {
                throw new InvalidSettingException(SegmentPropertyNames.START_VALUES, text, "cannot apply to key '" + each + "': " + SegmentPropertyNames.KEY + " = '"
                        + parsed.sharedKey() + "' gives every table the one key '" + parsed.sharedKey() + "'; give its start value instead, or use "
                        + SegmentPropertyNames.START_VALUE);
            }
            if (parsed.sharedKey() == null && each.indexOf('.') < 0) {
                throw new InvalidSettingException(SegmentPropertyNames.START_VALUES, text, "keys are <database>.<table>, the logic database and table (e.g. "
                        + "sharding_db.t_order); key '" + each + "' names no database, so it would never apply and the table would start at "
                        + parsed.starts().defaultStart());
            }
        }
    }

    @Override
    SegmentPlan plan(final SegmentGeneratorSettings settings, final Optional<ClusterRegistry> cluster) {
        return SegmentPlanner.get().plan(settings, cluster);
    }

    /**
     * With the one Cluster registry this JVM has seen. With several, which one is its own is ambiguous, which matters
     * only where the mode would change the plan: an allocator named with every value it needs (any {@code jdbc};
     * {@code zookeeper} with servers and namespace) plans the same with each, and is not failed for registries it never
     * uses. A plan that differs among them (a namespace taken from the mode) fails, as a guess could put two instances'
     * keys in two counters.
     */
    @Override
    SegmentPlan planWithoutContext(final SegmentGeneratorSettings settings) {
        List<ClusterRegistry> seen = ClusterRegistriesSeen.all();
        if (settings.allocator() != null && seen.size() > 1) {
            List<SegmentPlan> plans = seen.stream().map(each -> SegmentPlanner.get().plan(settings, Optional.of(each))).toList();
            if (plans.stream().map(SegmentPlan::scopeKey).distinct().count() == 1) {
                return plans.get(0);
            }
        }
        return SegmentPlanner.get().plan(settings, ClusterRegistriesSeen.theOne(SnowKeySegmentKeyGenerateAlgorithm.TYPE, SegmentPropertyNames.ALLOCATOR));
    }

    @Override
    void checkSpringPlans(final SegmentGeneratorSettings settings, final SegmentPlan plan) {
        String withoutMode = storeWithoutMode(() -> SegmentPlanner.get().plan(settings, Optional.empty()).allocator().scopeKey());
        PlansWithoutMode.checkSegments(settings.props(), plan.allocator().scopeKey(), withoutMode, SnowKeySegmentKeyGenerateAlgorithm.TYPE);
    }

    /** Joining opens no connection (the allocator connects on its first range); a scope without owner lives until JVM shutdown. */
    @Override
    SegmentScope open(final SegmentPlan plan, final Object owner) {
        SegmentScope joined = SegmentRuntime.get().join(plan, owner == null ? UNOWNED : owner);
        LOG.info("SnowKey SNOWKEY_SEGMENT is active: ranges from {}{}", joined.allocator(),
                joined.segmentKey().isShared() ? ", one sequence '" + joined.segmentKey().shared() + "' for every table" : ", one sequence per logic table");
        return joined;
    }

    @Override
    boolean isClosed(final SegmentScope scope) {
        return scope.isClosed();
    }

    /**
     * The sequence of an INSERT into that table (its key folded as ShardingSphere folds table names), or the shared
     * one. An INSERT into the table of the previous one costs reference comparisons ({@link #forTable}).
     */
    public SegmentSequence sequence(final String database, final String table) {
        return forTable(database, table);
    }

    @Override
    SegmentSequence valueFor(final SegmentScope scope, final String database, final String table) {
        return sequences.get(scope, database, table);
    }

    /** The sequence of {@code segment-key}, for lines that do not name the table ({@link #initWithoutTables}). */
    public SegmentSequence sequenceWithoutTable() {
        SegmentScope current = issuer();
        return current.sequence(current.segmentKey().shared());
    }

    /** The scope this binding issues from, joining it (without a context) if ShardingSphere never did. */
    public SegmentScope scope() {
        return issuer();
    }
}
