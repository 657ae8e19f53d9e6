package org.snowkey.segment.store;

import org.snowkey.keygen.segment.NumberRange;
import org.snowkey.keygen.segment.RangeUnavailableException;
import org.snowkey.keygen.segment.StartValues;

/** The range a counter of the tree stores (etcd, ZooKeeper) gives, the same rule for both. */
public final class CounterRanges {

    private CounterRanges() {
    }

    /**
     * From the counter (or the key's start value, if higher) up to {@code wanted} numbers or 2^53 - 1.
     *
     * @param counter the counter's key or path, for the message
     * @param store the store as {@code describe()} names it, for the message
     * @throws RangeUnavailableException when the key has used up its numbers
     */
    public static NumberRange next(final String key, final String counter, final long counterValue, final StartValues starts, final long wanted,
                                   final String store) {
        long first = Math.max(counterValue, starts.startOf(key));
        if (first > NumberRange.MAX_KEY) {
            throw new RangeUnavailableException("SnowKey segment key '" + key + "' has used up its numbers on " + store + ": " + counter + " is at "
                    + first + ", above 2^53 - 1 (" + NumberRange.MAX_KEY + "), the highest segment number; use another key");
        }
        return new NumberRange(first, first + Math.min(wanted, NumberRange.MAX_KEY - first + 1) - 1);
    }
}
