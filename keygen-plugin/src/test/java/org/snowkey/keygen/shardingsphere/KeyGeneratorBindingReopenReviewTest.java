package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.snowkey.keygen.mode.ClusterRegistry;

/**
 * Review of commit 8999e08: {@code reopen} installs the issuer it opened by compare-and-set and, when a bind (which takes
 * no lock) installed one meanwhile, returns the bind's. Interleavings of reopen with a bind, another reopen and a close.
 */
class KeyGeneratorBindingReopenReviewTest {

    private static final String DATABASE = "logic_db";

    private static final String TABLE = "t_order";

    /**
     * An issuer bound with context 1 closes (its context was released); the next INSERT reopens it with context 1 and,
     * while that open is under way, ShardingSphere binds again with context 2. The late reopen must not undo the second
     * bind (the same race as KeyGeneratorBindingReviewTest, but reopening a closed issuer, not opening the first one).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aBindThatCompletesWhileAClosedIssuerIsReopenedIsNotUndone() throws Exception {
        PausingBinding binding = new PausingBinding();
        binding.init(new Properties());
        Object context1 = "ctx1";
        binding.bind(Optional.empty(), context1);
        Issuer first = binding.issuer();
        assertEquals("issuer-1(ctx1)", binding.forTable(DATABASE, TABLE).split(":")[0]);
        binding.pauseOpenNumber.set(2);
        binding.closed.add(first);
        ExecutorService inserting = Executors.newSingleThreadExecutor();
        try {
            Future<String> insert = inserting.submit(() -> binding.forTable(DATABASE, TABLE));
            assertTrue(binding.paused.await(30, TimeUnit.SECONDS), "the INSERT never reopened");
            binding.bind(Optional.empty(), "ctx2");
            binding.resume.countDown();
            insert.get(30, TimeUnit.SECONDS);
            assertEquals("issuer-3(ctx2)", binding.issuer().name, "the second bind's issuer stands");
            assertEquals("issuer-3(ctx2):logic_db.t_order", binding.forTable(DATABASE, TABLE));
        } finally {
            binding.resume.countDown();
            inserting.shutdownNow();
        }
    }

    /**
     * The first INSERT opens without the context; meanwhile a bind completes and its issuer closes again (the context was
     * released at once, e.g. a start-up that failed later). When the INSERT's open finishes, reopen's compare-and-set
     * fails and it returns the bound issuer, now closed: {@code issuer()} (documented to reopen a closed issuer) hands out a
     * closed one and the INSERT issues from it. Before 8999e08 the INSERT got the issuer it had just opened.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void reopenNeverReturnsAClosedIssuer() throws Exception {
        PausingBinding binding = new PausingBinding();
        binding.init(new Properties());
        binding.pauseOpenNumber.set(1);
        ExecutorService inserting = Executors.newSingleThreadExecutor();
        try {
            Future<Issuer> insert = inserting.submit(binding::issuer);
            assertTrue(binding.paused.await(30, TimeUnit.SECONDS), "the first INSERT never opened an issuer");
            binding.bind(Optional.empty(), "ctx");
            Issuer bound = binding.issuer();
            binding.closed.add(bound);
            binding.resume.countDown();
            Issuer got = insert.get(30, TimeUnit.SECONDS);
            assertFalse(binding.closed.contains(got), "issuer() returned a closed issuer: " + got.name);
        } finally {
            binding.resume.countDown();
            inserting.shutdownNow();
        }
    }

    /** Two INSERTs find no issuer at once: one issuer is opened (reopen holds the lock), and both issue from it. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void twoFirstInsertsOpenOneIssuer() throws Exception {
        PausingBinding binding = new PausingBinding();
        binding.init(new Properties());
        binding.pauseOpenNumber.set(1);
        ExecutorService inserting = Executors.newFixedThreadPool(2);
        try {
            Future<String> a = inserting.submit(() -> binding.forTable(DATABASE, TABLE));
            assertTrue(binding.paused.await(30, TimeUnit.SECONDS));
            Future<String> b = inserting.submit(() -> binding.forTable(DATABASE, TABLE));
            binding.resume.countDown();
            assertEquals(a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS));
            assertEquals(1, binding.openCount.get(), "one issuer opened");
        } finally {
            binding.resume.countDown();
            inserting.shutdownNow();
        }
    }

    /** An issuer: what it was opened for. */
    static final class Issuer {

        final String name;

        Issuer(final String name) {
            this.name = name;
        }
    }

    /** Opens issuers named by their order and owner; the open numbered {@link #pauseOpenNumber} waits for the test. */
    static final class PausingBinding extends KeyGeneratorBinding<String, String, Issuer, String> {

        final AtomicInteger openCount = new AtomicInteger();

        final AtomicInteger pauseOpenNumber = new AtomicInteger(-1);

        final CountDownLatch paused = new CountDownLatch(1);

        final CountDownLatch resume = new CountDownLatch(1);

        final Set<Issuer> closed = ConcurrentHashMap.newKeySet();

        PausingBinding() {
            super("TEST");
        }

        @Override
        String parse(final Properties props) {
            return "settings";
        }

        @Override
        String plan(final String settings, final Optional<ClusterRegistry> cluster) {
            return "plan";
        }

        @Override
        String planWithoutContext(final String settings) {
            return "plan without context";
        }

        @Override
        void checkSpringPlans(final String settings, final String plan) {
        }

        @Override
        Issuer open(final String plan, final Object owner) {
            int number = openCount.incrementAndGet();
            if (number == pauseOpenNumber.get()) {
                paused.countDown();
                try {
                    if (!resume.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("never resumed");
                    }
                } catch (final InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(ex);
                }
            }
            return new Issuer("issuer-" + number + "(" + (owner == null ? "no context" : owner) + ")");
        }

        @Override
        boolean isClosed(final Issuer issuer) {
            return closed.contains(issuer);
        }

        @Override
        String valueFor(final Issuer issuer, final String database, final String table) {
            return issuer.name + ":" + database + "." + table;
        }
    }
}
