package org.snowkey.keygen.shardingsphere;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.shardingsphere.infra.config.mode.ModeConfiguration;
import org.apache.shardingsphere.infra.instance.ComputeNodeInstanceContext;
import org.apache.shardingsphere.infra.metadata.ShardingSphereMetaData;
import org.apache.shardingsphere.infra.metadata.database.ShardingSphereDatabase;
import org.apache.shardingsphere.infra.rule.ShardingSphereRule;
import org.apache.shardingsphere.mode.manager.ContextManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.snowkey.keygen.mode.ClusterRegistry;
import org.snowkey.keygen.runtime.SnowflakeRuntime;
import org.snowkey.keygen.segment.runtime.SegmentRuntime;

/**
 * How ShardingSphere's instance context reaches every SnowKey 5.5 key generator ({@link InstanceContextBound}), on
 * each 5.5 patch (docs/design.md, "ShardingSphere lines"):
 *
 * <ul>
 *   <li>5.5.1 and 5.5.2: the sharding rule calls {@code setComputeNodeInstanceContext} on each key generator while
 *       it is built, at start-up and on every rule change; the algorithm passes the context to {@link #bind}.</li>
 *   <li>5.5.0: the sharding rule calls {@code InstanceContextAware}, which a class that must also load on 5.5.1 and
 *       later cannot implement. {@code ContextLifecycleListener} calls {@link #bindDatabase} right after 5.5.0 built
 *       its context, before the first statement; the lease is released by {@link #releaseDatabase}. A key generator
 *       created by a rule change at run time is not reached and binds on its first key, without an owner.</li>
 * </ul>
 *
 * <p>The 5.5.0 half reaches {@code ContextManager.getInstanceContext()} and {@code InstanceContext} by reflection: those
 * types exist on 5.5.0 only, and this class is compiled against 5.5.2. Everything else it calls has the same
 * descriptor on 5.5.0 and 5.5.2 (checked with javap, and run by the 5.5.0 check module).
 */
public final class InstanceContexts {

    private static final Logger LOG = LoggerFactory.getLogger(InstanceContexts.class);

    /** 5.5.0: the contexts opened per logical database name, each released once, when it closes. */
    private static final OpenContexts OPEN_ON_550 = new OpenContexts(InstanceContexts::release);

    private InstanceContexts() {
    }

    /** 5.5.1 and later: what each algorithm's {@code setComputeNodeInstanceContext} does. */
    public static void bind(final InstanceContextBound algorithm, final ComputeNodeInstanceContext context) {
        algorithm.bindInstanceContext(ModeConfigurations.clusterRegistry(context.getModeConfiguration()), context);
    }

    /**
     * 5.5.0: records the context's mode (a Cluster registry, whether or not SnowKey has key generators there yet: one
     * created later by a rule change binds without its context and takes it from there), and binds every SnowKey key
     * generator of the database's rules (every database's, with no name) to the context manager's instance context.
     * ShardingSphere 5.5.0 ignores a {@code RuntimeException} from its listeners, so a binding that fails is also
     * kept by the algorithm, whose keys then fail naming it (fail closed, never a fallback worker id).
     *
     * @throws RuntimeException the first binding that failed, after trying the others
     */
    public static void bindDatabase(final String databaseName, final ContextManager contextManager) {
        // Every data source of the name is recorded, SnowKey's or not, and even when binding fails: 5.5.0 names only the
        // database at close, and the close of one without SnowKey key generators (SNOWFLAKE, say) must not be taken for
        // the close of a SnowKey one that still issues keys on its lease.
        Object owner = null;
        try {
            Object instanceContext = call(contextManager, "getInstanceContext");
            ModeConfiguration mode = (ModeConfiguration) call(instanceContext, "getModeConfiguration");
            ModeConfigurations.recordStarted(mode);
            List<InstanceContextBound> algorithms = new ArrayList<>();
            for (ShardingSphereDatabase each : databases(databaseName, contextManager.getMetaDataContexts().getMetaData())) {
                algorithms.addAll(snowKeyAlgorithms(each.getRuleMetaData().getRules()));
            }
            if (algorithms.isEmpty()) {
                return;
            }
            owner = instanceContext;
            bindAll(databaseName, algorithms, ModeConfigurations.clusterRegistry(mode), instanceContext);
        } finally {
            OPEN_ON_550.opened(databaseName, contextManager, owner, whenClosed(contextManager));
        }
    }

