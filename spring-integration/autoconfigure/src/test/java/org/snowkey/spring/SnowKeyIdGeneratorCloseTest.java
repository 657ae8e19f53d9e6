package org.snowkey.spring;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.lease.LeaseUnavailableException;
import org.snowkey.keygen.runtime.SnowflakePlan;
import org.snowkey.keygen.runtime.SnowflakePlanner;
import org.snowkey.keygen.runtime.SnowflakeRuntime;

class SnowKeyIdGeneratorCloseTest {

    private final SnowflakeRuntime runtime = SnowflakeRuntime.get();

    @AfterEach
    void closeAll() {
        runtime.closeAll();
    }

    private static SnowflakePlan staticPlan(final int workerId) {
        Properties props = new Properties();
        props.setProperty("worker-id", Integer.toString(workerId));
        return SnowflakePlanner.get().plan(props, Optional.empty());
    }

    /**
     * Two threads close the bean at once, many times over: the bean leaves once, and a ShardingSphere context that
     * shares the scope keeps issuing on the lease until it leaves too.
     */
    @Test
    void twoThreadsClosingAtOnceLeaveTheScopeOnceAndTheContextKeepsTheLease() throws Exception {
        for (int round = 0; round < 50; round++) {
            Object context = new Object();
            SnowKeyIdGenerator bean = SnowKeyIdGenerator.open(runtime, staticPlan(45));
            IdGenerator shared = runtime.generator(staticPlan(45), context);
            CyclicBarrier start = new CyclicBarrier(2);
            CompletableFuture<Void> other = CompletableFuture.runAsync(() -> {
                await(start);
                bean.close();
            });
            await(start);
            bean.close();
            other.get();
            assertTrue(bean.isClosed());
            long before = shared.nextId();
            assertTrue(shared.nextId() > before, "the context still issues after the bean left");
            runtime.release(context);
            assertThrows(LeaseUnavailableException.class, shared::nextId, "released when the context left");
            assertFalse(runtime.generators().contains(shared));
        }
    }

    private static void await(final CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (final Exception ex) {
            throw new IllegalStateException(ex);
        }
    }
}
