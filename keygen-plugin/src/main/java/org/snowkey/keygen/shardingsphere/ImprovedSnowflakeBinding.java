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
import org.snowkey.keygen.runtime.SnowflakePlan;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.runtime.SnowflakeSettings;

/**
 * What an {@code IMPROVED_SNOWFLAKE} algorithm of any line does with SnowKey: the shared lifecycle
 * ({@link KeyGeneratorBinding}) over the generator of a worker id scope, and the sequence stream of an INSERT.
 */
public final class ImprovedSnowflakeBinding extends KeyGeneratorBinding<SnowflakeSettings, SnowflakePlan, IdGenerator, SequenceStream> {

    private static final Logger LOG = LoggerFactory.getLogger(ImprovedSnowflakeBinding.class);

    /** The stream of each table, for the generator bound (the generator folds case and quotes of the name). */
    private final TableCache<IdGenerator, SequenceStream> streams = new TableCache<>(IdGenerator::stream);

    public ImprovedSnowflakeBinding() {
        super(ImprovedSnowflakeKeyGenerateAlgorithm.TYPE);
    }

    /** Over the JVM's defaults ({@link SnowflakePlanner#setDefaults}). */
    @Override
    SnowflakeSettings parse(final Properties props) {
        return SnowflakePlanner.get().parseInheritingDefaults(props);
    }

    /** With the mode known, lease props that cannot apply in Standalone mode are refused ({@link SnowflakePlanner#planInKnownMode}). */
    @Override
    SnowflakePlan plan(final SnowflakeSettings settings, final Optional<ClusterRegistry> cluster) {
        return SnowflakePlanner.get().planInKnownMode(settings, cluster);
    }

    /**
     * With the props alone, unless they name no worker id source and this JVM runs ShardingSphere in Cluster mode, where
     * worker id 0 would be a duplicate waiting to happen. Then the one registry seen is used; with several, or in Cluster
     * mode with none that SnowKey could read, the key generator fails closed.
     */
    @Override
    SnowflakePlan planWithoutContext(final SnowflakeSettings settings) {
        SnowflakePlan plan = SnowflakePlanner.get().plan(settings, Optional.empty());
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
        return seen.isEmpty() ? plan : SnowflakePlanner.get().plan(settings, seen);
    }

    @Override
    void checkSpringPlans(final SnowflakeSettings settings, final SnowflakePlan plan) {
        String withoutMode = storeWithoutMode(() -> SnowflakePlanner.get().plan(settings, Optional.empty()).scopeKey());
        PlansWithoutMode.checkWorkerIds(settings.props(), plan.scopeKey(), withoutMode, ImprovedSnowflakeKeyGenerateAlgorithm.TYPE);
    }

    /** Takes the lease now ({@link IdGenerator#currentGrant}): a worker id that cannot be leased fails the bind. */
    @Override
    IdGenerator open(final SnowflakePlan plan, final Object owner) {
        IdGenerator opened = SnowflakeRuntime.get().generator(plan, owner);
        LOG.info("SnowKey IMPROVED_SNOWFLAKE is active: worker id {} from {}", opened.currentGrant().workerId(), opened);
        return opened;
    }

    @Override
    boolean isClosed(final IdGenerator generator) {
        return generator.hasEnded();
    }

    /** The stream of an INSERT into that table ({@code sequence-scope: table}) or the scope's one stream ({@code global}). */
    public SequenceStream stream(final String database, final String table) {
        return forTable(database, table);
    }

    @Override
    SequenceStream valueFor(final IdGenerator generator, final String database, final String table) {
        if (settings().generator().sequenceScope() == SequenceScope.GLOBAL) {
            return generator.stream(IdGenerator.DEFAULT_STREAM);
        }
        return streams.get(generator, database, table);
    }

    /**
     * The stream for ShardingSphere lines whose {@code generateKey()} does not name the table (5.1 to 5.4): the
     * scope's one stream, whatever {@code sequence-scope} says. A stream per algorithm instance would not do:
     * ShardingSphere rebuilds instances when rules change, and two streams on one worker id may repeat ids.
     */
    public SequenceStream streamWithoutTable() {
        return issuer().stream(IdGenerator.DEFAULT_STREAM);
    }

    /** The generator this binding issues from, binding it (without a context) if ShardingSphere never did. */
    public IdGenerator generator() {
        return issuer();
    }
}
