package org.snowkey.keygen.segment.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.snowkey.keygen.clock.WallClock;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.SegmentSequence;

class SegmentRuntimeTest {

    private final ExecutorService fetches = Executors.newCachedThreadPool();

    private final SegmentRuntime runtime = new SegmentRuntime(WallClock.system(), fetches, "pid@test-host");

    private final SegmentPlanner planner = new SegmentPlanner(Map.of(TestAllocatorProvider.NAME, new TestAllocatorProvider()));

    @AfterEach
    void stop() {
        runtime.closeAll();
        fetches.shutdownNow();
    }

    private SegmentPlan plan(final String store, final String... more) {
        Properties props = new Properties();
        props.setProperty("segment-allocator", "test");
        props.setProperty("test-store", store);
        props.setProperty("segment-step-min", "10");
        for (int i = 0; i + 1 < more.length; i += 2) {
            props.setProperty(more[i], more[i + 1]);
        }
        return planner.plan(planner.parse(props), Optional.empty());
    }

    @Test
    void equalPlansShareOneAllocatorAndOneSequencePerKeySoKeysOfATableStrictlyIncrease() {
        String store = "shared-" + System.nanoTime();
        Object first = new Object();
        Object second = new Object();
        SegmentScope a = runtime.join(plan(store), first);
        SegmentScope b = runtime.join(plan(store), second);
        assertSame(a, b);
        SegmentSequence sequence = a.sequence("db.t_order");
        assertSame(sequence, b.sequence("db.t_order"));
        long previous = 0;
        for (int i = 0; i < 35; i++) {
            long key = (i % 2 == 0 ? a : b).sequence("db.t_order").nextId();
            assertTrue(key > previous, key + " after " + previous);
            previous = key;
        }
        assertEquals(1, TestAllocatorProvider.OPENED.stream().filter(each -> each.store.equals(store)).count(), "one allocator for both");
        assertEquals("pid@test-host", TestAllocatorProvider.OPENED.stream().filter(each -> each.store.equals(store)).findFirst().orElseThrow().owner);
    }

    @Test
    void theLastOwnerToLeaveClosesTheSequencesAndTheAllocator() {
        String store = "leaving-" + System.nanoTime();
        Object first = new Object();
        Object second = new Object();
        SegmentScope scope = runtime.join(plan(store), first);
        runtime.join(plan(store), second);
        SegmentSequence sequence = scope.sequence("k");
        sequence.nextId();
        TestAllocatorProvider.Opened opened = TestAllocatorProvider.OPENED.stream().filter(each -> each.store.equals(store)).findFirst().orElseThrow();
        runtime.release(first);
        assertFalse(opened.closed, "the second owner still uses it");
        runtime.release(second);
        assertTrue(opened.closed);
        assertTrue(runtime.scopes().isEmpty());
        assertThrows(RangeUnavailableException.class, () -> scope.sequence("another"), "a closed scope makes no new sequence");
        SegmentScope next = runtime.join(plan(store), first);
        assertNotSame(scope, next);
        assertTrue(next.sequence("k").nextId() > 10, "a later scope allocates above the closed one's ranges");
    }

    @Test
    void plansThatDifferInSizingOrStartValuesGetScopesOfTheirOwn() {
        String store = "differ-" + System.nanoTime();
        Object owner = new Object();
        SegmentScope plain = runtime.join(plan(store), owner);
        SegmentScope started = runtime.join(plan(store, "segment-start-value", "500"), owner);
        SegmentScope bigger = runtime.join(plan(store, "segment-step-max", "20"), owner);
        assertNotSame(plain, started);
        assertNotSame(plain, bigger);
        assertEquals(3, runtime.scopes().size());
        assertTrue(started.sequence("k").nextId() >= 500);
        runtime.release(owner);
        assertTrue(runtime.scopes().isEmpty(), "one owner of three scopes leaves all three");
    }

    @Test
    void statusesListEverySequenceOfEveryScope() {
        Object owner = new Object();
        SegmentScope scope = runtime.join(plan("status-" + System.nanoTime()), owner);
        scope.sequence("a").nextId();
        scope.sequence("b").nextIds(3);
        assertEquals(2, runtime.statuses().size());
        assertTrue(runtime.statuses().stream().allMatch(each -> each.allocator().startsWith("test store")));
    }

    /**
     * A caller that took a sequence before its scope closed (an INSERT racing a context's close, a rule change) and
     * asks it for keys after the next generation issued some: the closed sequence must fail, not hand out the rest of
     * its range, keys below those the next generation has already issued in this JVM.
     */
    @Test
    void aSequenceOfAClosedScopeIssuesNothingMoreFromItsCurrentRange() {
        String store = "closed-" + System.nanoTime();
        SegmentSequence closed = runtime.join(plan(store), new Object()).sequence("db.t_order");
        long first = closed.nextId();
        runtime.closeAll();
        SegmentSequence next = runtime.join(plan(store), new Object()).sequence("db.t_order");
        assertNotSame(closed, next);
        long later = next.nextId();
        assertTrue(later > first);
        assertThrows(RangeUnavailableException.class, closed::nextId, "a key below " + later + " after it");
        assertThrows(RangeUnavailableException.class, () -> closed.nextIds(2), "keys below " + later + " after it");
    }
}
