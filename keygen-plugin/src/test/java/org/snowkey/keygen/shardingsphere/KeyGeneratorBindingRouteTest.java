package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.snowkey.keygen.mode.ClusterRegistry;

/**
 * The route of the last INSERT ({@link KeyGeneratorBinding#forTable}) answers without reading the issuer; these are the
 * three ways it must still give way to the issuer in force: a bind that changes the issuer forgets it, a closed issuer's
 * route is not taken, and a route written while the issuer changed is forgotten by its writer. Each test fails with its
 * guard removed.
 */
class KeyGeneratorBindingRouteTest {

    /** The same String instances every time, as ShardingSphere passes them for a cached statement. */
    private static final String DATABASE = "logic_db";

    private static final String TABLE = "t_order";

    @Test
    void aBindThatChangesTheIssuerForgetsTheRouteToTheOldOne() {
        RecordingBinding binding = new RecordingBinding();
        binding.init(new Properties());
        // The first INSERT before ShardingSphere handed over its context: an issuer opened without it.
        String withoutContext = binding.forTable(DATABASE, TABLE);
        binding.bind(Optional.empty(), new Object());

        String afterBind = binding.forTable(DATABASE, TABLE);
        assertEquals("issuer-2:logic_db.t_order", afterBind, "the route to the issuer opened before the bind (" + withoutContext + ", still open) was kept");
    }

    @Test
    void theRouteOfAClosedIssuerIsNotTaken() {
        RecordingBinding binding = new RecordingBinding();
        binding.init(new Properties());
        binding.bind(Optional.empty(), new Object());
        assertEquals("issuer-1:logic_db.t_order", binding.forTable(DATABASE, TABLE));
        assertSame(binding.forTable(DATABASE, TABLE), binding.forTable(DATABASE, TABLE), "a burst into one table takes the route");

        binding.opened.get(0).closed = true;
        assertEquals("issuer-2:logic_db.t_order", binding.forTable(DATABASE, TABLE), "the closed issuer's route was taken");
    }

    @Test
    void aRouteWrittenWhileABindChangesTheIssuerIsForgottenByItsWriter() throws Exception {
        RecordingBinding binding = new RecordingBinding();
        binding.init(new Properties());
        binding.bind(Optional.empty(), new Object());
        // Another table, so that the first INSERT below has no route to take and looks the table up in issuer 1.
        binding.forTable(DATABASE, "t_other");
        ExecutorService inserting = Executors.newSingleThreadExecutor();
        try {
            binding.pauseNextLookUp();
            Future<String> slowInsert = inserting.submit(() -> binding.forTable(DATABASE, TABLE));
            assertTrue(binding.lookingUp.await(30, TimeUnit.SECONDS), "the INSERT never looked its table up");
            // The issuer changes (and forgets the route) after the INSERT read it and before it writes its route.
            binding.bind(Optional.empty(), new Object());
            binding.resume.countDown();
            assertEquals("issuer-1:logic_db.t_order", slowInsert.get(30, TimeUnit.SECONDS), "the INSERT issues from the issuer it read");

            assertEquals("issuer-2:logic_db.t_order", binding.forTable(DATABASE, TABLE),
                    "a route to the issuer the bind replaced outlived the bind (issuer 1 is still open)");
        } finally {
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

    /** Opens issuers named by their order; a table maps to "issuer:database.table", a new String each time. */
    private static final class RecordingBinding extends KeyGeneratorBinding<String, String, Issuer, String> {

        private final List<Issuer> opened = new CopyOnWriteArrayList<>();

        private final AtomicInteger openCount = new AtomicInteger();

        private volatile boolean pauseNext;

        private final CountDownLatch lookingUp = new CountDownLatch(1);

        private final CountDownLatch resume = new CountDownLatch(1);

        RecordingBinding() {
            super("TEST");
        }

        void pauseNextLookUp() {
            pauseNext = true;
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
            return "plan";
        }

        @Override
        void checkSpringPlans(final String settings, final String plan) {
        }

        @Override
        Issuer open(final String plan, final Object owner) {
            Issuer issuer = new Issuer("issuer-" + openCount.incrementAndGet());
            opened.add(issuer);
            return issuer;
        }

        @Override
        boolean isClosed(final Issuer issuer) {
            return issuer.closed;
        }

        @Override
        String valueFor(final Issuer issuer, final String database, final String table) {
            if (pauseNext) {
                pauseNext = false;
                lookingUp.countDown();
                try {
                    if (!resume.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("never resumed");
                    }
                } catch (final InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(ex);
                }
            }
            return issuer.name + ":" + database + "." + table;
        }
    }
}
