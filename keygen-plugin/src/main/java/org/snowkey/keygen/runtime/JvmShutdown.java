package org.snowkey.keygen.runtime;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one JVM shutdown hook of SnowKey: it closes the scopes of both generators, because ShardingSphere never closes
 * algorithms. Each runtime registers its close once, when it opens its first generation; the hook runs them in that
 * order, each on its own (one that fails is logged and does not stop the others).
 */
public final class JvmShutdown {

    private static final Logger LOG = LoggerFactory.getLogger(JvmShutdown.class);

    private static final List<Runnable> CLOSES = new CopyOnWriteArrayList<>();

    private static final AtomicBoolean HOOK_INSTALLED = new AtomicBoolean();

    private JvmShutdown() {
    }

    /** Runs {@code close} when the JVM shuts down. */
    public static void register(final Runnable close) {
        CLOSES.add(close);
        if (HOOK_INSTALLED.compareAndSet(false, true)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> runEach(CLOSES), "snowkey-shutdown"));
        }
    }

    /**
     * Runs every close, each on its own: one that throws, an Error too (a class that no longer loads while the JVM
     * stops), is logged and does not keep the other runtime's leases from being released.
     */
    static void runEach(final List<Runnable> closes) {
        for (Runnable each : closes) {
            try {
                each.run();
            } catch (final RuntimeException | Error ex) {
                LOG.warn("SnowKey could not close its scopes at JVM shutdown: {}", ex.toString());
            }
        }
    }
}
