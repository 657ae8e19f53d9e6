package org.snowkey.keygen.shardingsphere;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * ShardingSphere 5.5.0's contexts (one per data source), by logical database name, and which of them SnowKey has
 * released. 5.5.0 names only the database when a data source closes, so a close is matched to a context as follows:
 *
 * <ul>
 *   <li>the only context of that name still reachable is the one closing (a data source garbage-collected cannot
 *       close), and is released at once, unless it already was (a second close of the same data source);</li>
 *   <li>with several, SnowKey cannot tell which is closing, nor a second close of a closed one from the close of a live
 *       one: it releases none of them then, and each is released when its own context has closed
 *       ({@link ClosedSignal}), else at JVM exit. A lease held too long is safe; one released under a live data source
 *       is not.</li>
 * </ul>
 *
 * Contexts are kept weakly, so that data sources dropped by the application do not stay reachable from here.
 */
final class OpenContexts {

    private static final Logger LOG = LoggerFactory.getLogger(OpenContexts.class);

    private final Map<String, List<Entry>> byName = new HashMap<>();

    private final Consumer<Object> release;

    /** @param release what releasing a context's owner does (its worker leases and segment scopes end) */
    OpenContexts(final Consumer<Object> release) {
        this.release = release;
    }

    /**
     * A context was opened under that name.
     *
     * @param context the context (weakly kept: its identity stands for the data source)
     * @param owner what SnowKey's key generators of the context are owned by, or null when SnowKey bound none
     * @param closed tells when the context has closed
     */
    synchronized void opened(final String databaseName, final Object context, final Object owner, final ClosedSignal closed) {
        List<Entry> entries = byName.computeIfAbsent(databaseName, key -> new ArrayList<>());
        entries.removeIf(Entry::gone);
        entries.add(new Entry(context, owner, closed));
    }

    /** ShardingSphere is closing a data source of that name, without saying which. */
    void closing(final String databaseName) {
        Object releaseNow = null;
        List<Entry> watch = new ArrayList<>();
        synchronized (this) {
            List<Entry> entries = byName.get(databaseName);
            if (entries == null) {
                return;
            }
            entries.removeIf(Entry::gone);
            if (entries.size() == 1) {
                releaseNow = entries.get(0).takeOwner();
            } else {
                for (Entry each : entries) {
                    if (!each.released && !each.watched) {
                        each.watched = true;
                        watch.add(each);
                    }
                }
                if (!watch.isEmpty()) {
                    LOG.warn("SnowKey: ShardingSphere 5.5.0 closes one of {} data sources of logical database '{}' without saying which: "
                            + "each one's leases are released when its own context has closed", entries.size(), databaseName);
                }
            }
        }
        if (releaseNow != null) {
            release.accept(releaseNow);
        }
        for (Entry each : watch) {
            each.closed.whenClosed(() -> releaseClosed(each));
        }
    }

    private void releaseClosed(final Entry entry) {
        Object owner;
        synchronized (this) {
            owner = entry.takeOwner();
        }
        if (owner != null) {
            release.accept(owner);
        }
    }

    /** Tells when one context has closed, not before. */
    @FunctionalInterface
    interface ClosedSignal {

        /** Runs {@code action} once, after the context has closed (on any thread; never if it never closes). */
        void whenClosed(Runnable action);
    }

    private static final class Entry {

        private final WeakReference<Object> context;

        private final ClosedSignal closed;

        /** Held until released; null when SnowKey bound nothing in the context. */
        private Object owner;

        private boolean released;

        private boolean watched;

        private Entry(final Object context, final Object owner, final ClosedSignal closed) {
            this.context = new WeakReference<>(context);
            this.owner = owner;
            this.closed = closed;
        }

        /** The owner to release, once: null when released before, or when there is nothing to release. */
        private Object takeOwner() {
            if (released) {
                return null;
            }
            released = true;
            Object result = owner;
            owner = null;
            return result;
        }

        /** The data source was garbage-collected: it can neither close nor issue any more. */
        private boolean gone() {
            return context.get() == null && (released || owner == null);
        }
    }
}
