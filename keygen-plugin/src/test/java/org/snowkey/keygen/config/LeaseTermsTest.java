package org.snowkey.keygen.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;

import org.junit.jupiter.api.Test;

/**
 * The intervals and timeouts a lease derives from its duration: the numbers the lease used before they moved here
 * (renewal a third, retry a tenth within 50 ms and 1 s, a store call a quarter within the store's ceiling).
 */
class LeaseTermsTest {

    private static LeaseTerms lasting(final long durationMillis) {
        return new LeaseTerms(LeaseTerms.DEFAULT_POOL, durationMillis, LeaseTerms.DEFAULT_ACQUIRE_TIMEOUT_MILLIS, null);
    }

    @Test
    void theDefaultLeaseRenewsEveryTwentySecondsAndRetriesEverySecond() {
        LeaseTerms terms = LeaseTerms.parse(new PropertyReader(new Properties()));
        assertEquals(60_000, terms.durationMillis());
        assertEquals(20_000, terms.renewIntervalMillis());
        assertEquals(1_000, terms.retryIntervalMillis());
        assertEquals(15_000, terms.storeCallTimeoutMillis(30_000));
    }

    @Test
    void theShortestLeaseKeepsItsIntervalsApart() {
        LeaseTerms terms = lasting(LeaseTerms.MIN_DURATION_MILLIS);
        assertEquals(333, terms.renewIntervalMillis());
        assertEquals(100, terms.retryIntervalMillis());
        assertEquals(250, terms.storeCallTimeoutMillis(30_000));
        assertEquals(150, lasting(1_500).retryIntervalMillis());
    }

    @Test
    void theLongestLeaseStaysWithinTheCeilings() {
        LeaseTerms terms = lasting(LeaseTerms.MAX_DURATION_MILLIS);
        assertEquals(28_800_000, terms.renewIntervalMillis());
        assertEquals(1_000, terms.retryIntervalMillis());
        assertEquals(30_000, terms.storeCallTimeoutMillis(30_000));
    }

    @Test
    void aDurationBelowASecondIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> lasting(LeaseTerms.MIN_DURATION_MILLIS - 1));
    }

    @Test
    void withoutAnInstanceIdTheHolderIsThisProcessTheSameForEveryLease() {
        LeaseTerms first = lasting(60_000);
        LeaseTerms second = lasting(30_000);
        assertTrue(first.instanceId().endsWith("@" + ProcessHandle.current().pid()), first.instanceId());
        assertSame(first.instanceId(), second.instanceId(), "looked up once per JVM");
    }

    @Test
    void anInstanceIdSetIsTheHolder() {
        Properties props = new Properties();
        props.setProperty(PropertyNames.INSTANCE_ID, "node-7");
        assertEquals("node-7", LeaseTerms.parse(new PropertyReader(props)).instanceId());
    }
}
