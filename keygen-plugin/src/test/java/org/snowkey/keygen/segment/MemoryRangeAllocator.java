package org.snowkey.keygen.segment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An allocator over one in-memory "table" that tests can break: take it down, make the next call apply and then
 * fail (the answer lost), hold calls at a gate, or hand out a range it handed out before (a broken store).
 */
final class MemoryRangeAllocator implements RangeAllocator {

    private final Map<String, AtomicLong> highest = new ConcurrentHashMap<>();

    private final List<NumberRange> handedOut = new ArrayList<>();

    final AtomicInteger calls = new AtomicInteger();

    volatile boolean down;

    volatile boolean applyThenFailOnce;

    volatile boolean repeatLastOnce;

    /** When set, each call takes a permit first: a test holds the allocator "in flight". */
    volatile Semaphore gate;

    @Override
    public NumberRange allocate(final String key, final long size) {
        calls.incrementAndGet();
        Semaphore held = gate;
        if (held != null) {
            held.acquireUninterruptibly();
        }
        if (down) {
            throw new RangeUnavailableException("memory allocator is down");
        }
        AtomicLong last = highest.computeIfAbsent(key, each -> new AtomicLong());
        NumberRange range;
        if (repeatLastOnce) {
            repeatLastOnce = false;
            long end = last.get();
            range = new NumberRange(Math.max(1, end - size + 1), end);
        } else {
            long end = last.addAndGet(size);
            range = new NumberRange(end - size + 1, end);
        }
        synchronized (handedOut) {
            handedOut.add(range);
        }
        if (applyThenFailOnce) {
            applyThenFailOnce = false;
            throw new RangeUnavailableException("memory allocator applied " + range + " but the answer was lost");
        }
        return range;
    }

    List<NumberRange> handedOut() {
        synchronized (handedOut) {
            return List.copyOf(handedOut);
        }
    }

    @Override
    public String describe() {
        return "memory allocator";
    }
}
