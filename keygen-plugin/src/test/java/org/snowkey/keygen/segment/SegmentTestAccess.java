package org.snowkey.keygen.segment;

import java.util.List;

import org.snowkey.keygen.testing.ManualClock;

/** Builds segment sequences for tests outside this package (the model checks). */
public final class SegmentTestAccess {

    private SegmentTestAccess() {
    }

    /** The sequence's collaborators that a model check may treat as atomic: the allocator of {@link #tinyRanges()}, statistics, step sizing. */
    public static List<String> collaboratorClassNames() {
        return List.of(MemoryRangeAllocator.class.getName(), SegmentStats.class.getName(), AdaptiveStep.class.getName());
    }

    /** A sequence over an in-memory allocator with ranges of two keys, fetching in the caller's thread on a manual clock. */
    public static Fixture tinyRanges() {
        return new Fixture();
    }

    public static final class Fixture {

        private final MemoryRangeAllocator allocator = new MemoryRangeAllocator();

        private final SegmentSequence sequence = new SegmentSequence("db.t_order", allocator, new SegmentSettings(2, 2, 10_000, 50, 600_000),
                new ManualClock(1_000_000L).advanceOnPause(true), Runnable::run);

        public SegmentSequence sequence() {
            return sequence;
        }

        public void loseTheNextAnswer() {
            allocator.applyThenFailOnce = true;
        }
    }
}
