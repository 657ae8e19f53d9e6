package org.snowkey.keygen.segment;

/**
 * A segment sequence as health checks and metrics see it.
 *
 * @param key                 the sequence key
 * @param allocator           where its ranges come from
 * @param step                the size of the range last asked for
 * @param remaining           keys it can issue without the allocator (current range and the fetched next one)
 * @param keysPerSecond       the recent issue rate, 0 before a rate is known
 * @param runwaySeconds       how long {@code remaining} lasts at that rate: what an allocator outage may last
 *                            before inserts fail; infinite while nothing is issued
 * @param rangesFetched       ranges received so far
 * @param fetchFailures       allocator calls that failed (each retried)
 * @param lastFetchNanos      how long the last successful allocation took
 * @param lastFailure         the message of the failure of the current outage, or null while the allocator answers
 * @param stoppedBecause      why the sequence stopped for good, or null
 */
public record SegmentStatus(String key, String allocator, long step, long remaining, double keysPerSecond, double runwaySeconds,
                            long rangesFetched, long fetchFailures, long lastFetchNanos, String lastFailure, String stoppedBecause) {
}
