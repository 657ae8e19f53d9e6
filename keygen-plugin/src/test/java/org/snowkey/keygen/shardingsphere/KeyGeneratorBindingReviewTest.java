package org.snowkey.keygen.shardingsphere;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Properties;
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
 * A bind that ShardingSphere makes while the first INSERT, never told the context, is still opening an issuer without
 * it (found reviewing the route of the last INSERT, {@link KeyGeneratorBinding#forTable}).
 */
class KeyGeneratorBindingReviewTest {

    private static final String DATABASE = "logic_db";

    private static final String TABLE = "t_order";

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
        PausingBinding binding = new PausingBinding();
        binding.init(new Properties());
        ExecutorService inserting = Executors.newSingleThreadExecutor();
        try {
            Future<String> firstInsert = inserting.submit(() -> binding.forTable(DATABASE, TABLE));
            assertTrue(binding.openingWithoutContext.await(30, TimeUnit.SECONDS), "the first INSERT never opened an issuer");
            Object context = new Object();
            binding.bind(Optional.empty(), context);
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

    /** An issuer: what it was opened for, and whether a test closed it. */
    private static final class Issuer {

        private final String name;

        Issuer(final String name) {
            this.name = name;
        }
    }

    /** Opens issuers named by their order and owner; the open without a context waits for the test. */
    private static final class PausingBinding extends KeyGeneratorBinding<String, String, Issuer, String> {

        private final AtomicInteger openCount = new AtomicInteger();

        private final CountDownLatch openingWithoutContext = new CountDownLatch(1);

        private final CountDownLatch resume = new CountDownLatch(1);

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
            if (owner == null) {
                openingWithoutContext.countDown();
                try {
                    if (!resume.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("never resumed");
                    }
                } catch (final InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(ex);
                }
                return new Issuer("issuer-" + number + "(no context)");
            }
            return new Issuer("issuer-" + number + "(context)");
        }

        @Override
        boolean isClosed(final Issuer issuer) {
            return false;
        }

        @Override
        String valueFor(final Issuer issuer, final String database, final String table) {
            return issuer.name + ":" + database + "." + table;
        }
    }
}
