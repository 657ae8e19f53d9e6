package org.snowkey.keygen.config;

/**
 * The clock rules a generator issues under, parsed by {@link GeneratorSettings#parse} and carried whole to the
 * generator's issue policy, which is the one place that applies them. Key generators sharing a worker id in one JVM
 * share a generator, so they must agree on these rules as on the layout.
 *
 * @param maxTolerateTimeDifferenceMillis how long a call may wait for a clock that moved back, or for a lease that starts ahead of this clock
 * @param maxTimeCacheMillis how far the logical timestamp may lag the wall clock (the time cache cap); 0 turns the cache off
 */
public record ClockRules(long maxTolerateTimeDifferenceMillis, long maxTimeCacheMillis) {

    /** The rules as props, for a message that names what differs. */
    public String describe() {
        return PropertyNames.MAX_TOLERATE_TIME_DIFFERENCE_MILLISECONDS + "=" + maxTolerateTimeDifferenceMillis + ", "
                + PropertyNames.MAX_TIME_CACHE_MILLISECONDS + "=" + maxTimeCacheMillis;
    }
}
