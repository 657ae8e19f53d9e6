package org.snowkey.keygen.runtime;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one JVM shutdown hook of SnowKey: it closes the scopes of both generators, because ShardingSphere never closes
 * algorithms. Each runtime registers its close once, when it opens its first generation; the hook runs them in that
 * order, each on its own (one that fails is logged and does not stop the others).
 */
public final class JvmShutdown {

    private static final Logger LOG = LoggerFactory.getLogger(JvmShutdown.class);

    private static final JvmShutdown JVM = new JvmShutdown(hook -> Runtime.getRuntime().addShutdownHook(hook));

    private final List<Runnable> closes = new CopyOnWriteArrayList<>();

    /** Adds the hook thread to the JVM; throws when the JVM is already stopping. */
    private final Consumer<Thread> addHook;

    /** Guarded by this: set only once the hook was added, so that a refused add is tried again by the next registration. */
    private boolean hookAdded;

    JvmShutdown(final Consumer<Thread> addHook) {
        this.addHook = addHook;
    }

    /**
     * Runs {@code close} when the JVM shuts down.
     *
     * @throws IllegalStateException when the JVM is already stopping: {@code close} is then not registered
     */
    public static void register(final Runnable close) {
        JVM.add(close);
    }

    synchronized void add(final Runnable close) {
        closes.add(close);
        if (hookAdded) {
            return;
        }
        try {
            addHook.accept(new Thread(() -> runEach(closes), "snowkey-shutdown"));
        } catch (final RuntimeException | Error ex) {
            closes.remove(close);
            throw ex;
        }
        hookAdded = true;
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
