package org.snowkey.keygen.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.generator.IdGenerator;
import org.snowkey.keygen.lease.LeaseUnavailableException;

class SnowflakeRuntimeTest {

    /** A runtime of its own: the last test runs the shutdown hook, after which the JVM's runtime treats owners as leaving. */
    private final SnowflakeRuntime runtime = new SnowflakeRuntime(WallClock.system(), hook -> { }, Scopes.Waiting.PARK);

    @AfterEach
    void closeAll() {
        runtime.closeAll();
    }

    private SnowflakePlan staticPlan(final int workerId) {
        Properties props = new Properties();
        props.setProperty("worker-id", Integer.toString(workerId));
        return SnowflakePlanner.get().plan(props, java.util.Optional.empty());
    }

    @Test
    void aScopeIsReleasedWhenItsLastOwnerGoes() {
        Object first = new Object();
        Object second = new Object();
        IdGenerator generator = runtime.generator(staticPlan(40), first);
        runtime.generator(staticPlan(40), second);
        runtime.release(first);
        generator.nextId();
        runtime.release(second);
        assertThrows(LeaseUnavailableException.class, generator::nextId, "released with its last owner");
    }

    /**
     * An owner is a ShardingSphere context: each of its key generators joins with it, and it is released once, when the
     * context is destroyed. Owners are a set, not a count: one release ends all of its joins, and a release of an owner
     * that never joined changes nothing.
     */
    @Test
    void anOwnerThatJoinedTwiceLeavesWithOneReleaseAndAStrangerLeavesNothing() {
        Object context = new Object();
        Object other = new Object();
        IdGenerator generator = runtime.generator(staticPlan(43), context);
        runtime.generator(staticPlan(43), context);
        runtime.release(new Object());
        generator.nextId();
        runtime.generator(staticPlan(43), other);
        runtime.release(context);
        generator.nextId();
        runtime.release(other);
        assertThrows(LeaseUnavailableException.class, generator::nextId, "released when its owners, each once, had gone");
    }

    /** A second release of the same owner (two closes racing) must not take another owner's membership with it. */
    @Test
    void anOwnerReleasedTwiceLeavesOnceAndTheOtherOwnerKeepsTheLease() {
        Object bean = new Object();
        Object context = new Object();
        IdGenerator generator = runtime.generator(staticPlan(44), bean);
        runtime.generator(staticPlan(44), context);
        runtime.release(bean);
        runtime.release(bean);
        generator.nextId();
        assertTrue(runtime.generators().contains(generator), "the context still owns the scope");
        runtime.release(context);
        assertThrows(LeaseUnavailableException.class, generator::nextId, "released when the context left");
    }

    @Test
    void theShutdownHookLeavesScopesThatTheirOwnerReleasesInItsOwnOrder() {
        Object springContext = new Object();
        IdGenerator selfReleased = runtime.generatorReleasedByOwner(staticPlan(41), springContext);
        IdGenerator plain = runtime.generator(staticPlan(42), new Object());
        runtime.closeAllOnShutdown();
        assertThrows(LeaseUnavailableException.class, plain::nextId, "the hook released the plain scope");
        selfReleased.nextId();
        assertTrue(runtime.generators().contains(selfReleased), "the owner's scope is still open for its data sources");
        runtime.release(springContext);
        assertFalse(runtime.generators().contains(selfReleased));
    }
}