    /**
     * Tells when a 5.5.0 context manager has closed: its executor engine is closed there and nowhere else, so the
     * executor terminating is the close having happened. Watched by a daemon thread, only for contexts whose close
     * SnowKey could not tell apart ({@link OpenContexts}); the action captures the executor, not the context manager.
     */
    private static OpenContexts.ClosedSignal whenClosed(final ContextManager contextManager) {
        ExecutorService executor = contextManager.getExecutorEngine().getExecutorServiceManager().getExecutorService();
        return action -> {
            Thread watcher = new Thread(() -> {
                try {
                    while (!executor.awaitTermination(1, TimeUnit.HOURS)) {
                        // Still open: keep the lease.
                    }
                } catch (final InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    return;
                }
                action.run();
            }, "snowkey-context-close-watcher");
            watcher.setDaemon(true);
            watcher.start();
        };
    }

    private static void bindAll(final String databaseName, final List<InstanceContextBound> algorithms, final Optional<ClusterRegistry> cluster,
                                final Object instanceContext) {
        RuntimeException first = null;
        for (InstanceContextBound each : algorithms) {
            try {
                each.bindInstanceContext(cluster, instanceContext);
            } catch (final RuntimeException ex) {
                LOG.error("SnowKey could not bind a key generator of logical database '{}' while ShardingSphere started; its INSERTs will fail", databaseName, ex);
                first = first == null ? ex : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** 5.5.0: ShardingSphere closes a data source of that logical database, without saying which ({@link OpenContexts}). */
    public static void releaseDatabase(final String databaseName) {
        OPEN_ON_550.closing(databaseName);
    }

    /** The instance context is destroyed: ends the worker leases and segment allocators it was the last owner of. */
    public static void release(final Object instanceContext) {
        try {
            SnowflakeRuntime.get().release(instanceContext);
        } finally {
            // Even when a lease's release threw an Error: the context's segment scopes still close.
            SegmentRuntime.get().release(instanceContext);
        }
    }

    /**
     * The database of that name (ShardingSphere-JDBC), or every database when there is no name: ShardingSphere-Proxy
     * 5.5.0 calls {@code onInitialized(null, contextManager)}. 5.5.0's {@code getDatabases()} returns a map, 5.5.2's a
     * collection, hence reflection there.
     */
    private static Collection<ShardingSphereDatabase> databases(final String databaseName, final ShardingSphereMetaData metaData) {
        if (databaseName != null) {
            return List.of(metaData.getDatabase(databaseName));
        }
        Object all = call(metaData, "getDatabases");
        Collection<?> databases = all instanceof Map<?, ?> map ? map.values() : (Collection<?>) all;
        List<ShardingSphereDatabase> result = new ArrayList<>();
        for (Object each : databases) {
            result.add((ShardingSphereDatabase) each);
        }
        return result;
    }

    /** The SnowKey algorithms among the rules' key generators (the sharding rule's {@code getKeyGenerators()}), each once. */
    static List<InstanceContextBound> snowKeyAlgorithms(final Iterable<? extends ShardingSphereRule> rules) {
        Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<InstanceContextBound> result = new ArrayList<>();
        for (ShardingSphereRule each : rules) {
            Optional<Method> keyGenerators = publicMethod(each, "getKeyGenerators");
            if (keyGenerators.isEmpty()) {
                continue;
            }
            Object generators = invoke(keyGenerators.get(), each);
            if (generators instanceof Map<?, ?> map) {
                for (Object generator : map.values()) {
                    if (generator instanceof InstanceContextBound bound && seen.add(generator)) {
                        result.add(bound);
                    }
                }
            }
        }
        return result;
    }

    private static Optional<Method> publicMethod(final Object target, final String name) {
        try {
            return Optional.of(target.getClass().getMethod(name));
        } catch (final NoSuchMethodException ex) {
            return Optional.empty();
        }
    }

    private static Object call(final Object target, final String name) {
        return invoke(publicMethod(target, name).orElseThrow(() -> new IllegalStateException("SnowKey expected " + target.getClass().getName() + "." + name
                + "() of ShardingSphere 5.5.0, and this ShardingSphere " + ShardingSphereLine.runningVersion(target.getClass()).orElse("(unknown version)")
                + " has none")), target);
    }

    private static Object invoke(final Method method, final Object target) {
        try {
            return method.invoke(target);
        } catch (final IllegalAccessException ex) {
            throw new IllegalStateException("SnowKey could not call " + method, ex);
        } catch (final InvocationTargetException ex) {
            throw new IllegalStateException("SnowKey: " + method + " failed", ex.getCause());
        }
    }
}
