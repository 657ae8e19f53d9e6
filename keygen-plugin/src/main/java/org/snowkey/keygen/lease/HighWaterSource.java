package org.snowkey.keygen.lease;

/** A counter issuing on a {@link LeaseGrant}, as the grant sees it: told when the grant is revoked, sealed when it is released. */
public interface HighWaterSource {

    /**
     * Stops the counter issuing on the grant and returns the highest wall-clock millisecond it issued,
     * or {@code Long.MIN_VALUE} when it issued nothing. After it returns, no id of the counter can carry a
     * later timestamp on this grant.
     */
    long seal();

    /**
     * The grant was revoked (lease lost, expired or released), or was revoked already when the counter attached: the
     * counter stops issuing on it from its next call. Called under the grant's lock; must not block.
     */
    void revoked();
}
