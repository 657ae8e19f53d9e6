package org.snowkey.keygen.shardingsphere;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Function;
import java.util.function.Supplier;

import org.snowkey.keygen.mode.ClusterRegistry;

/**
 * The lifecycle every SnowKey key generate algorithm shares, free of ShardingSphere types, so that the 5.5 algorithms
 * and the adapters of the older lines stay a few lines of glue each: parse the props at {@link #init}; plan and open
 * what keys are issued from (the issuer) when ShardingSphere hands over its instance context ({@link #bind}), or on
 * the first key if it never does; open it again when it closed under a live key generator. {@link #issuer()} is the
 * one place that decides whether this binding issues, failed to bind, or must open anew.
 *
 * <p>A generator says only how to parse, plan and open its issuer ({@link ImprovedSnowflakeBinding},
 * {@link SegmentBinding}). {@link #init} connects to nothing: ShardingSphere builds throw-away instances while it
 * checks rules.
 *
 * @param <S> the settings parsed from the props
 * @param <P> the plan of the settings in a mode (where the issuer lives)
 * @param <T> the issuer: a generation of a worker id scope, or a segment scope
 * @param <V> what an INSERT's table issues from in the issuer: a sequence stream, a segment sequence
 */
abstract class KeyGeneratorBinding<S, P, T, V> {

    private static final VarHandle ISSUER;

