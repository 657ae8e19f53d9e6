package org.snowkey.keygen.shardingsphere;

import java.util.Collection;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.shardingsphere.infra.algorithm.core.context.AlgorithmSQLContext;
import org.apache.shardingsphere.infra.algorithm.keygen.core.KeyGenerateAlgorithm;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContext;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContextAware;
import org.snowkey.keygen.config.SequenceScope;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.generator.SequenceStream;
import org.snowkey.keygen.lease.LeaseRequest.ClusterRegistry;
import org.snowkey.keygen.runtime.ScopePlan;
import org.snowkey.keygen.runtime.SnowKeyRuntime;

/**
 * ShardingSphere key generator {@code IMPROVED_SNOWFLAKE}.
 *
 * <p>{@link #init} only validates: ShardingSphere 5.5.2 builds throw-away instances while it checks rules and
 * never closes algorithms. The generator of the scope (and its lease) is bound when ShardingSphere hands over
 * the compute node context, or on the first key if it never does.
 */
public final class ImprovedSnowflakeKeyGenerateAlgorithm implements KeyGenerateAlgorithm, ComputeNodeInstanceContextAware {

    public static final String TYPE = "IMPROVED_SNOWFLAKE";

    private Properties props = new Properties();

    private SequenceScope sequenceScope;

    private volatile IdGenerator generator;

    /** Streams by database and table name as ShardingSphere passes them, to spare a lookup key per INSERT. */
    private final Map<String, Map<String, SequenceStream>> streamsByTable = new ConcurrentHashMap<>();

    /**
     * The stream of the last table asked for, matched by identity of the name strings ShardingSphere passes: a
     * burst into one table skips both map lookups. A plain field is enough, since the record is immutable and a
     * stale read only costs a lookup.
     */
    private LastStream lastStream;

    @Override
    public void init(final Properties props) {
        this.props = props == null ? new Properties() : props;
        ScopePlan plan = SnowKeyRuntime.get().planBeforeMode(this.props);
        sequenceScope = plan.settings().sequenceScope();
    }

    @Override
    public void setComputeNodeInstanceContext(final ComputeNodeInstanceContext context) {
        Optional<ClusterRegistry> cluster = ModeConfigurations.clusterRegistry(context.getModeConfiguration());
        // The context owns the scope: when ShardingSphere destroys it, the lease is released (ContextLifecycleListener).
        IdGenerator bound = SnowKeyRuntime.get().generator(SnowKeyRuntime.get().plan(props, cluster), context);
        // Acquire now, while ShardingSphere starts: a missing lease fails start-up, not the first INSERT.
        bound.currentGrant();
        generator = bound;
        streamsByTable.clear();
    }

    @Override
    public Collection<? extends Comparable<?>> generateKeys(final AlgorithmSQLContext context, final int keyGenerateCount) {
        SequenceStream stream = streamFor(context);
        if (keyGenerateCount == 1) {
            return Collections.singletonList(stream.nextId());
        }
        return stream.nextIds(keyGenerateCount);
    }

    private SequenceStream streamFor(final AlgorithmSQLContext context) {
        IdGenerator current = generator();
        if (sequenceScope == SequenceScope.GLOBAL) {
            return current.stream(IdGenerator.DEFAULT_STREAM);
        }
        String database = context == null || context.getDatabaseName() == null ? "" : context.getDatabaseName();
        String table = context == null || context.getTableName() == null ? "" : context.getTableName();
        LastStream last = lastStream;
        if (last != null && last.generator() == current && last.database() == database && last.table() == table) {
            return last.stream();
        }
        Map<String, SequenceStream> tables = streamsByTable.computeIfAbsent(database, key -> new ConcurrentHashMap<>());
        SequenceStream stream = tables.get(table);
        if (stream == null) {
            stream = tables.computeIfAbsent(table, key -> current.stream(streamName(database, key)));
        }
        lastStream = new LastStream(current, database, table, stream);
        return stream;
    }

    private record LastStream(IdGenerator generator, String database, String table, SequenceStream stream) {
    }

    /** Stream names ignore case, as ShardingSphere's logic table names do. */
    static String streamName(final String database, final String table) {
        return (database + "." + table).toLowerCase(Locale.ROOT);
    }

    private IdGenerator generator() {
        IdGenerator current = generator;
        if (current == null) {
            synchronized (this) {
                current = generator;
                if (current == null) {
                    current = SnowKeyRuntime.get().generator(SnowKeyRuntime.get().plan(props, Optional.empty()));
                    generator = current;
                }
            }
        }
        return current;
    }

    /** The generator this instance issues from, binding it if needed; for diagnostics and tests. */
    public IdGenerator boundGenerator() {
        return generator();
    }

    @Override
    public String getType() {
        return TYPE;
    }
}
