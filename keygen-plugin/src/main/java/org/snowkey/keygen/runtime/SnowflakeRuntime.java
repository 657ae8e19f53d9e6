package org.snowkey.keygen.runtime;

import java.util.Collection;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.config.GeneratorSettings;
import org.snowkey.keygen.config.PropertyNames;
import org.snowkey.keygen.generator.IdGenerator;

/**
 * The JVM's snowflake generators, one per scope. Every algorithm instance (and the Spring bean) with the same
 * scope shares one lease and one set of sequence streams, so two instances never issue on the same worker id
 * independently. Leases are released from the shutdown hook, because ShardingSphere never closes algorithms.
 * The lifecycle of the scopes (join, leave, close, shutdown) is {@link Scopes}'; this class says what a snowflake
 * generation holds: an {@link IdGenerator} over the lease of a {@link SnowflakePlan} made by {@link SnowflakePlanner}.
 */
public final class SnowflakeRuntime {

    private static final Logger LOG = LoggerFactory.getLogger(SnowflakeRuntime.class);

    /**
     * The one runtime of the JVM. Static because ShardingSphere creates key generate algorithms through its SPI with
     * a no-argument constructor and hands them nothing to share: algorithms of every context, and the Spring bean,
     * find the scopes they share here. Everything else is instance state, so tests can build their own runtime.
     */
    private static final SnowflakeRuntime INSTANCE = new SnowflakeRuntime(WallClock.system(), JvmShutdown::register, Scopes.Waiting.PARK);

    private final Scopes<SnowflakePlan, IdGenerator> scopes;

    SnowflakeRuntime(final WallClock clock, final Consumer<Runnable> shutdownHooks, final Scopes.Waiting waiting) {
        scopes = new Scopes<>(new SnowflakeResources(clock), shutdownHooks, waiting);
    }

    public static SnowflakeRuntime get() {
        return INSTANCE;
    }

    /**
     * The generator of the plan's scope, created (and its lease opened) on first request, without an owner: it rides
     * on the scope's owners (closed when the last one leaves) or, with none, lives until {@link #close},
     * {@link #closeAll} or JVM shutdown.
     *
     * @throws IllegalStateException when the scope already runs with other generator settings
     */
    public IdGenerator generator(final SnowflakePlan plan) {
        return join(plan, null, ReleaseMode.AT_JVM_SHUTDOWN);
    }

    /**
     * The generator of the plan's scope, used by {@code owner} (a ShardingSphere context, a Spring context).
     * When every owner of a scope has gone ({@link #release(Object)}), the scope is closed and its lease released.
     */
    public IdGenerator generator(final SnowflakePlan plan, final Object owner) {
        return join(plan, owner, ReleaseMode.AT_JVM_SHUTDOWN);
    }

    /**
     * Like {@link #generator(SnowflakePlan, Object)}, for an owner that promises to call {@link #release(Object)} itself,
     * also at JVM shutdown: the shutdown hook then leaves its scopes alone, so that nothing releases the lease
     * while the owner's data sources still run.
     */
    public IdGenerator generatorReleasedByOwner(final SnowflakePlan plan, final Object owner) {
        return join(plan, owner, ReleaseMode.BY_OWNER);
    }

    /**
     * Joins the plan's scope as {@code owner} ({@code null}: use it without owning it) and returns its open
     * generator, never one that is closing: a join that finds the scope closing waits for the release to finish and
     * opens the next generation, whose lease then starts above the released one.
     *
     * @throws IllegalStateException when the scope already runs with other generator settings
     */
    public IdGenerator join(final SnowflakePlan plan, final Object owner, final ReleaseMode releaseMode) {
        return scopes.join(plan, owner, releaseMode);
    }

    /** The owner is gone: closes each scope it was the last owner of, releasing the lease. */
    public void release(final Object owner) {
        scopes.release(owner);
    }

    /** The generators of the scopes open now. */
    public Collection<IdGenerator> generators() {
        return scopes.open();
    }

    /**
     * Closes the generator of one scope, whoever owns it: its lease is released and the next request creates a new
     * one. A seam for tests in this package: applications close through their owners, or all at once ({@link #closeAll}).
     */
    void close(final String scopeKey) {
        scopes.close(scopeKey);
    }

    /** Closes every generator, releasing each lease with its exact high-water mark. */
    public void closeAll() {
        scopes.closeAll();
    }

    /** The shutdown hook: closes every scope but those an owner releases in its own order. */
    void closeAllOnShutdown() {
        scopes.closeAllOnShutdown();
    }

    /** A snowflake generation: an {@link IdGenerator} over the plan's worker-id lease, its layout shared by every joiner. */
    private static final class SnowflakeResources implements ScopeResources<SnowflakePlan, IdGenerator> {

        private final WallClock clock;

        SnowflakeResources(final WallClock clock) {
            this.clock = clock;
        }

        @Override
        public String scopeKey(final SnowflakePlan plan) {
            return plan.scopeKey();
        }

        @Override
        public IdGenerator open(final SnowflakePlan plan) {
            GeneratorSettings settings = plan.settings();
            if (plan.unguardedStaticWorkerId()) {
                LOG.warn("SnowKey runs with worker id 0 because neither '{}' nor '{}' is set: this is only safe while a single instance "
                        + "generates keys; several instances will produce duplicate keys", PropertyNames.LEASE_REGISTRY, PropertyNames.WORKER_ID);
            }
            IdGenerator generator = new IdGenerator(settings.layout(), plan.leaseOpener().get(), clock, settings.clockRules(), settings.maxWorkerIds());
            LOG.info("SnowKey generator for scope {} created: {}", plan.scopeKey(), generator);
            return generator;
        }

        @Override
        public void checkJoin(final String scopeKey, final SnowflakePlan opened, final SnowflakePlan joining) {
            GeneratorSettings mine = opened.settings();
            GeneratorSettings theirs = joining.settings();
            if (!mine.layout().equals(theirs.layout()) || !mine.clockRules().equals(theirs.clockRules()) || mine.maxWorkerIds() != theirs.maxWorkerIds()) {
                throw new IllegalStateException("SnowKey scope " + scopeKey + " already runs with " + describe(mine)
                        + "; another key generator of the same scope asks for " + describe(theirs)
                        + ". Key generators sharing a worker id in one JVM must share these settings (a key generator ShardingSphere replaced at"
                        + " run time keeps running until its data source closes): align the props, or give the other key generator its own"
                        + " worker-id or lease-pool");
            }
        }

        /** Releases the lease with its exact high-water mark. */
        @Override
        public void close(final String scopeKey, final IdGenerator generator) {
            generator.close();
        }

        private static String describe(final GeneratorSettings settings) {
            return settings.layout() + ", " + settings.clockRules().describe() + ", " + PropertyNames.MAX_WORKER_IDS_PER_INSTANCE + "=" + settings.maxWorkerIds();
        }
    }
}