    static {
        try {
            ISSUER = MethodHandles.lookup().findVarHandle(KeyGeneratorBinding.class, "issuer", Object.class);
        } catch (final ReflectiveOperationException ex) {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** The key generator type, for messages. */
    private final String type;

    private Properties props = new Properties();

    /** Parsed once at {@link #init}; every later plan starts from it, never from the props. */
    private volatile S settings;

    private volatile T issuer;

    /**
     * The table of the last INSERT as ShardingSphere passed its names, the issuer and what the table issues from in it.
     * Every change of {@link #issuer} forgets it ({@link #forTable}).
     */
    private volatile Route<T, V> lastRoute;

    /** What {@link #bind} was given, so that an issuer that closed under a live key generator is opened again the same way. */
    private volatile Optional<ClusterRegistry> boundCluster = Optional.empty();

    private volatile Object boundOwner;

    /**
     * Why {@link #bind} failed, for lines that ignore a failure of the callback that binds (ShardingSphere 5.5.0's
     * listeners): keys then fail naming it instead of binding without the context.
     */
    private volatile RuntimeException bindFailure;

    KeyGeneratorBinding(final String type) {
        this.type = type;
    }

    /** Parses and validates the props (over the JVM's defaults), without I/O. */
    abstract S parse(Properties props);

    /** Where the settings issue from in the mode ShardingSphere told: {@code cluster} empty means Standalone. */
    abstract P plan(S settings, Optional<ClusterRegistry> cluster);

    /** Where the settings issue from for an instance ShardingSphere never told its mode. */
    abstract P planWithoutContext(S settings);

    /** Fails when a Spring bean that planned the same settings before the Cluster mode was known issues elsewhere ({@link PlansWithoutMode}). */
    abstract void checkSpringPlans(S settings, P plan);

    /**
     * Opens (or joins) the issuer of the plan in its runtime, doing the I/O that proves it can issue, and logs the line
     * users look for to confirm SnowKey, not ShardingSphere's own SNOWFLAKE, fills their keys.
     *
     * @param owner ShardingSphere's instance context, which releases the issuer when destroyed; null for an instance never told it
     */
    abstract T open(P plan, Object owner);

    /** True once the issuer closed: nothing is issued from it any more. */
    abstract boolean isClosed(T issuer);

    /** What an INSERT into {@code table} of {@code database} (names as passed, either may be null) issues from in {@code issuer}. */
    abstract V valueFor(T issuer, String database, String table);

    /**
     * Parses and validates every prop, once, without I/O.
     *
     * @throws org.snowkey.keygen.config.InvalidSettingException naming the prop and the value
     */
    public final void init(final Properties props) {
        init(props, this::parse);
    }

    /** {@link #init} with a parse of the generator's own, for lines that need more of the props. */
    final void init(final Properties props, final Function<Properties, S> parser) {
        this.props = props == null ? new Properties() : props;
        settings = parser.apply(this.props);
    }

    /** The props given to {@link #init}. */
    public final Properties props() {
        return props;
    }

    /**
     * The settings parsed at {@link #init}. An instance ShardingSphere never initialised parses the defaults; one whose
     * props {@code init} refused parses them again and fails again, never falling back to the defaults.
     */
    final S settings() {
        S current = settings;
        if (current == null) {
            current = parse(props);
            settings = current;
        }
        return current;
    }

    /**
     * Opens the issuer for {@code owner} (ShardingSphere's instance context) while ShardingSphere starts, so that a
     * missing lease or allocator fails start-up, not the first INSERT. A failure is kept: where ShardingSphere ignores
     * it, every key fails naming it.
     *
     * @param cluster the Cluster mode repository of ShardingSphere's mode configuration, when there is one
     */
    public final void bind(final Optional<ClusterRegistry> cluster, final Object owner) {
        ClusterRegistriesSeen.add(cluster);
        T opened;
        try {
            P plan = plan(settings(), cluster);
            if (cluster.isPresent()) {
                checkSpringPlans(settings(), plan);
            }
            opened = open(plan, owner);
        } catch (final RuntimeException ex) {
            bindFailure = ex;
            throw ex;
        }
        bindFailure = null;
        boundCluster = cluster;
        boundOwner = owner;
        issuer = opened;
        lastRoute = null;
    }

    /**
     * What this binding issues from, opening it (without a context) if ShardingSphere never bound it. An issuer that
     * closed while this key generator still issues (its owner was released, or its runtime closed it) is opened again
     * with what {@link #bind} was given: the next one continues above the closed one, so the key generator recovers
     * instead of failing every key on it.
     */
    final T issuer() {
        T current = issuer;
        return current != null && !isClosed(current) ? current : reopen();
    }

    /** Kept apart from {@link #issuer()} so the key path stays small enough for the JIT to inline. */
    private synchronized T reopen() {
        while (true) {
            T current = issuer;
            if (current != null && !isClosed(current)) {
                return current;
            }
            RuntimeException failed = bindFailure;
            if (current == null && failed != null) {
                throw new IllegalStateException("SnowKey: this " + type + " key generator could not bind when ShardingSphere started (" + failed.getMessage()
                        + "), so it issues no keys; fix the cause and restart", failed);
            }
            Object owner = boundOwner;
            T opened = owner == null ? open(planWithoutContext(settings()), null) : open(plan(settings(), boundCluster), owner);
            // A bind (which takes no lock) may have set the issuer while this one opened: the bind's stands, made with what
            // ShardingSphere handed over, unless it closed too (then open again, as the bind left it). A route to the
            // closed issuer is not taken (forTable): nothing to forget.
            if (ISSUER.compareAndSet(this, current, opened)) {
                return opened;
            }
        }
    }

    /**
     * What an INSERT into {@code table} issues from, in the issuer in force ({@link #issuer()}). An INSERT into the table
     * of the previous one (ShardingSphere passes the same name strings for a cached statement) costs reference
     * comparisons and a look at whether the route's issuer closed: the issuer itself is not read, since every change of it
     * forgets the route.
     */
    final V forTable(final String database, final String table) {
        Route<T, V> route = lastRoute;
        if (route != null && route.database() == database && route.table() == table && !isClosed(route.issuer())) {
            return route.value();
        }
        return route(database, table);
    }

    /** Kept apart from {@link #forTable} so the key path stays small enough for the JIT to inline. */
    private V route(final String database, final String table) {
        T current = issuer();
        V value = valueFor(current, database, table);
        lastRoute = new Route<>(current, database, table, value);
        if (issuer != current) {
            // The issuer changed since it was read here, and the change may have forgotten the route before this wrote
            // it: forget it again. (Had the change come after this read of the issuer, it forgets the route itself.)
            lastRoute = null;
        }
        return value;
    }

    /** Where settings would issue from without the mode, as a Spring bean that planned before it does; null when they cannot. */
    static String storeWithoutMode(final Supplier<String> store) {
        try {
            return store.get();
        } catch (final RuntimeException ex) {
            return null;
        }
    }

    /** What {@link #lastRoute} holds. */
    private record Route<T, V>(T issuer, String database, String table, V value) {
    }
}
