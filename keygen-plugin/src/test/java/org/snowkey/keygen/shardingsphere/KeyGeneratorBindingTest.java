package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
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
 * The route of the last INSERT ({@link KeyGeneratorBinding#forTable}) answers without reading the issuer; these are the
 * three ways it must still give way to the issuer in force: a bind that changes the issuer forgets it, a closed issuer's
 * route is not taken, and a route written while the issuer changed is forgotten by its writer. Each test fails with its
 * guard removed. And the issuer reopen installs: a bind completing while an INSERT opens one is not undone, a closed
 * issuer is never handed out, and two INSERTs at once open one issuer.
 */
class KeyGeneratorBindingTest {

    /** The same String instances every time, as ShardingSphere passes them for a cached statement. */
    private static final String DATABASE = "logic_db";

    private static final String TABLE = "t_order";

    @Test
    void aBindThatChangesTheIssuerForgetsTheRouteToTheOldOne() {
        RecordingBinding binding = new RecordingBinding();
        binding.init(new Properties());
        // The first INSERT before ShardingSphere handed over its context: an issuer opened without it.
        String withoutContext = binding.forTable(DATABASE, TABLE);
        binding.bind(Optional.empty(), "context");

        String afterBind = binding.forTable(DATABASE, TABLE);
        assertEquals("issuer-2(context):logic_db.t_order", afterBind, "the route to the issuer opened before the bind (" + withoutContext + ", still open) was kept");
    }

    @Test
    void theRouteOfAClosedIssuerIsNotTaken() {
        RecordingBinding binding = new RecordingBinding();
        binding.init(new Properties());
        binding.bind(Optional.empty(), "context");
        assertEquals("issuer-1(context):logic_db.t_order", binding.forTable(DATABASE, TABLE));
        assertSame(binding.forTable(DATABASE, TABLE), binding.forTable(DATABASE, TABLE), "a burst into one table takes the route");

        binding.opened.get(0).closed = true;
        assertEquals("issuer-2(context):logic_db.t_order", binding.forTable(DATABASE, TABLE), "the closed issuer's route was taken");
    }

    @Test
    void aRouteWrittenWhileABindChangesTheIssuerIsForgottenByItsWriter() throws Exception {
        RecordingBinding binding = new RecordingBinding();
        binding.init(new Properties());
        binding.bind(Optional.empty(), "context");
        // Another table, so that the first INSERT below has no route to take and looks the table up in issuer 1.
        binding.forTable(DATABASE, "t_other");
        ExecutorService inserting = Executors.newSingleThreadExecutor();
        try {
            binding.pauseNextLookUp();
            Future<String> slowInsert = inserting.submit(() -> binding.forTable(DATABASE, TABLE));
            assertTrue(binding.paused.await(30, TimeUnit.SECONDS), "the INSERT never looked its table up");
            // The issuer changes (and forgets the route) after the INSERT read it and before it writes its route.
            binding.bind(Optional.empty(), "context");
            binding.resume.countDown();
            assertEquals("issuer-1(context):logic_db.t_order", slowInsert.get(30, TimeUnit.SECONDS), "the INSERT issues from the issuer it read");

            assertEquals("issuer-2(context):logic_db.t_order", binding.forTable(DATABASE, TABLE),
                    "a route to the issuer the bind replaced outlived the bind (issuer 1 is still open)");
        } finally {
            inserting.shutdownNow();
        }
    }

    /**
     * The first INSERT finds no issuer and opens one without the context (reopen, under the binding's lock); while that
     * open is under way ShardingSphere hands over its context and the bind completes (bind takes no lock). The INSERT's
     * open finishing afterwards must not undo the completed bind: every later INSERT issues from the bound issuer, the
     * one the context owns and releases. Failed before reopen installed its issuer by compare-and-set (older than the
     * route: reopen wrote its issuer over the bound one, and the route then served it for good).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aBindThatCompletesWhileTheFirstInsertOpensWithoutTheContextIsNotUndone() throws Exception {
        RecordingBinding binding = new RecordingBinding();
        binding.init(new Properties());
        ExecutorService inserting = Executors.newSingleThreadExecutor();
        try {
            binding.pauseOpenNumber.set(1);
            Future<String> firstInsert = inserting.submit(() -> binding.forTable(DATABASE, TABLE));
            assertTrue(binding.paused.await(30, TimeUnit.SECONDS), "the first INSERT never opened an issuer");
            binding.bind(Optional.empty(), "context");
            assertEquals("issuer-2(context)", binding.issuer().name, "the bind completed with the context's issuer");
            binding.resume.countDown();
            // The first INSERT may issue from what it opened: it started before the bind.
            firstInsert.get(30, TimeUnit.SECONDS);

            assertEquals("issuer-2(context):logic_db.t_order", binding.forTable(DATABASE, TABLE),
                    "an INSERT after the bind completed issues from the issuer opened without the context, which nobody releases");
            assertEquals("issuer-2(context)", binding.issuer().name, "the binding's issuer after the bind completed");
        } finally {
            binding.resume.countDown();
            inserting.shutdownNow();
        }
    }

    /**
     * An issuer bound with context 1 closes (its context was released); the next INSERT reopens it with context 1 and,
     * while that open is under way, ShardingSphere binds again with context 2. The late reopen must not undo the second
     * bind (the race above, but reopening a closed issuer, not opening the first one).
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aBindThatCompletesWhileAClosedIssuerIsReopenedIsNotUndone() throws Exception {
        RecordingBinding binding = new RecordingBinding();
        binding.init(new Properties());
        Object context1 = "ctx1";
        binding.bind(Optional.empty(), context1);
        Issuer first = binding.issuer();
        assertEquals("issuer-1(ctx1)", binding.forTable(DATABASE, TABLE).split(":")[0]);
        binding.pauseOpenNumber.set(2);
        first.closed = true;
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
     * closed one and the INSERT issues from it. Failed when a lost compare-and-set returned the bound issuer unchecked.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void reopenNeverReturnsAClosedIssuer() throws Exception {
        RecordingBinding binding = new RecordingBinding();
        binding.init(new Properties());
        binding.pauseOpenNumber.set(1);
        ExecutorService inserting = Executors.newSingleThreadExecutor();
        try {
            Future<Issuer> insert = inserting.submit(binding::issuer);
            assertTrue(binding.paused.await(30, TimeUnit.SECONDS), "the first INSERT never opened an issuer");
            binding.bind(Optional.empty(), "ctx");
            Issuer bound = binding.issuer();
            bound.closed = true;
            binding.resume.countDown();
            Issuer got = insert.get(30, TimeUnit.SECONDS);
            assertFalse(got.closed, "issuer() returned a closed issuer: " + got.name);
        } finally {
            binding.resume.countDown();
            inserting.shutdownNow();
        }
    }

    /** Two INSERTs find no issuer at once: one issuer is opened (reopen holds the lock), and both issue from it. */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void twoFirstInsertsOpenOneIssuer() throws Exception {
        RecordingBinding binding = new RecordingBinding();
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

    /** An issuer that a test closes by hand. */
    private static final class Issuer {

        private final String name;

        private volatile boolean closed;

        Issuer(final String name) {
            this.name = name;
        }
    }

    /**
     * Opens issuers named by their order and owner (the context handed over, a String here); a table maps to
     * "issuer:database.table", a new String each time. A test may pause one open, by its number, or the next look-up,
     * until it resumes it.
     */
    private static final class RecordingBinding extends KeyGeneratorBinding<String, String, Issuer, String> {

        private final List<Issuer> opened = new CopyOnWriteArrayList<>();

        private final AtomicInteger openCount = new AtomicInteger();

        /** The number of the open that waits for the test ({@link #resume}); none by default. */
        private final AtomicInteger pauseOpenNumber = new AtomicInteger(-1);

        private volatile boolean pauseNextLookUp;

        private final CountDownLatch paused = new CountDownLatch(1);

        private final CountDownLatch resume = new CountDownLatch(1);

        RecordingBinding() {
            super("TEST");
        }

        void pauseNextLookUp() {
            pauseNextLookUp = true;
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
                pauseUntilResumed();
            }
            Issuer issuer = new Issuer("issuer-" + number + "(" + (owner == null ? "no context" : owner) + ")");
            opened.add(issuer);
            return issuer;
        }

        @Override
        boolean isClosed(final Issuer issuer) {
            return issuer.closed;
        }

        @Override
        String valueFor(final Issuer issuer, final String database, final String table) {
            if (pauseNextLookUp) {
                pauseNextLookUp = false;
                pauseUntilResumed();
            }
            return issuer.name + ":" + database + "." + table;
        }

        private void pauseUntilResumed() {
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
    }
}
